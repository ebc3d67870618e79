"""The run command and the simulator's entry point: clear errors, a quick start, no sympy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.board.options import parse_settings
from controller.cli.selftest import selftest
from controller.rules.game import Game
from controller.session import SessionConfig
from drivers.factory import build_devices
from drivers.profile import load_profile
from tests.session.helpers import damath_game, open_session

from .helpers import snapshot_at

ROOT = Path(__file__).resolve().parents[2]
EXE = str(ROOT / ".venv" / "bin" / "damath-board")


@pytest.mark.slow
def test_run_starts_quickly_without_sympy_and_stops_cleanly(tmp_path):
    ready = tmp_path / "ready"
    result = subprocess.run(
        [EXE, "run", "--profile", str(ROOT / "hardware/sim.toml"), "--state-dir",
         str(tmp_path), "--exit-after", "0.2", "--ready-file", str(ready)],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert float(ready.read_text()) > 0  # ready was announced (how soon: bench/bench_session.py)
    assert (tmp_path / "journal.jsonl").exists()
    code = "import sys, controller.cli.run, controller.session, controller.view.compose; "
    code += "print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_run_with_a_wrong_profile_says_so_in_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[board]\nname = "x"\n[sensors]\nbackend = "laser"\n')
    result = subprocess.run([EXE, "run", "--profile", str(bad)], capture_output=True, text=True)
    assert result.returncode == 2
    assert "unknown backend 'laser'" in result.stderr and "Traceback" not in result.stderr


def test_settings_from_the_command_line():
    assert parse_settings(["touch_move=true", "move_seconds=30"]) == {
        "touch_move": True,
        "move_seconds": 30,
    }


def test_simulator_sessions_are_journaled_per_board_and_resume(tmp_path):
    s = open_session(BoardHost.of_board(tmp_path, "table-3"), SessionConfig(), 0.0)
    s.feed_frame(0.0, Game.new("integer").occupied())
    s.advance(1.0)
    assert s.phase == "play"
    s.journal.close()
    again = open_session(BoardHost.of_board(tmp_path, "table-3"), SessionConfig(), 50.0)
    assert again.phase == "restore"
    snap = snapshot_at(again, 50.0)
    assert snap["phase"] == "restore" and len(snap["leds"]) == 32
    assert open_session(BoardHost.of_board(None, "other"), SessionConfig(), 0.0).phase == "setup"


def test_selftest_finds_stuck_sensors_with_the_mock_board():
    devices = build_devices(load_profile(ROOT / "hardware/sim.toml"))
    clock = [0.0]
    hands = devices.controls()
    stuck_on = (1, 0)

    def lift_each_chip(t: float) -> None:
        # every square read occupied once, then empty, except (1, 0) which never lets go and
        # (6, 7) which never reads a chip
        k = int(t * 10) % 33
        squares = sorted(s for s in {(x, y) for x in range(8) for y in range(8)} if sum(s) % 2)
        on = {squares[k]} if k < 32 else set()
        hands.set_occupied((on | {stuck_on}) - {(6, 7)})

    def tick(dt: float) -> None:
        clock[0] += dt

    report = selftest(devices, lambda: clock[0], tick, 0.0, 4.0, lift_each_chip, lambda s: None)
    devices.close()
    assert report.walked == 32
    assert report.stuck_on == [stuck_on]
    assert report.stuck_off == [(6, 7)]
    assert report.patterns == ["move", "error", "warning", "time_up", "game_over"]


def test_the_scan_loop_never_waits_for_the_scoresheet_display(tmp_path):
    """The OLED page is ~1 KB of I2C (95 ms at 100 kHz): drawn by its own thread, so a display
    that has not finished (here: one that blocks until released) holds up no scan."""
    import threading

    from controller.board import ScanLoop, off_the_loop

    gate = threading.Event()
    devices = build_devices(load_profile(ROOT / "hardware/sim.toml"))
    shown = []

    def blocking_show(lines):
        gate.wait(10)
        shown.append(lines)

    devices.scoresheet._show = blocking_show
    off_the_loop(devices)
    game = damath_game(BoardHost.of_board(None, "offloop"), SessionConfig(), 0.0)
    board = ScanLoop(game, devices)
    steps = []
    worker = threading.Thread(
        target=lambda: [board.step(i * 0.05) or steps.append(i) for i in range(40)], daemon=True
    )
    worker.start()
    worker.join(5)
    assert len(steps) == 40  # every pass ran while the display was still busy
    assert shown == []
    gate.set()
    assert devices.scoresheet.flush(5)
    assert shown and shown[-1] == devices.scoresheet.device.last  # the newest page, once free
    devices.close()


def test_selftest_on_the_sim_profile_walks_itself_and_reports_every_device():
    result = subprocess.run(
        [EXE, "selftest", "--profile", str(ROOT / "hardware/sim.toml"), "--step", "0",
         "--seconds", "60"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "simulated: the selftest covers and clears every square" in out
    assert "s left:" in out  # a countdown while it waits
    for line in (
        "ok   LEDs (32, mock): lit 32 squares",
        "ok   buzzer (mock): move, error, warning, time_up, game_over",
        "ok   clock left (Blue) (mock)",
        "ok   clock right (Red) (mock)",
        "ok   display (mock)",
        *(f"ok   button {b}: pressed" for b in ("pause", "confirm", "next", "takeback")),
        "ok   button new_game: pressed",
        "sensors stuck off (never read a chip): none",
        "selftest: all OK",
    ):
        assert line in out, line
    assert out.count("ok  ") >= 16 * 2  # the sensor board: every playable square "ok"


def test_selftest_on_a_pi_names_a_missing_device_and_a_dead_clock_and_tests_the_rest():
    """pi-gpio on the virtual Pi: SPI switched off (no /dev/spidev0.0), the right clock not
    answering; the LEDs, the left side of the I2C bus, every sensor and button still tested."""
    import time as real_time

    from controller.cli.selftest import check_board
    from drivers.virtual import VirtualPi

    profile = load_profile(ROOT / "hardware/pi-gpio.toml")
    pi = VirtualPi(profile)
    del pi.chips[0x71]
    clock = [0.0]
    pending: list = []
    squares = sorted({(x, y) for x in range(8) for y in range(8) if (x + y) % 2})
    moves = [({sq}, "none") for sq in squares] + [(set(), b) for b in profile.buttons.pins]

    def hands(t: float) -> None:
        for pin, since in list(pending):
            if real_time.monotonic() - since > 0.04:  # longer than gpiozero's 20 ms bounce
                pin.drive_high()
                pending.remove((pin, since))
        if pending or not moves or t < getattr(hands, "next", 0.0):
            return
        hands.next = t + 0.05
        board, button = moves.pop(0)
        pi.set_board(board)
        if button != "none":
            pin = pi.button_pin(button)
            pin.drive_low()
            pending.append((pin, real_time.monotonic()))

    def tick(dt: float) -> None:
        clock[0] += dt

    lines: list[str] = []
    report = check_board(
        profile, pi.hardware, lambda: clock[0], tick, 120.0, 0.0, lines.append,
        lambda path: path != "/dev/spidev0.0", hands,
    )  # fmt: skip
    pi.close()
    text = "\n".join(report.lines())
    assert "FAIL /dev/spidev0.0: missing (SPI0: the LED chain): SPI is off" in text
    assert "dtoverlay=spi0-1cs), then reboot" in text
    assert "FAIL clocks: " in text and "does not answer at I2C address 0x71" in text
    assert "ok   LEDs (32, neopixel-spi): lit 32 squares" in text
    assert "ok   buzzer (tonal on GPIO18)" in text
    assert "ok   display (ssd1306)" in text
    for button in profile.buttons.pins:
        assert f"ok   button {button}: pressed" in text
    assert report.stuck_on == [] and report.stuck_off == []
    assert not report.ok and text.endswith("selftest: problems above (FAIL, ON, off)")
    assert any("s left:" in line for line in lines)
