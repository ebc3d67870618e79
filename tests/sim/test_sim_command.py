"""``damath-board sim`` as a teacher types it (docs/class.md): the PIN asked for on a real
terminal in the language asked for, and the start-up lines, which lead to every page a class
uses (the puzzles included)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

from controller import i18n
from controller.i18n import _

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "controller.cli"]


def _on_a_terminal(args: list[str], cwd: Path) -> tuple[subprocess.Popen[bytes], int]:
    """The command on a pseudo-terminal of its own (its controlling terminal, as a teacher's)."""
    leader, follower = os.openpty()

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DAMATH_SIM_PIN", None)
    proc = subprocess.Popen(
        [*COMMAND, *args], cwd=cwd, env=env, stdin=follower, stdout=follower, stderr=follower,
        preexec_fn=own_terminal,
    )  # fmt: skip
    os.close(follower)
    return proc, leader


def _read_until(fd: int, pattern: str, seen: bytearray, timeout: float = 60) -> str:
    """What the terminal showed, until ``pattern`` (the bound only ends a hung command)."""
    deadline = time.monotonic() + timeout
    while not re.search(pattern, seen.decode("utf-8", "replace")):
        assert time.monotonic() < deadline, seen.decode("utf-8", "replace")
        ready, _w, _x = select.select([fd], [], [], 1.0)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:  # the command ended: the terminal closed
                break
    return seen.decode("utf-8", "replace")


def test_set_pin_asks_in_filipino_with_lang_fil(tmp_path: Path) -> None:
    with i18n.use("fil"):
        first, again, differ = (
            _("Arbiter's PIN (4 to 64 characters): "),
            _("The same PIN again: "),
            _("the two PINs differ: nothing was changed"),
        )
    pin_file = tmp_path / "sim-pin"
    args = ["sim", "--set-pin", "--lang", "fil", "--pin-file", str(pin_file), "--no-save"]
    proc, fd = _on_a_terminal(args, tmp_path)
    seen = bytearray()
    try:
        shown = _read_until(fd, re.escape(first.strip()), seen)
        assert "Arbiter's PIN" not in shown
        os.write(fd, b"4821\n")
        _read_until(fd, re.escape(again.strip()), seen)
        os.write(fd, b"4822\n")
        shown = _read_until(fd, re.escape(differ), seen)
        assert proc.wait(30) != 0 and not pin_file.exists()  # nothing was changed
        assert "Traceback" not in shown
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        os.close(fd)


def test_the_start_up_lines_name_the_puzzles_page(tmp_path: Path) -> None:
    args = ["sim", "--port", "0", "--state-dir", str(tmp_path / "state")]
    proc, fd = _on_a_terminal(args, tmp_path)
    seen = bytearray()
    try:
        shown = _read_until(fd, "Press Ctrl", seen)
        url = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", shown)
        assert url, shown
        assert f"{url.group(1)}puzzles" in shown
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(30)
        os.close(fd)
