"""Boards of more than 32 points end to end: the RP2040 loop (on fake machine/rp2, with a
board's config from firmware/boards/) against the Pi's Link over a pty pair, for the 81 points
of a Mathematical Chess board and the 72 squares of a 12 x 12 Dam board: occupancy read, LED
frames on the chain, a garbled frame rejected and resent, a board of another size named."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType

import pytest

from controller.board import ScanLoop
from controller.games.mathchess.kind import MathChessGame
from controller.games.mathchess.session import MathChessSession
from drivers.coprocessor import LinkLedWriter, LinkScanner, dark_squares, grid_points
from drivers.factory import build_devices
from drivers.leds import LedStrip
from drivers.link import Link, _open_serial
from drivers.profile import load_profile
from firmware import fakes, framing, protocol
from firmware.boards import dam12
from firmware.boards import mathchess as mathchess_config
from firmware.squares import dark_index
from tests.tracker.test_mathchess_traces import MINUS_FROM, MINUS_TO, ONE, occupied, r08_example3

from .test_firmware_loop import FdStream, until

machine, rp2 = fakes.install()
from firmware import app, hw  # noqa: E402  (needs the fakes installed first)

ROOT = Path(__file__).resolve().parents[2]
PROFILE = os.path.join(os.path.dirname(__file__), "..", "..", "hardware", "mathchess-pico.toml")


class Garbling(FdStream):
    """The Pico's USB port, which can spoil the next frame of one type on its way to the Pi
    (a bit flipped in the middle: the CRC no longer matches)."""

    def __init__(self, fd: int) -> None:
        super().__init__(fd)
        self.spoil: int | None = None
        self.spoiled = 0
        self.after: list[int] = []
        """The types of the frames written after the spoiled one, in order."""

    def write(self, data: bytes) -> None:
        kind = framing.cobs_decode(data[:-1])[0]
        if self.spoiled:
            self.after.append(kind)
        if self.spoil is not None and kind == self.spoil:
            self.spoil = None
            self.spoiled += 1
            wrong = bytearray(data)
            wrong[3] = wrong[3] ^ 0x10 or 0x20
            data = bytes(wrong)
        super().write(data)


class Board:
    """Switches at (matrix row, matrix column), wired to a config's pins."""

    def __init__(self, config: ModuleType) -> None:
        self.config = config
        self.closed: set[tuple[int, int]] = set()

    def level(self, pin: int) -> int:
        c = self.config.COLUMN_PINS.index(pin)
        for r, row in enumerate(self.config.ROW_PINS):
            if machine.levels.get(row) == 0 and (r, c) in self.closed:
                return 0
        return 1


class Runner:
    def __init__(self, fd: int, board: Board) -> None:
        machine.clear()
        machine.input_hook = board.level
        config = board.config
        self.stream = Garbling(fd)
        self.firmware = app.Firmware(
            hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS, settle_us=0),
            hw.Ws2812(config.LED_PIN),
            self.stream,
            hw.Watchdog(config.WATCHDOG_MS),
            hw.Clock(),
            heartbeat_ms=100,
        )
        self.running = True
        self.thread = threading.Thread(
            target=self.firmware.run, args=(1000, lambda: self.running), daemon=True
        )
        self.thread.start()

    def stop(self) -> None:
        self.running = False
        self.thread.join(2)


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def settled(pico: Runner, link: Link) -> bool:
    """Both HELLOs and the first report acknowledged: the next report is the next change's."""
    return pico.firmware.endpoint.pending() == 0 and link.endpoint.pending() == 0


def chain_words(count: int) -> list[int]:
    return rp2.StateMachine.last.words[-count:]


def test_a_12x12_dam_board_of_72_squares_over_a_pty_with_a_garbled_frame_resent(pty_pair):
    fd, path = pty_pair
    board = Board(dam12)
    squares = {(1, 0), (11, 0), (0, 11), (10, 11), (5, 6)}  # bits 0, 5, 66, 71 and one inside
    board.closed = {divmod(dark_index(x, y, 12), 6) for x, y in squares}
    pico = Runner(fd, board)
    link = Link(path, heartbeat_ms=100, timeout_ms=600, reconnect_seconds=0.1, points=72)
    scanner = LinkScanner(link, decode=dark_squares(12))
    try:
        assert until(lambda: scanner.occupied == squares, tick=scanner.scan)
        assert until(lambda: scanner.peer_points == 72, tick=scanner.scan)  # its HELLO, resent
        assert scanner.problem is None
        assert link.status == "up" and link.frames_rejected == 0
        assert until(lambda: settled(pico, link), tick=scanner.scan)

        pico.stream.spoil = protocol.OCCUPANCY  # the next report arrives garbled
        board.closed.add(divmod(dark_index(11, 10, 12), 6))  # one chip: one report
        assert until(lambda: scanner.occupied == squares | {(11, 10)}, tick=scanner.scan)
        assert pico.stream.spoiled == 1
        assert link.frames_rejected == 1  # dropped by its CRC, never read as a board
        # the board came in a later report: the spoiled one sent again (unacknowledged), a newer
        # report of the same board in its place (the firmware keeps one report pending), or the
        # whole board told again after the Pi's new HELLO on a machine so loaded that the Pi
        # found the Pico silent meanwhile (seen twice in whole runs, neither a retry nor a HELLO)
        assert protocol.OCCUPANCY in pico.stream.after
        assert scanner.bad_messages == 0

        strip = LedStrip(LinkLedWriter(link), {(1, 0): (0,), (10, 11): (71,)}, 72)
        strip.show({(1, 0): (255, 0, 0), (10, 11): (0, 0, 255)})
        want = [b << 24 for b in b"\x00\xff\x00" + bytes(70 * 3) + b"\x00\x00\xff"]
        assert until(lambda: chain_words(216) == want, tick=scanner.scan)
        assert pico.firmware.leds_rejected == 0
        with pytest.raises(ValueError, match="for 72 LEDs is 216 bytes, got 96"):
            LinkLedWriter(link, 72).write(bytes(96))  # a frame of 32 for a chain of 72: refused
    finally:
        pico.stop()
        link.close()


def test_a_mathchess_board_of_81_points_plays_through_the_coprocessor(pty_pair):
    """The shipped profile, as ``run`` builds it: its link and chain through the factory, the
    game in the one scan loop; the Pico's frames read, its chain lit."""
    fd, path = pty_pair
    profile = load_profile(PROFILE)
    board = Board(mathchess_config)
    session = MathChessSession.start(r08_example3())
    points = set(occupied(session.position))
    board.closed = {(y, x) for x, y in points}
    pico = Runner(fd, board)
    clock = [0.0]
    devices = build_devices(
        profile,
        clock=lambda: clock[0],
        only=("sensors", "leds"),
        open_port=lambda _url, baud: _open_serial(path, baud),
    )
    scanner = devices.sensors
    link = devices.link
    assert isinstance(scanner, LinkScanner) and link is not None
    loop = ScanLoop(MathChessGame(session), devices)

    def step() -> None:
        clock[0] += 0.01
        loop.step(clock[0])

    try:
        assert until(lambda: scanner.occupied == points, tick=step)
        assert until(lambda: scanner.peer_points == 81, tick=step)
        assert session.sensors == points
        assert until(lambda: settled(pico, link), tick=step)

        pico.stream.spoil = protocol.OCCUPANCY  # the lift arrives garbled first, then resent
        retries = pico.firmware.endpoint.retries
        board.closed -= {(MINUS_FROM[1], MINUS_FROM[0])}
        assert until(lambda: MINUS_FROM not in session.sensors, tick=step)
        assert until(lambda: pico.firmware.endpoint.retries > retries, tick=step)
        board.closed |= {(MINUS_TO[1], MINUS_TO[0])}
        assert until(lambda: MINUS_TO in session.sensors, tick=step)
        assert pico.stream.spoiled == 1 and link.frames_rejected == 1

        chain = profile.leds.mapping

        def lit_one() -> bool:
            i = chain[ONE][0]
            return any(w >> 24 for w in chain_words(243)[3 * i : 3 * i + 3])

        assert until(lit_one, tick=step)  # what may be removed now, lit on the Pico's chain
        assert pico.firmware.led_frames > 0 and pico.firmware.leds_rejected == 0
    finally:
        pico.stop()
        devices.close()


def test_a_coprocessor_of_another_size_is_named_and_never_read_as_the_board(pty_pair):
    fd, path = pty_pair
    board = Board(mathchess_config)  # an 81-point firmware ...
    board.closed = {(0, 0), (8, 8)}
    pico = Runner(fd, board)
    link = Link(path, heartbeat_ms=100, timeout_ms=600, reconnect_seconds=0.1)  # ... a 32 host
    scanner = LinkScanner(link)
    try:
        assert until(lambda: scanner.bad_messages > 0 and scanner.problem, tick=scanner.scan)
        assert "scans 81 points (protocol 2), this board has 32" in scanner.problem
        assert any(scanner.problem == reason for _t, _s, reason in link.status_log)
        assert scanner.occupied == frozenset()  # nothing read from frames of another size
        LinkLedWriter(link).write(bytes(96))  # the host's 32-LED frame ...
        assert until(lambda: pico.firmware.leds_rejected > 0, tick=scanner.scan)
        assert pico.firmware.led_frames == 0  # ... never half-lights the 81-LED chain
    finally:
        pico.stop()
        link.close()


def test_grid_points_reads_bit_9y_plus_x():
    decode = grid_points(9)
    assert decode(1 | 1 << 8 | 1 << 80) == {(0, 0), (8, 0), (8, 8)}


class Inbox:
    def __init__(self) -> None:
        self.inbox = b""
        self.sent = b""

    def read(self) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data


def test_garbage_and_an_oversized_frame_lose_nothing_on_an_81_point_pico():
    import random

    machine.clear()
    board = Board(mathchess_config)
    board.closed = {(4, 4)}
    machine.input_hook = board.level
    stream = Inbox()
    fw = app.Firmware(
        hw.MatrixPins(mathchess_config.ROW_PINS, mathchess_config.COLUMN_PINS, settle_us=0),
        hw.Ws2812(16),
        stream,
        hw.Watchdog(2000),
        hw.Clock(),
    )
    sent: list[bytes] = []
    from firmware.endpoint import Endpoint

    pi = Endpoint(sent.append, lambda: 0)
    pi.send(protocol.LEDS, bytes(range(243)))
    stream.inbox = b"".join(sent)
    fw.step()
    lit = list(rp2.StateMachine.last.words)
    rng = random.Random(81)
    junk = bytes(rng.getrandbits(8) for _ in range(5000))
    oversized = framing.cobs_encode(bytes(range(1, 256)) * 8) + b"\x00"  # 2,040 bytes a frame
    wrong = framing.encode_frame(protocol.pack(protocol.LEDS, 9, bytes(244)))  # one byte long
    stream.inbox = junk + b"\x00" + oversized + wrong
    for _ in range(3):
        fw.step()
    assert list(rp2.StateMachine.last.words) == lit  # the chain as it was
    assert fw.led_frames == 1 and fw.leds_rejected == 1
    assert fw.endpoint.decoder.bad > 0
    board.closed = {(0, 0), (8, 8)}
    for _ in range(4):
        fw.step()
    got = [b for t, b in pi.feed(stream.sent) if t == protocol.OCCUPANCY]
    assert protocol.parse_occupancy(got[-1], 81)[0] == 1 | 1 << 80  # still scanning, reported


def test_a_32_square_pico_with_two_leds_a_square_takes_its_64_led_frames():
    """LED_COUNT apart from the points (hardware/pico.toml allows [leds] count = 64)."""
    machine.clear()
    stream = Inbox()
    fw = app.Firmware(
        hw.MatrixPins((2, 3, 4, 5, 6, 7, 8, 9), (10, 11, 12, 13), settle_us=0),
        hw.Ws2812(16),
        stream,
        hw.Watchdog(2000),
        hw.Clock(),
        led_count=64,
    )
    sent: list[bytes] = []
    from firmware.endpoint import Endpoint

    pi = Endpoint(sent.append, lambda: 0)
    pi.send(protocol.LEDS, bytes(range(192)))
    pi.send(protocol.LEDS, bytes(96))
    stream.inbox = b"".join(sent)
    fw.step()
    assert fw.led_frames == 1 and fw.leds_rejected == 1
    assert [w >> 24 for w in rp2.StateMachine.last.words] == list(range(192))


DAM_PROFILE = os.path.join(os.path.dirname(__file__), "..", "..", "hardware", "dam-pico.toml")


def test_the_dam_pico_profile_opens_a_72_square_link_through_the_factory(pty_pair):
    """hardware/dam-pico.toml, its port pointed at the pty: build_devices announces 72 points,
    reads the dam12 firmware's squares and puts a 72-LED frame on its chain."""
    import tomllib

    from drivers.factory import build_devices
    from drivers.profile import parse_profile

    fd, path = pty_pair
    with open(DAM_PROFILE, "rb") as f:
        data = tomllib.load(f)
    data["link"].update(port=path, heartbeat_ms=100, timeout_ms=600)
    profile = parse_profile(data, DAM_PROFILE)
    assert (profile.size, profile.squares, profile.leds.count) == (12, 72, 72)
    board = Board(dam12)
    squares = {(1, 0), (11, 10), (0, 11)}
    board.closed = {divmod(dark_index(x, y, 12), 6) for x, y in squares}
    pico = Runner(fd, board)
    devices = build_devices(profile, only=("sensors", "leds"))
    try:
        scanner, strip, link = devices.sensors, devices.leds, devices.link
        assert isinstance(scanner, LinkScanner) and strip is not None and link is not None
        assert link.points == 72 and scanner.points == 72
        assert until(lambda: scanner.occupied == squares, tick=scanner.scan)
        assert until(lambda: scanner.peer_points == 72, tick=scanner.scan)
        assert scanner.problem is None
        strip.show({(11, 10): (0, 0, 255)})  # serpentine: row 10 runs left to right
        i = profile.leds.mapping[(11, 10)][0]
        assert until(
            lambda: any(w >> 24 for w in chain_words(216)[3 * i : 3 * i + 3]), tick=scanner.scan
        )
        assert pico.firmware.leds_rejected == 0
    finally:
        pico.stop()
        devices.close()


@pytest.mark.parametrize(
    ("config", "profile"),
    [(dam12, "dam-pico.toml"), (mathchess_config, "mathchess-pico.toml")],
    ids=["dam-pico", "mathchess-pico"],
)
def test_pico_release_frees_the_repl_of_every_wide_board(pty_pair, tmp_path, config, profile):
    """`damath-board pico release` reads the profile of a 12 x 12 and a 9 x 9 board (each names
    its game and grid) and asks their firmware for the REPL; the firmware acknowledges and stops."""
    fd, path = pty_pair
    pico = Runner(fd, Board(config))
    text = (ROOT / "hardware" / profile).read_text()
    mine = tmp_path / profile
    mine.write_text(text.replace('port = "/dev/ttyACM0"', f'port = "{path}"'))
    exe = str(Path(sys.executable).with_name("damath-board"))
    try:
        done = subprocess.run(
            [exe, "pico", "release", "--profile", str(mine)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "reboots into its REPL" in done.stdout
        assert until(lambda: pico.firmware.released)
    finally:
        pico.stop()
