"""The Pico's scan and LED chain as the RP2040 runs them (on firmware/fakes): a row read whole
from the SIO's GPIO_IN, the columns gathered run by run; the LED frame handed to DMA so the
loop never waits for the wire, the newest frame winning, the chain let latch between frames;
the CRC by table equal to binascii's; frames found in a stream a run at a time."""

from __future__ import annotations

import binascii
import random
import time

import pytest

from firmware import fakes, framing

machine, rp2 = fakes.install()
from firmware import hw  # noqa: E402  (needs the fakes installed first)

BOARDS = {
    "damath 8x4": ((2, 3, 4, 5, 6, 7, 8, 9), (10, 11, 12, 13)),
    "mathchess 9x9": ((2, 3, 4, 5, 6, 7, 8, 9, 10), (11, 12, 13, 14, 15, 17, 18, 19, 20)),
    "dam 12x6": ((2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), (14, 15, 17, 18, 19, 20)),
    "full 12x12": (
        (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
        (14, 15, 17, 18, 19, 20, 21, 26, 27, 28, 0, 1),
    ),
}


def test_columns_are_gathered_as_runs_of_consecutive_gpios():
    assert hw.column_runs((10, 11, 12, 13)) == ([10], [0b1111], [0])
    assert hw.column_runs(BOARDS["mathchess 9x9"][1]) == ([11, 17], [0b11111, 0b1111], [0, 5])
    assert hw.column_runs((3, 2)) == ([3, 2], [1, 1], [0, 1])  # descending: one run a pin


@pytest.mark.parametrize("board", BOARDS)
def test_each_row_is_one_gpio_in_read_and_every_point_lands_on_its_bit(board):
    rows, columns = BOARDS[board]
    machine.clear()
    closed = {(r, c) for r in range(len(rows)) for c in range(len(columns))}
    closed = set(random.Random(board).sample(sorted(closed), len(closed) // 3))

    def level(pin: int) -> int:
        c = columns.index(pin)
        low = [r for r in range(len(rows)) if machine.levels[rows[r]] == 0]
        return 0 if any((r, c) in closed for r in low) else 1

    machine.input_hook = level
    matrix = hw.MatrixPins(rows, columns, settle_us=0)
    before = machine.mem32.reads
    matrix.scan()
    assert machine.mem32.reads - before == len(rows)  # a read a row, every column in it
    mask = 0
    for k, word in enumerate(matrix.words):
        mask |= word << (k * matrix.word_bits)
    assert mask == sum(1 << (r * len(columns) + c) for r, c in closed)
    assert all(machine.levels[pin] == 1 for pin in rows)  # every row let go after its read


class Ticks:
    """The Pico's microsecond ticks, moved by the test."""

    def __init__(self) -> None:
        self.us = 5_000

    def ticks_us(self) -> int:
        return self.us

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b


def sent(sm) -> bytes:
    return bytes(w >> 24 for w in sm.words)


def test_an_led_frame_goes_out_by_dma_without_waiting_and_the_newest_waits_its_turn():
    machine.clear()
    ticks = Ticks()
    leds = hw.Ws2812(16, clock=ticks)
    dma = leds.dma
    rp2.DMA.busy = 3  # the chain takes three polls to send a frame
    try:
        leds.write(b"\x01\x02\x03")
        assert sent(leds.sm) == b"\x01\x02\x03" and dma.transfers == 1  # started at once
        leds.write(b"\x04\x05\x06")  # while the first is on the wire: kept, nothing waits
        leds.write(b"\x07\x08\x09")  # newer still: it replaces the one waiting
        for _ in range(3):
            leds.poll()
        assert dma.transfers == 1  # the chain is busy, then latching
        ticks.us += hw.Ws2812.RESET_US - 1
        leds.poll()
        assert dma.transfers == 1  # not yet latched
        ticks.us += 1
        leds.poll()
        assert dma.transfers == 2 and sent(leds.sm) == b"\x01\x02\x03\x07\x08\x09"
    finally:
        rp2.DMA.busy = 0


def test_without_dma_the_frame_goes_into_the_fifo_as_before(monkeypatch):
    machine.clear()
    monkeypatch.delattr(rp2, "DMA")
    leds = hw.Ws2812(16)
    assert leds.dma is None
    leds.write(b"\x0a\x0b")
    assert leds.sm.words[-2:] == [0x0A << 24, 0x0B << 24]
    leds.poll()  # nothing to do


def test_the_table_crc_is_binascii_s():
    rng = random.Random(5)
    for n in (0, 1, 9, 96, 432, 1026):
        data = bytes(rng.getrandbits(8) for _ in range(n))
        assert framing.crc16_table(data) == binascii.crc_hqx(data, 0xFFFF) == framing.crc16(data)
    assert framing.crc16_table(b"123456789") == 0x29B1


def test_frames_are_found_the_same_whatever_the_stream_s_chunks():
    payloads = [bytes(range(n % 256)) * (1 + n // 256) for n in (3, 40, 255, 300)]
    wire = b"\x00\x05garbage\x00" + b"".join(framing.encode_frame(p) for p in payloads)
    for size in (1, 2, 31, 32, 1000):
        decoder = framing.FrameDecoder()
        out = []
        for i in range(0, len(wire), size):
            out += decoder.feed(wire[i : i + size])
        assert out == payloads and decoder.bad == 1, size  # the garbage between delimiters
    decoder = framing.FrameDecoder()
    assert decoder.feed(b"\x01" * (framing.MAX_ENCODED + 1) + b"\x00") == []
    assert decoder.bad == 1  # too long: dropped whole, counted once
    assert decoder.feed(framing.encode_frame(b"ok")) == [b"ok"]


def test_the_clock_on_cpython_wraps_at_2_30_as_the_rp2040_s():
    clock = hw.Clock(start_us=hw.TICKS_PERIOD - 2000)
    first = clock.ticks_us()
    assert hw.TICKS_PERIOD - 2000 <= first < hw.TICKS_PERIOD
    end = time.monotonic() + 10  # the bound only ends a hung test
    while clock.ticks_us() >= first and time.monotonic() < end:
        clock.sleep_us(500)
    now = clock.ticks_us()
    assert now < first  # wrapped to a small tick
    # the time from ``first`` across the wrap (``first`` is read a little after the clock was
    # made 2000 µs before its wrap: on a loaded machine, much later)
    assert clock.ticks_diff(now, first) == now + hw.TICKS_PERIOD - first
    assert 0 < clock.ticks_diff(now, first) < hw.TICKS_PERIOD // 2
    assert clock.ticks_add(first, 5000) == first + 5000 - hw.TICKS_PERIOD
