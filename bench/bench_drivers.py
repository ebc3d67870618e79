"""Driver costs: one matrix scan over gpiozero mock pins, one LED frame's Python encoding next
to its 2 ms on the wire, and frames a second through the link over a pty.

Run: .venv/bin/python bench/bench_drivers.py (on a shared machine: chrt -f 10 in front, as root)
"""

from __future__ import annotations

import contextlib
import os
import platform
import threading
import time
import timeit

from gpiozero.pins.mock import MockFactory

from drivers.coprocessor import LinkScanner
from drivers.ledmap import layout_map
from drivers.leds import LedStrip, MockLedWriter
from drivers.link import Link
from drivers.mockmatrix import SimulatedMatrix
from drivers.sensors import GpioMatrixSource, Scanner
from firmware import protocol
from firmware.endpoint import Endpoint

ROWS = [5, 6, 12, 13, 16, 19, 20, 26]
COLUMNS = [17, 22, 23, 27]


def per_call_us(fn, number: int) -> float:
    best = min(timeit.repeat(fn, number=number, repeat=5))
    return best / number * 1e6


def bench_scan() -> None:
    factory = MockFactory(revision="d04170")
    matrix = SimulatedMatrix(factory, ROWS, COLUMNS)
    matrix.press((1, 0), (6, 7), (3, 4))
    source = GpioMatrixSource(ROWS, COLUMNS, pin_factory=factory)  # settle_us=20, the default
    scanner = Scanner(source, 3)
    raw = per_call_us(source.read_mask, 2000)
    full = per_call_us(scanner.scan, 2000)
    print(f"matrix scan, 8x4 over MockFactory pins (simulated wiring, settle 20 us): {raw:.1f} us")
    print(f"  + debounce (Scanner.scan, no change): {full:.1f} us -> {1e6 / full:,.0f} scans/s")
    scanner.close()
    factory.reset()
    plain = GpioMatrixSource(ROWS, COLUMNS, pin_factory=factory, settle_us=0)  # plain MockPins
    bare = per_call_us(plain.read_mask, 2000)
    print(f"matrix scan over plain MockPins, no settle (the driver's own Python): {bare:.1f} us")
    plain.close()
    factory.reset()


def bench_leds() -> None:
    for count, per_square in ((32, 1), (64, 2)):
        strip = LedStrip(MockLedWriter(), layout_map(per_square=per_square), count, supply_amps=2.0)
        frame = {sq: (255, 128, 40) for sq in strip.mapping}  # all lit: the cap is applied
        us = per_call_us(lambda s=strip, f=frame: s.encode(f), 2000)
        wire_ms = count * 24 * 1.25e-3 + 0.28
        print(f"LED frame encode, {count} LEDs, capped: {us:.1f} us (wire: {wire_ms:.2f} ms)")


def bench_link_pty(seconds: float = 2.0) -> None:
    """The Pico side is simulated by an Endpoint on the pty master sending occupancy frames as
    fast as the Pi acknowledges them; the Pi side is the real Link + LinkScanner."""
    master, slave = os.openpty()
    os.set_blocking(master, False)
    import serial

    link = Link(os.ttyname(slave), open_port=lambda u, b: serial.Serial(u, b, timeout=0))
    scanner = LinkScanner(link)

    def write(data: bytes) -> None:
        while data:
            try:
                n = os.write(master, data)
                data = data[n:]
            except BlockingIOError:
                time.sleep(0.0005)

    pico = Endpoint(write, lambda: int(time.monotonic() * 1000))
    stop = threading.Event()

    def peer() -> None:
        i = 0
        while not stop.is_set():
            with contextlib.suppress(BlockingIOError):
                pico.feed(os.read(master, 4096))
            if pico.pending() == 0:
                i += 1
                pico.send(protocol.OCCUPANCY, protocol.occupancy_body(i, i))
            pico.poll()
            time.sleep(0)

    thread = threading.Thread(target=peer, daemon=True)
    thread.start()
    frames = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if scanner.scan() is not None:
            frames += 1
    stop.set()
    thread.join()
    link.close()
    os.close(master)
    os.close(slave)
    print(
        f"link over a pty: {frames / seconds:,.0f} occupancy frames/s acknowledged "
        f"(stop-and-wait, each one ACKed), rejected {link.frames_rejected}"
    )


def main() -> None:
    print(f"python {platform.python_version()} on {platform.machine()}")
    bench_scan()
    bench_leds()
    bench_link_pty()


if __name__ == "__main__":
    main()
