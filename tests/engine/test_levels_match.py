"""Each children's level beats the one below it in a match (bench/bench_match.py's games:
seeded openings in every variant, each played with both colours). Levels 1-5 are limited by
depth alone, and their choice among good moves is seeded, so these matches give the same result
on every run and every machine. Levels 6-8 have a time cap (a loaded machine changes their
play), so their rungs are measured in the bench (``bench/bench_levels.py --ladder``,
docs/benchmarks.md); here the table itself must make every level at least as strong as the
one below it, which a swapped or mistyped level fails."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

from controller.engine.levels import LEVELS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from bench_match import play

GAMES = 10  # 5 openings (5 variants), each with both colours
SEED = 1


@pytest.mark.slow
@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_a_level_beats_the_level_below_it(level: int) -> None:
    first, second = f"engine:level={level}", f"engine:level={level - 1}"
    games = [play((i // 2, i % 2, first, second, 4, SEED, 160)) for i in range(GAMES)]
    points = sum(g["points_first"] for g in games)
    assert {g["first_is"] for g in games} == {"blue", "red"}
    assert points > GAMES / 2, f"level {level} scored {points} of {GAMES} against level {level - 1}"


def test_every_level_is_at_least_as_strong_as_the_one_below_it() -> None:
    """Deeper or as deep, no hotter, no shorter in time, the horizon's takings followed from
    level 2; and each level differs from the one below in something."""
    assert [level.number for level in LEVELS] == list(range(1, len(LEVELS) + 1))
    for below, level in itertools.pairwise(LEVELS):
        assert level.depth >= below.depth, (below, level)
        assert level.temperature <= below.temperature, (below, level)
        assert level.quiescence >= below.quiescence, (below, level)
        if below.seconds is not None:
            assert level.seconds is not None and level.seconds >= below.seconds, (below, level)
        weaker = (below.depth, -below.temperature, below.quiescence, below.seconds or 0.0)
        assert weaker != (level.depth, -level.temperature, level.quiescence, level.seconds or 0.0)
    assert LEVELS[-1].temperature == 0.0 and LEVELS[0].quiescence is False
