"""The RP2040 loop (on fake machine/rp2) against the Pi's Link over a pty pair."""

import os
import threading
import time

import pytest

from drivers.coprocessor import LinkLedWriter, LinkScanner
from drivers.ledmap import layout_map
from drivers.leds import LedStrip
from drivers.link import Link
from firmware import config, fakes
from firmware.squares import COLUMNS, index_of

machine, rp2 = fakes.install()
from firmware import app, hw  # noqa: E402  (needs the fakes installed first)


class FdStream:
    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)

    def read(self):
        try:
            return os.read(self.fd, 4096)
        except BlockingIOError:
            return b""

    def write(self, data):
        os.write(self.fd, data)


class Board:
    """The switches under the squares, wired to the Pico's row and column pins."""

    def __init__(self):
        self.closed = set()

    def level(self, pin):
        c = config.COLUMN_PINS.index(pin)
        for r, row in enumerate(config.ROW_PINS):
            if machine.levels.get(row) == 0 and (r, c) in self.closed:
                return 0
        return 1

    def set(self, squares):
        self.closed = {divmod(index_of(x, y), COLUMNS) for x, y in squares}


class Runner:
    def __init__(self, fd, board):
        machine.input_hook = board.level
        self.firmware = app.Firmware(
            hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS, settle_us=0),
            hw.Ws2812(config.LED_PIN),
            FdStream(fd),
            hw.Watchdog(config.WATCHDOG_MS),
            hw.Clock(),
            heartbeat_ms=100,
        )
        self.running = True
        self.thread = threading.Thread(
            target=self.firmware.run, args=(1000, lambda: self.running), daemon=True
        )
        self.thread.start()

    def stop(self):
        self.running = False
        self.thread.join(2)


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


def test_firmware_and_pi_talk_over_a_pty(pty_pair):
    import serial

    fd, path = pty_pair
    board = Board()
    board.set({(1, 0), (6, 7)})
    pico = Runner(fd, board)
    opened = []

    def open_port(url, baud):
        opened.append(url)
        return serial.Serial(url, baud, timeout=0)

    link = Link(path, open_port=open_port, heartbeat_ms=100, timeout_ms=400, reconnect_seconds=0.1)
    scanner = LinkScanner(link)
    frames = []

    def tick():
        frame = scanner.scan()
        if frame:
            frames.append(frame)

    try:
        assert until(lambda: frames and frames[-1].occupied == {(1, 0), (6, 7)}, tick=tick)
        assert link.status == "up"

        board.set({(6, 7), (3, 4)})
        assert until(lambda: frames[-1].occupied == {(6, 7), (3, 4)}, tick=tick)

        strip = LedStrip(LinkLedWriter(link), layout_map(), 32)
        strip.show({(1, 0): (255, 0, 0)})
        expected = [(b << 24) for b in b"\x00\xff\x00" + bytes(93)]
        assert until(lambda: rp2.StateMachine.last.words[-96:] == expected, tick=tick)
        assert until(lambda: machine.WDT.last.feeds > 10, tick=tick)  # fed while it runs
        # each heartbeat carries the scans made since the one before (their rate is a speed,
        # measured in bench/, never asserted here: a loaded CI machine slows the thread down)
        assert until(lambda: scanner.heartbeats and scanner.heartbeats[-1][1] > 0, tick=tick)

        pico.stop()  # the peer stops answering
        assert until(lambda: link.status == "lost", tick=tick)
        assert "no answer" in link.status_log[-1][2]

        board.set({(0, 1)})
        pico = Runner(fd, board)  # it comes back (a watchdog reset, a replug)
        assert until(lambda: link.status == "up", tick=tick)
        assert until(lambda: frames[-1].occupied == {(0, 1)}, tick=tick)
        assert len(opened) >= 2 and link.frames_rejected == 0
    finally:
        pico.stop()
        link.close()
