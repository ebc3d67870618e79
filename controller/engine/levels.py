"""Eight levels for children, from a beginner to full strength, as data.

A level weakens the engine the way a person is weaker, never by random blunders: it looks
fewer moves ahead (``depth``; level 1 does not even look at the reply, so it walks into
takings), and it picks among the moves it finds good by a *temperature*: a move whose value
is ``Δ`` below the best is chosen with weight ``exp(-Δ / T)``, and only moves within
``3·T`` of the best are considered. ``T`` is in ordinary takings of the variant
(``ScoreTables.typical``), so a level plays alike in every variant. With ``T = 0`` the level
plays its best move. The choice is seeded, so a game can be replayed exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.i18n import N_


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    """In English, marked for the catalogue: a page shows it in its language (``t()``)."""
    depth: int
    seconds: float | None
    """A time cap (full strength: the time a move may take)."""
    temperature: float
    quiescence: bool = True
    """Whether takings are followed to the end at the horizon (a beginner's are not)."""


LEVELS: tuple[Level, ...] = (
    Level(1, N_("beginner"), 1, None, 1.0, quiescence=False),
    Level(2, N_("learner"), 1, None, 0.6),
    Level(3, N_("player"), 2, None, 0.4),
    Level(4, N_("club player"), 3, None, 0.25),
    Level(5, N_("strong player"), 4, None, 0.12),
    Level(6, N_("expert"), 6, 1.0, 0.03),
    Level(7, N_("master"), 8, 1.0, 0.0),
    Level(8, N_("full strength"), 64, 3.0, 0.0),
)
"""Levels 1–5 are limited by depth alone and quick (bench/bench_levels.py: time per move);
level 6 looks 6 moves ahead unless a second runs out first (on a slow board); 7 and 8 are
limited by time."""

FULL_STRENGTH = LEVELS[-1]


def find_level(number: int) -> Level:
    """Level ``number`` (1–8)."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"level {number}: levels run from 1 to {len(LEVELS)}")
    return LEVELS[number - 1]
