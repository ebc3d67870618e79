"""The Pico's real main.py under the MicroPython unix port, its USB port a pty, against the Pi's
own Link: the scan reaches the Pi, the LED frames reach the chain, a Pico that stops is noticed
and found again, and the two documented ways back to the REPL for an update both work."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from drivers.coprocessor import LinkLedWriter, LinkScanner, dark_squares, grid_points
from drivers.ledmap import layout_map
from drivers.leds import LedStrip
from drivers.link import Link
from drivers.occupancy import mask_of

from .test_micropython import tool

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).parent / "mp" / "mp_pico.py"


class Pico:
    """One boot of the Pico: a micropython process on the pty's master side."""

    def __init__(self, fd: int, home: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [tool("micropython"), str(RUNNER), str(ROOT), *args],
            stdin=fd, stdout=fd, stderr=subprocess.PIPE, cwd=home,
        )  # fmt: skip

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)

    def wait(self, timeout: float = 10) -> tuple[int, str]:
        code = self.proc.wait(timeout)
        return code, self.proc.stderr.read().decode()


def until(predicate, timeout=10.0, tick=None):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if tick:
            tick()
        if predicate():
            return True
        time.sleep(0.002)
    return False


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_pico_main_over_a_pty_under_micropython(pty_pair, tmp_path):
    fd, path = pty_pair
    board = tmp_path / "board"
    board.write_text(str(mask_of({(1, 0), (6, 7)})))
    pico = Pico(fd, tmp_path)
    link = Link(path, heartbeat_ms=100, timeout_ms=600, reconnect_seconds=0.1)
    scanner = LinkScanner(link)
    frames = []

    def tick():
        frame = scanner.scan()
        if frame:
            frames.append(frame)

    try:
        assert until(lambda: frames and frames[-1].occupied == {(1, 0), (6, 7)}, tick=tick)
        assert link.status == "up"
        board.write_text(str(mask_of({(6, 7), (3, 4), (6, 5), (0, 7)})))  # bits 30, 31 too
        assert until(lambda: frames[-1].occupied == {(6, 7), (3, 4), (6, 5), (0, 7)}, tick=tick)

        strip = LedStrip(LinkLedWriter(link), layout_map(), 32)
        strip.show({(1, 0): (255, 0, 0)})
        leds = tmp_path / "leds"
        want = (b"\x00\xff\x00" + bytes(93)).hex()
        assert until(lambda: leds.exists() and leds.read_text() == want, tick=tick)
        assert until(lambda: scanner.heartbeats and scanner.heartbeats[-1][1] > 0, tick=tick)

        pico.stop()  # the Pico stops answering
        assert until(lambda: link.status == "lost", tick=tick)
        board.write_text(str(mask_of({(0, 1)})))
        pico = Pico(fd, tmp_path)  # it comes back (a watchdog reset, a replug)
        assert until(lambda: link.status == "up", tick=tick)
        assert until(lambda: frames[-1].occupied == {(0, 1)}, tick=tick)
        assert link.frames_rejected == 0

        # An update: the service stops (the port is free), `damath-board pico release` asks for
        # the REPL; the Pico acknowledges, leaves its flag and reboots.
        link.close()
        profile = tmp_path / "pico.toml"
        text = (ROOT / "hardware" / "pico.toml").read_text()
        profile.write_text(text.replace('port = "/dev/ttyACM0"', f'port = "{path}"'))
        exe = str(Path(sys.executable).with_name("damath-board"))
        done = subprocess.run(
            [exe, "pico", "release", "--profile", str(profile)],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "reboots into its REPL" in done.stdout
        code, err = pico.wait()
        assert code == 0 and "machine.reset()" in err
        assert (tmp_path / "release").exists()
        boot = Pico(fd, tmp_path)  # the next boot leaves the port to the REPL, once
        assert boot.wait()[0] == 0
        assert not (tmp_path / "release").exists()
        jumper = Pico(fd, tmp_path, "--pin-low")  # or a jumper on the release pin
        assert jumper.wait()[0] == 0
        pico = Pico(fd, tmp_path)  # and without either, the board runs again
        link = Link(path, heartbeat_ms=100, timeout_ms=600, reconnect_seconds=0.1)
        assert until(lambda: (link.poll(), link.status == "up")[1])
        time.sleep(0.3)
        assert pico.proc.poll() is None
    finally:
        pico.stop()
        link.close()


def said(fd: int, timeout: float = 30.0) -> str:
    """What the Pico printed on its USB port before it stopped (the bound ends a hung one)."""
    import select

    end = time.monotonic() + timeout
    out = b""
    while b"\n" not in out and time.monotonic() < end:
        if select.select([fd], [], [], 0.1)[0]:
            out += os.read(fd, 1024)
    return out.decode(errors="replace").strip()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("--set", "LED_PIN=25"), "config.py: the LED pin GP25 is not on the Pico's pins"),
        (("--set", "RELEASE_PIN=13"), "config.py: GP13 is both a column and a release pin"),
        (("--chip-id", "0x10003927"), "this board's chip is neither an RP2040 nor an RP2350"),
    ],
)
def test_a_config_or_chip_that_does_not_fit_stops_the_pico_in_one_line(
    pty_pair, tmp_path, args, line
):
    fd, _path = pty_pair
    pico = Pico(fd, tmp_path, *args)
    try:
        assert pico.wait()[0] == 0  # nothing started: the REPL stays free for mpremote
        out = said(fd)
        assert out.startswith("damath-board firmware stopped: " + line), out
        assert len(out.splitlines()) == 1, out
    finally:
        pico.stop()


@pytest.mark.parametrize(
    ("board", "points", "decode", "chips"),
    [
        ("mathchess", 81, grid_points(9), {(0, 0), (8, 0), (4, 4), (8, 8)}),
        ("dam12", 72, dark_squares(12), {(1, 0), (11, 0), (5, 6), (10, 11)}),
    ],
)
def test_a_wide_board_over_a_pty_under_micropython(
    pty_pair, tmp_path, board, points, decode, chips
):
    """main.py with the board's config: its points reach the Pi, and an LED frame spoiled on
    the way is dropped by the Pico, resent by the Pi and lit whole."""
    fd, path = pty_pair
    bit = {next(iter(decode(1 << i))): i for i in range(points)}
    (tmp_path / "board").write_text(str(sum(1 << bit[c] for c in chips)))
    pico = Pico(fd, tmp_path, "--board", board)
    link = Link(path, heartbeat_ms=100, timeout_ms=600, reconnect_seconds=0.1, points=points)
    scanner = LinkScanner(link, decode=decode)
    try:
        assert until(lambda: scanner.occupied == chips, tick=scanner.scan)
        assert until(lambda: scanner.peer_points == points, tick=scanner.scan)
        assert scanner.problem is None and link.frames_rejected == 0
        last = max(bit.values())
        (tmp_path / "board").write_text(str(1 << last))
        assert until(lambda: scanner.occupied == decode(1 << last), tick=scanner.scan)

        real_write = link.port.write
        spoiled = []

        def spoil_once(data: bytes) -> int:
            if not spoiled and len(data) > 3 * points:  # the LED frame
                spoiled.append(data)
                wrong = bytearray(data)
                wrong[len(wrong) // 2] = wrong[len(wrong) // 2] ^ 0x01 or 0x02
                data = bytes(wrong)
            return real_write(data)

        link.port.write = spoil_once
        colours = bytes((i * 7) % 256 for i in range(3 * points))
        LinkLedWriter(link).write(colours)
        leds = tmp_path / "leds"
        assert until(lambda: leds.exists() and leds.read_text() == colours.hex(), tick=scanner.scan)
        assert spoiled and link.endpoint.retries >= 1  # the Pico never acknowledged the garble
        assert until(lambda: not link.endpoint.pending(), tick=scanner.scan)
    finally:
        pico.stop()
        link.close()
