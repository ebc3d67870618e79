"""Each children's level beats the one below it in a match (bench/bench_match.py's games:
seeded openings in every variant, each played with both colours). Levels 1-6 are limited by
depth, and their choice among good moves is seeded, so these matches give the same result on
every run and every machine; levels 7 and 8 play by time, so their rungs are measured in the
bench (bench/bench_levels.py --ladder, docs/benchmarks.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from bench_match import play

GAMES = 10  # 5 openings (5 variants), each with both colours
SEED = 1


@pytest.mark.slow
@pytest.mark.parametrize("level", [2, 3, 4, 5, 6])
def test_a_level_beats_the_level_below_it(level: int) -> None:
    first, second = f"engine:level={level}", f"engine:level={level - 1}"
    games = [play((i // 2, i % 2, first, second, 4, SEED, 160)) for i in range(GAMES)]
    points = sum(g["points_first"] for g in games)
    assert {g["first_is"] for g in games} == {"blue", "red"}
    assert points > GAMES / 2, f"level {level} scored {points} of {GAMES} against level {level - 1}"
