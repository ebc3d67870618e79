"""Run by bench/bench_firmware_wide.py under the MicroPython unix port (or CPython):
``micropython bench/mp_firmware_wide.py ROOT [BOARD]`` (BOARD: 0..3, one a process: the heap
figure is then that board's alone). Prints one JSON line a board size: a scan of
an unchanged board, a scan while every point debounces, a report (mask joined and encoded),
the heap the loop's buffers take and what 1,000 scans allocate.

Then, under MicroPython only, the loop as the RP2040 runs it (``loop_*``): the matrix read
through its SIO registers (here a word array, read and written by C code as ``machine.mem32``
is on the Pico, not the fakes' Python), the LED chain handed to a DMA channel (a stub: on the
Pico one C call), the link's bytes arriving ``hw.READ_BUDGET`` at a time. 5,000 passes on a
virtual 1 kHz clock: an LED frame of the board's size every 40 passes (25 a second, the
board's most), a point changing every 250, each pass timed: the mean, the 99th percentile and
the worst pass (the longest the next scan can wait), and a scan alone through the registers.
"""

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


REGS = None  # the SIO's registers as a word array (RegisterFile, below), made once


def build(rows, columns):
    global REGS
    from array import array

    machine.clear()
    REGS = array("I", [0] * 32)
    closed = 0
    for pin in columns:
        closed |= 1 << pin
    REGS[4] = 0x3FFFFFFF ^ closed  # GPIO_IN: every column low, every point occupied
    return app.Firmware(
        hw.MatrixPins(rows, columns, settle_us=0, sio=0, mem=REGS),
        hw.Ws2812(16),
        Stream(),
        hw.Watchdog(),
        Clock(),
    )


def toggling(fw, lift):
    columns = 0
    for pin in fw.matrix.starts:  # every run's first column: enough to keep points counting
        columns |= 1 << pin

    def counting():
        REGS[4] ^= columns
        fw.scan()

    return counting


WHICH = BOARDS[int(sys.argv[2]) : int(sys.argv[2]) + 1] if len(sys.argv) > 2 else BOARDS
LOOP = sys.argv[3:] == ["loop"]  # the loop's figures instead (run with -X heapsize=230K)
if not LOOP:
    build(*WHICH[0][1:]).endpoint.poll()  # the first one pays for what the modules make once
for name, rows, columns in () if LOOP else WHICH:
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


# ---- the loop as the RP2040 runs it (MicroPython only) ----


class RegisterFile:
    """The SIO's registers (``mem[address]`` is C code, as machine.mem32 on the Pico): with the
    base at 0 each register's offset indexes a word array (GPIO_IN 4, OUT_SET 20, OUT_CLR 24)."""

    def __init__(self):
        from array import array

        self.words = array("I", [0] * 32)


class StubDMA:
    """A DMA channel: the Pico's config() is one C call that starts the transfer."""

    def pack_ctrl(self, **settings):
        return 0

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        pass

    def active(self, value=None):
        return False


class LinkIn:
    """What the Pi sends, handed over hw.READ_BUDGET bytes a read, as UsbStream does (one new
    bytes object of at most that many a read; the frame itself is not copied)."""

    def __init__(self, budget):
        self.frame = b""
        self.at = 0
        self.budget = budget
        self.sent = 0

    def arrive(self, frame):
        self.frame = self.frame[self.at :] + frame
        self.at = 0

    def read(self):
        if self.at >= len(self.frame):
            return b""
        data = self.frame[self.at : self.at + self.budget]
        self.at += self.budget
        return data

    def write(self, data):
        self.sent += len(data)


class VirtualClock:
    """The Pico's tick counters, moved one pass (1 ms) at a time by the benchmark."""

    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms

    def ticks_us(self):
        return self.ms * 1000

    def ticks_diff(self, a, b):
        return a - b

    def sleep_us(self, n):
        pass


def loop_figures(rows, columns):
    from array import array

    from firmware.endpoint import Endpoint

    gc.collect()
    passes = 5000
    times = array("I", range(passes))  # made first, whole, while the heap is empty
    decoding = array("B", bytes(passes))  # 1: the pass that took an LED frame's last bytes

    rp2.DMA = StubDMA
    regs = RegisterFile()
    width = len(columns)
    closed = 0
    for pin in columns:
        closed |= 1 << pin
    all_open = 0x3FFFFFFF
    regs.words[4] = all_open ^ closed  # every column low: a chip on every point
    machine.clear()
    matrix = hw.MatrixPins(rows, columns, settle_us=0, sio=0, mem=regs.words)
    clock = VirtualClock()
    link = LinkIn(hw.READ_BUDGET)
    points = len(rows) * width
    fw = app.Firmware(matrix, hw.Ws2812(16, clock=clock), link, hw.Watchdog(), clock)
    sio_scan = per_call_us(matrix.scan, 200)
    pi = Endpoint(lambda data: None, clock.ticks_ms)
    frames = []
    lit = (0, 8, points // 2, points)  # LEDs lit: a dark board, a move's few squares, half, all
    for k in range(4):  # LED frames of the board's size, as the Pi's LinkLedWriter sends them
        out = []
        pi._write = out.append
        body = bytearray(3 * points)  # dark LEDs are zero bytes: COBS's worst case
        for i in range(lit[k]):
            led = (i * 7919) % points
            body[3 * led : 3 * led + 3] = bytes((40 + i % 200, 200, 9))
        pi.send(protocol.LEDS, bytes(body))
        frames.append(b"".join(out))
    for n in range(passes):
        times[n] = 0xFFFFFFFF  # each pass's least time over the runs

    def run_passes(first, count):
        for n in range(first, first + count):
            clock.ms = n
            if n % 40 == 0:
                link.arrive(frames[(n // 40) % 4])
            if n % 250 == 0:
                regs.words[4] ^= 1 << columns[0]  # a chip lifted or put back
            before = fw.led_frames
            t0 = ticks_us()
            fw.step()
            took = ticks_diff(ticks_us(), t0)
            if took < times[n]:
                times[n] = took
            decoding[n] = fw.led_frames - before

    for k in range(5):
        # The same 5,000 passes five times (the same frames at the same passes); each pass keeps
        # its least time, so neither a preemption of this shared machine's process nor the
        # collector counts as the loop's unless it hit that same pass in every run: each run
        # starts with another amount of garbage, so the heap fills at other passes. The
        # collector's pause is measured on its own, below.
        link.arrive(b"")
        link.frame = b""
        gc.collect()
        junk = bytearray(1 + 9000 * k)
        junk = None  # noqa: F841  (garbage: the collector's next run comes that much sooner)
        run_passes(0, passes)
    gc.collect()
    gc.disable()
    allocated = gc.mem_alloc()
    run_passes(0, 40)  # one LED frame's worth: what the loop allocates between frames
    allocated = gc.mem_alloc() - allocated
    gc.enable()
    frame_max = max(times[n] for n in range(passes) if decoding[n])
    other_max = max(times[n] for n in range(passes) if not decoding[n])
    worst = max(frame_max, other_max)
    counts = {}  # the passes' times as a histogram (a sorted copy would not fit the heap)
    for n in range(passes):
        counts[times[n]] = counts.get(times[n], 0) + 1
    seen = 0
    p99 = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= passes * 99 // 100:
            p99 = value
            break
    collect = 0xFFFFFFFF
    for _ in range(5):
        t0 = ticks_us()
        gc.collect()
        collect = min(collect, ticks_diff(ticks_us(), t0))
    payload = protocol.pack(protocol.LEDS, 1, bytes(range(256)) * 2)[: 3 + 3 * points]
    crc = {
        "loop_crc_bits_us": round(per_call_us(lambda: framing.crc16_pure(payload), 20), 1),
        "loop_crc_table_us": round(per_call_us(lambda: framing.crc16_table(payload), 20), 1),
        "loop_crc_us": round(per_call_us(lambda: framing.crc16(payload), 20), 1),
    }
    figures = {
        "loop_sio_scan_us": round(sio_scan, 1),
        "loop_mean_us": round(sum(times) / passes, 1),
        "loop_p99_us": p99,
        "loop_max_us": worst,
        "loop_frame_pass_max_us": frame_max,
        "loop_other_pass_max_us": other_max,
        "loop_gc_us": collect,
        "loop_heap_bytes": gc.mem_alloc(),
        "loop_heap_free": gc.mem_free(),
        "loop_bytes_per_led_frame": allocated,
        "loop_led_frames": fw.led_frames,
    }
    figures.update(crc)
    return figures


if LOOP and hasattr(gc, "mem_alloc"):  # MicroPython
    for name, rows, columns in WHICH:
        figures = loop_figures(rows, columns)
        figures["board"] = name
        print(json.dumps(figures))
