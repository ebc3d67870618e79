"""The worst gap between two scans of the sensors over a stretch of play, with displays that cost
what the real ones cost on the I2C bus: side by side, the scoresheet and clocks drawn in the
scan loop at the bus's default 100 kHz (as before), and drawn off the loop at 400 kHz (now).

Each run is ``damath-board run``'s own loop (controller.board's ScanLoop and run_loop, real time,
200 Hz) on the pi-gpio profile over drivers/virtual.py: the matrix on gpiozero's mock pins, the
LED chain through neopixel_spi, the HT16K33 clocks and the OLED over a fake I2C bus whose every
transfer sleeps as long as it takes on the wire (9 bits a byte; an OLED page is 1,032 bytes). A game
is played by simulated hands on the matrix the whole time, so the clocks and the page change.

Run: .venv/bin/python bench/bench_scan_gap.py [--seconds 60]. On a machine shared with other jobs
it runs itself at a real-time priority (SCHED_FIFO 10 as root, else nice -10), as the board has
its Pi to itself; the control row (displays that cost nothing) shows the machine's own noise.
Besides the gaps it reports the longest pass of the loop itself (scan, session, render): the
part of a gap the board's own work causes.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import statistics
import time
from pathlib import Path

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from controller.board import (
    BoardHost,
    ScanLoop,
    freeze_startup_objects,
    off_the_loop,
    run_loop,
)
from controller.rules.game import Game
from controller.session import SessionConfig
from controller.tracker.generator import human_trace, random_game
from controller.tracker.trace import Frame, read_trace
from drivers.factory import build_devices
from drivers.profile import load_profile
from drivers.virtual import VirtualPi

ROOT = Path(__file__).resolve().parents[1]
PERIOD = 1 / 200


def long_trace(seconds: float):
    for seed in range(1, 200):
        game = Game.new("integer")
        moves = random_game(game, 400, random.Random(seed))
        trace = read_trace(human_trace(game, moves, random.Random(seed + 1000)))
        if trace.records[-1].t >= seconds + 2:
            return seed, trace
    raise SystemExit("no generated game lasts that long")


def run(bus_hz: float, in_loop: bool, seconds: float, trace) -> dict:
    profile = load_profile(ROOT / "hardware" / "pi-gpio.toml")
    pi = VirtualPi(profile, bus_hz=bus_hz)
    devices = build_devices(profile, **pi.hardware)
    if not in_loop:
        off_the_loop(devices)
    session = BoardHost.of_board(None, "bench").open(SessionConfig(), time.monotonic())
    board = ScanLoop(session, devices)
    scans: list[float] = []
    scan = devices.sensors.scan

    def timed_scan():
        scans.append(time.perf_counter())
        return scan()

    devices.sensors.scan = timed_scan
    passes: list[float] = []
    step = board.step

    def timed_step(t: float) -> None:
        began = time.perf_counter()
        step(t)
        passes.append((time.perf_counter() - began) * 1000)

    board.step = timed_step
    records = list(trace.records)
    first = records.pop(0)  # the chips set out; play starts once the board says it is ready
    pi.set_board(first.occupied)
    began = time.monotonic()
    end = began + seconds
    start: list[float] = []

    def running() -> bool:
        now = time.monotonic()
        if not start and session.phase == "play":
            start.append(now - first.t - 0.4)
        while start and records and start[0] + records[0].t <= now:
            rec = records.pop(0)
            if isinstance(rec, Frame):
                pi.set_board(rec.occupied)
        return now < end

    if not in_loop:  # "now" is the whole of what run does now; "before" is what it did
        freeze_startup_objects()
    run_loop(board, time.monotonic, time.sleep, PERIOD, running)
    pages = pi.display.pictures
    devices.close()
    pi.close()
    gaps = [(b - a) * 1000 for a, b in itertools.pairwise(scans)]
    return {
        "scans": len(scans),
        "worst": max(gaps),
        "p99": statistics.quantiles(gaps, n=100)[98],
        "p999": statistics.quantiles(gaps, n=1000)[998],
        "mean": statistics.fmean(gaps),
        "late": sum(g > 2 * PERIOD * 1000 for g in gaps),
        "longest_pass": max(passes),
        "pages": pages,
        "moves": session.game.ply,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        priority = "SCHED_FIFO 10"
    except (OSError, AttributeError):
        try:
            os.nice(-10)
            priority = "nice -10"
        except OSError:
            priority = "normal priority"
    seed, trace = long_trace(args.seconds)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs;")
    print(
        f"{args.seconds:.0f} s of play each (game seed {seed}), scan loop at 200 Hz (5 ms), "
        f"{priority}"
    )
    rows = []
    for label, hz, in_loop in (
        ("control: displays that cost nothing, in the loop", None, True),
        ("displays in the scan loop, I2C 100 kHz (before)", 100_000, True),
        ("displays off the scan loop, I2C 100 kHz", 100_000, False),
        ("displays off the scan loop, I2C 400 kHz (now)", 400_000, False),
    ):
        r = run(hz, in_loop, args.seconds, trace)
        rows.append((label, r))
        print(
            f"{label}: worst gap {r['worst']:.1f} ms, 99.9th percentile {r['p999']:.1f} ms, "
            f"99th {r['p99']:.1f} ms, mean {r['mean']:.2f} ms; {r['late']} of {r['scans']} "
            f"gaps over 10 ms; longest pass of the loop {r['longest_pass']:.1f} ms; "
            f"{r['pages']} pages drawn, {r['moves']} moves read"
        )
    before, now = rows[1][1], rows[3][1]
    print(
        f"before / now: worst gap {before['worst'] / now['worst']:.1f}x, "
        f"99.9th percentile {before['p999'] / now['p999']:.1f}x, "
        f"gaps over 10 ms {before['late'] / max(1, now['late']):.1f}x"
    )


if __name__ == "__main__":
    main()
