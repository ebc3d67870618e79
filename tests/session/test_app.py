"""The run command and the simulator's entry point: clear errors, a quick start, no sympy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.app import build_session_for_sim, parse_settings
from controller.rules.game import Game
from controller.selftest import selftest
from controller.view.snapshot import snapshot
from drivers.factory import build_devices
from drivers.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]
EXE = str(ROOT / ".venv" / "bin" / "damath-board")


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
    code = "import sys, controller.app, controller.session, controller.view.compose; "
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
    s = build_session_for_sim("table-3", state_dir=tmp_path, t=0.0)
    s.feed_frame(0.0, Game.new("integer").occupied())
    s.advance(1.0)
    assert s.phase == "play"
    s.journal.close()
    again = build_session_for_sim("table-3", state_dir=tmp_path, t=50.0)
    assert again.phase == "restore"
    snap = snapshot(again, 50.0)
    assert snap["phase"] == "restore" and len(snap["leds"]) == 32
    assert build_session_for_sim("other").phase == "setup"


def test_selftest_finds_stuck_sensors_with_the_mock_board():
    devices = build_devices(load_profile(ROOT / "hardware/sim.toml"))
    clock = [0.0]
    source = devices.sensors.source
    stuck_on = (1, 0)

    def lift_each_chip(t: float) -> None:
        # every square read occupied once, then empty, except (1, 0) which never lets go and
        # (6, 7) which never reads a chip
        k = int(t * 10) % 33
        squares = sorted(s for s in {(x, y) for x in range(8) for y in range(8)} if sum(s) % 2)
        on = {squares[k]} if k < 32 else set()
        source.set((on | {stuck_on}) - {(6, 7)})

    def tick(dt: float) -> None:
        clock[0] += dt

    report = selftest(devices, lambda: clock[0], tick, 0.0, 4.0, lift_each_chip, lambda s: None)
    devices.close()
    assert report.walked == 32
    assert report.stuck_on == [stuck_on]
    assert report.stuck_off == [(6, 7)]
    assert report.patterns == ["move", "error", "warning", "time_up", "game_over"]
