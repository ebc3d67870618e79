"""Run by bench/bench_firmware_wide.py under the MicroPython unix port (or CPython):
``micropython bench/mp_firmware_wide.py ROOT [BOARD]`` (BOARD: 0..3, one a process: the heap
figure is then that board's alone). Prints one JSON line a board size: a scan of
an unchanged board, a scan while every point debounces, a report (mask joined and encoded),
the heap the loop's buffers take and what 1,000 scans allocate."""

import gc
import json
import sys

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)

from firmware import fakes  # noqa: E402

machine, rp2 = fakes.install()

from firmware import app, framing, hw, protocol  # noqa: E402

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1_000_000)

    def ticks_diff(a, b):
        return a - b


ROWS12 = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
BOARDS = (
    ("damath 8x4", (2, 3, 4, 5, 6, 7, 8, 9), (10, 11, 12, 13)),
    ("dam 12x6", ROWS12, (14, 15, 17, 18, 19, 20)),
    ("mathchess 9x9", (2, 3, 4, 5, 6, 7, 8, 9, 10), (11, 12, 13, 14, 15, 17, 18, 19, 20)),
    ("full 12x12", ROWS12, (14, 15, 17, 18, 19, 20, 21, 26, 27, 28, 0, 1)),
)


class Stream:
    def read(self):
        return b""

    def write(self, data):
        pass


class Clock:
    def ticks_ms(self):
        return 0

    def ticks_us(self):
        return 0

    def ticks_diff(self, a, b):
        return a - b

    def sleep_us(self, n):
        pass


def used():
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def per_call_us(fn, n):
    best = None
    for _ in range(5):
        t0 = ticks_us()
        for _ in range(n):
            fn()
        dt = ticks_diff(ticks_us(), t0) / n
        best = dt if best is None or dt < best else best
    return best


def build(rows, columns):
    machine.clear()
    machine.input_hook = lambda pin: 0  # every point occupied
    return app.Firmware(
        hw.MatrixPins(rows, columns, settle_us=0), hw.Ws2812(16), Stream(), hw.Watchdog(), Clock()
    )


def toggling(fw, lift):
    def counting():
        lift[0] ^= 1
        machine.input_hook = (lambda pin: 1) if lift[0] else (lambda pin: 0)
        fw.scan()

    return counting


WHICH = BOARDS[int(sys.argv[2]) : int(sys.argv[2]) + 1] if len(sys.argv) > 2 else BOARDS
build(*WHICH[0][1:]).endpoint.poll()  # the first one pays for what the modules make once
for name, rows, columns in WHICH:
    before = used()
    fw = build(rows, columns)
    buffers = used() - before
    for _ in range(4):
        fw.step()
    gc.collect()
    start = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    for _ in range(1000):
        fw.scan()
    grown = (gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0) - start
    steady = per_call_us(fw.scan, 200)
    debouncing = per_call_us(toggling(fw, [1]), 200)
    report = per_call_us(fw._report, 200)
    n = fw.points
    print(json.dumps({
        "board": name, "points": n, "scan_us": round(steady, 1),
        "debounce_us": round(debouncing, 1), "report_us": round(report, 1),
        "buffers_bytes": buffers, "bytes_per_1000_scans": grown,
        "occupancy_frame": len(framing.encode_frame(
            protocol.pack(protocol.OCCUPANCY, 0, protocol.occupancy_body(0, 0, n)))),
        "led_body": 3 * n,
    }))  # fmt: skip
