"""The children's levels: time a move per level, and the ladder (each level against the one
below it).

Time: ``think(game, level=n)`` on positions from seeded random games in every variant
(bench/bench_engine.py's), CPU time of the process; with the Pi 4 estimate of
bench/pi_estimate.py. Levels 7 and 8 are limited by time (1 s and 3 s of wall time a move).

Ladder (``--ladder GAMES``): level n against level n − 1 for n = 2..8, through
bench/bench_match.py's games (openings of every variant and profile, colours swapped), CPU time.

Run from the repository root: ``.venv/bin/python bench/bench_levels.py [--ladder 20]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import positions
from bench_match import play, summary
from pi_estimate import PI4_FACTOR

from controller.engine.levels import LEVELS
from controller.engine.think import think


def timing(per_variant: int) -> None:
    games = positions(per_variant, seed=5)
    for game in games:  # warm up: each game's score tables are built once, then cached
        think(game, depth=1)
    print(f"{len(games)} positions; CPU seconds a move (Pi 4 estimate: × {PI4_FACTOR:.0f})")
    print(
        f"{'level':>5} {'name':14} {'depth':>5} {'median':>8} {'p90':>8} {'max':>8} {'Pi 4 max':>9}"
    )
    for lvl in LEVELS:
        times = []
        for i, game in enumerate(games):
            t = time.process_time()
            think(game, level=lvl.number, seed=i, clock=time.process_time)
            times.append(time.process_time() - t)
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        pi = f"{times[-1] * PI4_FACTOR:.2f}" if lvl.seconds is None else f"{lvl.seconds:g} (cap)"
        print(
            f"{lvl.number:>5} {lvl.name:14} {lvl.depth if lvl.depth < 64 else '—':>5} "
            f"{statistics.median(times):>8.3f} {p90:>8.3f} {times[-1]:>8.3f} {pi:>9}"
        )


def ladder(games: int, jobs: int, seed: int, rungs: range) -> None:
    for n in rungs:
        first, second = f"engine:level={n}", f"engine:level={n - 1}"
        tasks = [(i // 2, i % 2, first, second, 4, seed, 160) for i in range(games)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(play, tasks))
        print(summary(first, second, results), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=4, help="per variant")
    parser.add_argument("--ladder", type=int, default=0, metavar="GAMES")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rungs", default="2-8", help="which levels meet the one below: 2-8")
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor()})")
    if not args.no_timing:
        timing(args.positions)
    if args.ladder:
        lo, _, hi = args.rungs.partition("-")
        ladder(args.ladder, args.jobs, args.seed, range(int(lo), int(hi or lo) + 1))


if __name__ == "__main__":
    main()
