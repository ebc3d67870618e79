"""The co-processor's loop measured on emulated silicon (tests/emulator/): MicroPython's RP2040
build on rp2040js, times in emulated microseconds (125 MHz: 125 cycles each), per board.

For each board's config: the firmware's files are copied over the raw REPL (as the tests do),
then a script runs the firmware's own ``app.Firmware`` on the real ``hw`` parts (``MatrixPins``
on the SIO, ``Ws2812`` with its PIO and DMA, ``UsbStream`` on the emulated USB) and times each
pass with ``time.ticks_us``: passes with nothing arriving (and the heap they allocate, with the
collector off), then passes while LED frames of the board's size arrive 32 bytes a pass, one
every 40 passes (25 a second at 1 kHz, the most the board sends), mostly dark as a board's are.
Then the image with main.py is booted on a pty: the time to its first frame and the scans a
second its heartbeats count (the loop at its 1 kHz).

    .venv/bin/python bench/bench_emulated_pico.py [--passes N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drivers.coprocessor import LinkScanner  # noqa: E402
from drivers.link import Link  # noqa: E402
from firmware import config  # noqa: E402
from firmware.boards import dam12, mathchess  # noqa: E402
from tests.emulator.pico import (  # noqa: E402
    ROM,
    UF2,
    EmulatedPico,
    Harness,
    _b64,
    compiled,
    config_source,
    flash_image,
)  # fmt: skip

SCRIPT = """
import gc, time, micropython
import app, hw, protocol, framing, config
from endpoint import Endpoint

class Dog:
    def feed(self):
        pass

def board():
    return app.Firmware(hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS, config.SETTLE_US),
                        hw.Ws2812(config.LED_PIN), stream, Dog(), hw.Clock(),
                        led_count=getattr(config, 'LED_COUNT', None))

class Frames:
    # LED frames of the board's size, 32 bytes a pass, one every 40 passes; writes dropped
    def __init__(self, count):
        sent = []
        pi = Endpoint(sent.append, lambda: 0)
        for k in range(4):
            body = bytearray(3 * count)
            for i in range(k * 3):
                body[(7 * i) % len(body)] = 40 + i
            pi.send(protocol.LEDS, bytes(body))
        self.frames = sent
        self.data = b''
        self.n = 0
        self.at = 0
    def read(self):
        self.n += 1
        if self.n % 40 == 0:
            self.data = self.frames[self.at % 4]
            self.at += 1
        out, self.data = self.data[:32], self.data[32:]
        return out
    def write(self, data):
        pass

def timed(fw, n):
    worst = 0
    total = 0
    step = fw.step
    for _ in range(n):
        t = time.ticks_us()
        step()
        took = time.ticks_diff(time.ticks_us(), t)
        total += took
        if took > worst:
            worst = took
    return total, worst

class Reading(hw.UsbStream):
    # the real USB stream's reads; what the loop writes dropped (it would mix with this
    # script's own output on the REPL's port)
    def write(self, data):
        pass

N = {passes}
stream = Reading()
fw = board()
for _ in range(5):
    fw.step()
fw.endpoint._pending = {{}}  # as if the Pi had acknowledged the HELLO: nothing to retry
gc.collect()
gc.disable()
before = gc.mem_alloc()
idle_total, idle_worst = timed(fw, N)  # a heartbeat a second among them
beats = gc.mem_alloc() - before
fw.endpoint.heartbeat_ms = 1000000  # and now none: nothing at all to send
gc.collect()
before = gc.mem_alloc()
timed(fw, N)
idle_alloc = gc.mem_alloc() - before
gc.enable()
count = fw.led_bytes // 3
stream = Frames(count)
fw = board()
gc.collect()
led_total, led_worst = timed(fw, N)
t = time.ticks_us()
gc.collect()
collect = time.ticks_diff(time.ticks_us(), t)
print('RESULT', fw.points, idle_total / N, idle_worst, idle_alloc, beats, led_total / N,
      led_worst, fw.led_frames, collect)
"""


def passes_on(board, passes: int, folder: Path) -> list[float]:
    harness = Harness("--rom", str(ROM), "--uf2", str(UF2),
                      "--rows", ",".join(map(str, board.ROW_PINS)),
                      "--columns", ",".join(map(str, board.COLUMN_PINS)),
                      "--led-pin", str(board.LED_PIN))  # fmt: skip
    try:
        harness("enter")
        files = compiled(folder)
        files["config.py"] = config_source(board)
        harness("repl", files=_b64(files), limit_us=20_000_000)
        harness("closed", closed=[[0, 0], [1, 1]])
        started = harness("totals")
        done = harness("repl", code=SCRIPT.format(passes=passes), limit_us=60_000_000)
        ended = harness("totals")
    finally:
        harness.close()
    line = next(x for x in done["out"].splitlines() if x.startswith("RESULT"))
    values = [float(v) for v in line.split()[1:]]
    seconds = (ended["t"] - started["t"]) / 1e6
    return [*values, seconds]


def boot_on(board, folder: Path) -> tuple[float, float]:
    """Seconds from power-up to the first frame; scans a second over 1 s of heartbeats."""
    image = flash_image(folder, board)
    master, slave = os.openpty()
    tty.setraw(slave)
    pico = EmulatedPico(image, master, board)
    points = len(board.ROW_PINS) * len(board.COLUMN_PINS)
    link = Link(os.ttyname(slave), clock=lambda: pico.now, points=points)
    scanner = LinkScanner(link, clock=lambda: pico.now, points=points)
    first = None
    try:
        while len(scanner.heartbeats) < 3 and pico.now < 5:
            pico.run(0.005)
            scanner.scan()
            if first is None and link.endpoint.heard_ever():
                first = pico.now
        (t1, _), (t2, scans) = scanner.heartbeats[-2], scanner.heartbeats[-1]
        return first or 0.0, scans * 1000 / (t2 - t1)
    finally:
        link.close()
        pico.close()
        os.close(master)
        os.close(slave)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passes", type=int, default=2000)
    args = parser.parse_args()
    boards = [("Damath 8×4", config), ("Dam 12×6", dam12), ("Mathematical Chess 9×9", mathchess)]
    print(
        "| board | points | a pass, idle: mean / worst µs (cycles) | heap: 1,000 idle passes / "
        "with a heartbeat a second | a pass, LED frames arriving: mean / worst µs | "
        "capacity, scans a second | collector µs | boot to the first frame s | "
        "scans a second at 1 kHz (heartbeats) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, board in boards:
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            figures = passes_on(board, args.passes, Path(tmp))
            points, idle, idle_worst, alloc, beats, led, led_worst, frames, collect, _ = figures
            boot, rate = boot_on(board, Path(tmp) / "image")
        cells = [
            name, f"{points:.0f}",
            f"{idle:.0f} / {idle_worst:.0f} ({idle * 125:,.0f} / {idle_worst * 125:,.0f})",
            f"{alloc * 1000 / args.passes:.0f} B / {beats * 1000 / args.passes:.0f} B",
            f"{led:.0f} / {led_worst:.0f} ({frames:.0f} frames)", f"{1e6 / idle:,.0f}",
            f"{collect:.0f}", f"{boot:.3f}", f"{rate:,.0f}",
        ]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)
        print(f"  ({time.monotonic() - started:.0f} s real)", file=sys.stderr)


if __name__ == "__main__":
    main()
