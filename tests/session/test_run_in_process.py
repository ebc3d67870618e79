"""``damath-board run`` in the test's own process: the scan loop's timing, the systemd watchdog
over a real notify socket, and every bad argument or profile answered in one line."""

from __future__ import annotations

import os
import signal
import socket
import threading
from pathlib import Path

import pytest

from controller.board import Watchdog, run_loop
from controller.board.options import parse_settings
from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
SIM = str(ROOT / "hardware" / "sim.toml")


class Clock:
    """A clock that moves only when the loop sleeps or a pass takes time."""

    def __init__(self) -> None:
        self.t = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.t += seconds


class Board:
    def __init__(self, clock: Clock, work: list[float]) -> None:
        self.clock = clock
        self.work = work  # seconds each pass takes
        self.steps: list[float] = []

    def step(self, t: float) -> None:
        self.steps.append(round(t, 6))
        self.clock.t += self.work[len(self.steps) - 1]


def test_the_loop_keeps_a_fixed_period_and_does_not_burst_after_a_slow_pass():
    clock = Clock()
    board = Board(clock, [0.001, 0.001, 0.030, 0.001, 0.001])
    run_loop(board, clock, clock.sleep, 0.01, lambda: len(board.steps) < 5)
    assert board.steps == [100.0, 100.01, 100.02, 100.05, 100.06]
    assert clock.slept == [0.009, 0.009, 0.009, 0.009]  # none after the 30 ms pass


def test_the_loop_feeds_the_watchdog_every_half_period(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "40000")  # 40 ms: fed every 20 ms
    dog = Watchdog()
    fed: list[float] = []
    dog.notify = lambda text: fed.append(round(clock.t, 6))  # what it would send
    clock = Clock()
    board = Board(clock, [0.0] * 7)
    run_loop(board, clock, clock.sleep, 0.01, lambda: len(board.steps) < 7, dog)
    assert dog.period == 0.02
    assert fed == [100.0, 100.02, 100.04, 100.06]


def test_without_systemd_the_watchdog_is_silent(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    dog = Watchdog()
    dog.notify("READY=1")  # no socket: nothing to send to, no error
    dog.feed(1.0)
    assert dog.period is None


@pytest.fixture
def notify_socket(tmp_path, monkeypatch):
    """A real datagram socket where the service manager would listen."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    yield sock
    sock.close()


class Listener:
    """Reads the socket while the board runs, as systemd does: a datagram socket holds only a
    few unread messages (10 on Linux), and a sender finding it full waits. Once it has heard
    ``stop_after`` watchdog feeds it stops the board as systemd does, with SIGTERM: the test
    waits for the feeds, not for a time a busy machine may not give them in."""

    def __init__(self, sock: socket.socket, stop_after: int) -> None:
        self.sock = sock
        self.messages: list[str] = []
        self.stop_after = stop_after
        sock.settimeout(0.2)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._stop = False
        self._thread.start()

    def _read(self) -> None:
        signalled = False
        while not self._stop:
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue
            if not signalled and self.messages.count("WATCHDOG=1") >= self.stop_after:
                signalled = True
                os.kill(os.getpid(), signal.SIGTERM)  # the board's own handler takes it

    def received(self) -> list[str]:
        self._stop = True
        self._thread.join()
        return self.messages


@pytest.fixture
def sigterm_restored():
    """``run`` installs its SIGTERM handler in this process: the worker gets its own back."""
    before = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, before)


def test_run_in_process_tells_systemd_ready_alive_and_stopping(
    notify_socket, tmp_path, capsys, sigterm_restored
):
    ready = tmp_path / "ready"
    listener = Listener(notify_socket, stop_after=3)
    # stopped by SIGTERM after three feeds; the 600 s only end a run whose feeds never came
    code = main(["run", "--profile", SIM, "--state-dir", str(tmp_path), "--exit-after", "600",
                 "--ready-file", str(ready), "--scan-hz", "100"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    messages = listener.received()
    assert messages[0] == "READY=1"
    assert messages[1] == "STATUS=board sim: setup"
    assert messages.count("WATCHDOG=1") >= 3
    assert messages[-1] == "STOPPING=1"
    assert ready.read_text().strip()
    assert (tmp_path / "journal.jsonl").stat().st_size > 0


def test_run_reports_what_it_found_wrong_in_the_journal(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    (tmp_path / "journal.jsonl").write_bytes(b"not a journal\n")
    code = main(["run", "--profile", SIM, "--state-dir", str(tmp_path), "--exit-after", "0.05"])
    assert code == 0
    err = capsys.readouterr().err
    assert "damath-board run:" in err and "damaged" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "touch_move"], "--set 'touch_move': expected NAME=VALUE"),
        (["--set", "=3"], "--set '=3': expected NAME=VALUE"),
        (["--set", "sudden_death=true"], "unknown profile setting 'sudden_death'"),
        (["--set", "move_seconds=soon"], "expected a whole number from 0 to 86400, got 'soon'"),
        (["--set", "capture_priority=longest"], "capture_priority: 'longest' is not one of"),
        (["--scan-hz", "0"], "--scan-hz 0.0: use 1..2000"),
        (["--scan-hz", "5000"], "--scan-hz 5000.0: use 1..2000"),
    ],
)
def test_bad_rule_settings_and_scan_rates_are_one_clear_line(args, message, tmp_path, capsys):
    code = main(["run", "--profile", SIM, "--state-dir", str(tmp_path), *args])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("damath-board run: error:") and message in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("[board]", "[board", "not valid TOML"),
        ('backend = "mock"\ndebounce_scans = 1', 'backend = "laser"', "unknown backend 'laser'"),
        ("count = 32", 'count = "many"', "[leds]"),
        ('[sensors]\nbackend = "mock"\ndebounce_scans = 1\n', "", "[sensors]: missing section"),
    ],
)
def test_a_malformed_board_profile_is_one_clear_line(old, new, message, tmp_path, capsys):
    """The simulated board's profile with one thing wrong."""
    sim = Path(SIM).read_text()
    assert old in sim
    profile = tmp_path / "board.toml"
    profile.write_text(sim.replace(old, new, 1))
    code = main(["run", "--profile", str(profile), "--state-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err, err


def test_a_missing_board_profile_is_one_clear_line(tmp_path, capsys):
    code = main(["run", "--profile", str(tmp_path / "nowhere.toml")])
    err = capsys.readouterr().err
    assert code == 2 and "cannot read" in err


def test_settings_text_becomes_numbers_and_booleans():
    assert parse_settings(
        ["touch_move=on", "remaining_dama_double=No", "move_seconds=45", "repetition=threefold"]
    ) == {
        "touch_move": True,
        "remaining_dama_double": False,
        "move_seconds": 45,
        "repetition": "threefold",
    }
