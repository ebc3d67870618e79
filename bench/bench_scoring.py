"""Time scoring one taking in every variant: median and 95th percentile, in microseconds.

Run: ``.venv/bin/python bench/bench_scoring.py`` (figures go in docs/benchmarks.md, ## Scoring).
Each variant scores its own chips on squares of every operator, half of them with a dama, so the
rounding (D-6, D-7), fraction reduction and a + b√2 arithmetic are all in the timed path.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.rules.damath_data import OPERATORS, VARIANTS
from controller.rules.move import BLUE, RED, Chip, Taking
from controller.rules.scoring import score_taking
from controller.rules.variants import placement_values

ROUNDS = 2000


def takings(variant: str) -> list[Taking]:
    values = placement_values(variant)
    squares = sorted(OPERATORS)
    out = []
    for i, square in enumerate(squares):
        a, b = values[i % 12], values[(i * 5 + 3) % 12]
        dama = i % 2 == 0
        mult = 2 if dama else 1
        taker, taken = Chip(BLUE, a, dama), Chip(RED, b)
        out.append(Taking(taker, taken, (0, 0), square, OPERATORS[square], mult))
    return out


def bench(variant: str) -> tuple[float, float]:
    ts = takings(variant)
    for t in ts:  # warm up: first calls pay for imports and caches
        score_taking(t, variant)
    samples = []
    for r in range(ROUNDS):
        t = ts[r % len(ts)]
        start = time.perf_counter_ns()
        score_taking(t, variant)
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95)]


def main() -> None:
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("variant      median µs   p95 µs")
    for variant in VARIANTS:
        med, p95 = bench(variant)
        print(f"{variant:<12} {med:9.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
