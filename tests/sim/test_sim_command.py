"""``damath-board sim`` as a teacher types it (docs/class.md): the PIN asked for on a real
terminal in the language asked for, and the start-up lines, which lead to every page a class
uses (the puzzles included)."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time
import urllib.request
from pathlib import Path

from controller import i18n
from controller.i18n import _
from controller.sim.access import COOKIE

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
        # read what it says while it stops: a terminal nobody reads fills, and its writer waits
        # until the simulator has ended (a worker of its own may keep the terminal open after it)
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    seen += os.read(fd, 4096)
                except OSError:  # the terminal closed
                    break
        proc.wait(30)
        os.close(fd)


def _started(args: list[str], cwd: Path, env_pin: str) -> tuple[subprocess.Popen[str], str]:
    """``damath-board sim`` started with the teacher's PIN in DAMATH_SIM_PIN; its address."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DAMATH_SIM_PIN": env_pin}
    proc = subprocess.Popen(
        [*COMMAND, *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )  # fmt: skip
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:  # its start-up lines, up to the last one
        lines.append(line)
        if "Press Ctrl+C" in line:
            break
    url = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", "".join(lines))
    assert url, "".join(lines)
    return proc, url.group(1)


def _stopped(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C, as the teacher stops it
    proc.wait(30)


def _ask(url: str, path: str, cookie: str = "", pin: str | None = None) -> tuple[dict, str]:
    """The simulator's JSON answer to a request from a browser holding ``cookie``, and the
    arbiter's cookie it set, if any."""
    data = None if pin is None else json.dumps({"pin": pin}).encode()
    request = urllib.request.Request(url + path, data=data, method="GET" if pin is None else "POST")
    request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", f"{COOKIE}={cookie}")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=30) as response:
        set_cookie = response.headers.get("Set-Cookie") or ""
        token = re.search(rf"{COOKIE}=([^;]+)", set_cookie)
        return json.loads(response.read()), token.group(1) if token else ""


def test_a_teachers_unlock_outlives_a_restart_of_the_simulator(tmp_path: Path) -> None:
    """docs/class.md: the browser stays unlocked for the lesson (12 hours), even when the
    simulator is stopped and started again; a browser that was locked stays locked."""
    args = ["sim", "--port", "0", "--state-dir", str(tmp_path / "state")]
    proc, url = _started(args, tmp_path, "4821")
    try:
        assert _ask(url, "api/access")[0]["role"] == "player"
        answer, token = _ask(url, "api/unlock", pin="4821")
        assert answer["role"] == "arbiter" and token
        _a, other = _ask(url, "api/unlock", pin="4821")  # a second browser, locked again
        _ask(url, "api/lock", other, pin="")
    finally:
        _stopped(proc)
    proc, url = _started(args, tmp_path, "4821")
    try:
        assert _ask(url, "api/access", token)[0]["role"] == "arbiter"
        assert _ask(url, "api/access", other)[0]["role"] == "player"
        assert _ask(url, "api/access", "forged")[0]["role"] == "player"
    finally:
        _stopped(proc)
    proc, url = _started(args, tmp_path, "7395")  # another PIN: every browser locked
    try:
        assert _ask(url, "api/access", token)[0]["role"] == "player"
    finally:
        _stopped(proc)
