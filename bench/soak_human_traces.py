"""The tracker's soak: games played by realistic hands (``tracker.generator.human_trace``:
lifts, hesitations, taken chips removed in any order, switch bounce) in every variant and both
profiles, each read back by the tracker and compared with the game played, move for move and
score for score. The suite plays 100 games of the variant bench/mutation.sh reads and 30 of each
other (tests/tracker/test_generated.py); this is the long run, after a change to the tracker.

    .venv/bin/python bench/soak_human_traces.py [--games N] [--first SEED]

Prints one line a variant (games, seconds, differences); exits 1 if any game differed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.rules.damath_data import VARIANTS
from tests.tracker.test_generated import replay_differences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per variant (200)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (0)")
    args = parser.parse_args(argv)
    seeds = range(args.first, args.first + args.games)
    wrong_all: list[str] = []
    for variant in VARIANTS:
        start = time.perf_counter()
        wrong = replay_differences(variant, seeds)
        wrong_all += wrong
        took = time.perf_counter() - start
        print(
            f"{variant:<11} {len(seeds)} games in {took:6.1f} s, {len(wrong)} differed", flush=True
        )
    for line in wrong_all:
        print(f"differed: {line}")
    return 1 if wrong_all else 0


if __name__ == "__main__":
    sys.exit(main())
