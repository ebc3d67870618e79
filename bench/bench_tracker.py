"""Time to process one sensor frame, including what the LEDs show (issue 5: p99 under 1 ms).

Replays generated human traces (controller.tracker.generator) of random games in every variant
and times, per frame, ``tracker.feed_frame`` + ``tracker.guidance()`` + ``view.leds.led_colours``.

    .venv/bin/python bench/bench_tracker.py [--games 70] [--plies 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from controller.rules.damath_data import VARIANTS
from controller.rules.game import Game
from controller.tracker import MoveCommitted, Tracker
from controller.tracker.generator import human_trace, random_game
from controller.tracker.trace import Frame, read_trace
from controller.view.leds import led_colours


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=70)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args(argv)
    samples: list[float] = []
    for n in range(args.games):
        variant = VARIANTS[n % len(VARIANTS)]
        rng = random.Random(n)
        game = Game.new(variant)
        trace = read_trace(human_trace(game, random_game(game, args.plies, rng), rng))
        tracker = Tracker(game)
        clock = time.perf_counter_ns
        for rec in trace.records:
            if not isinstance(rec, Frame):
                continue
            t0 = clock()
            events = tracker.feed_frame(rec.t, rec.occupied)
            led_colours(tracker.guidance(), rec.t)
            samples.append((clock() - t0) / 1e6)
            for ev in events:
                if isinstance(ev, MoveCommitted):
                    game.push(ev.move)
        print(f"\r{n + 1}/{args.games} games", end="", file=sys.stderr)
    print(file=sys.stderr)
    samples.sort()
    p99 = samples[int(0.99 * (len(samples) - 1))]
    print(f"frames: {len(samples)}")
    print(f"median: {statistics.median(samples):.3f} ms")
    print(f"p99:    {p99:.3f} ms")
    print(f"max:    {samples[-1]:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
