"""A simulated federation whose players have a hidden true strength, for the rating's
benchmark (bench/bench_federation_ratings.py) and its test (tests/federation/test_glicko2.py).

**The strength model, calibrated on engine games.** The engine's children's levels were played
against each other (bench/bench_levels.py, docs/benchmarks.md "The children's levels"): each
level scored 97.5 %, 85 %, 75 %, 65 %, 82.5 %, 70 %, 85 % against the level below (levels 2 to
8). Those scores, turned into rating differences by the logistic curve Elo and Glicko use
(400 · log10(p / (1 − p))), put the levels on one scale (``LEVELS``). A simulated player is a
level between 1 and 6 drawn at random, not necessarily whole (a child between two levels),
placed on that scale by straight interpolation: their true strength. A game between two players
is won by the stronger with the logistic probability of their difference, as the engine's
levels were; a draw comes with probability 6 % between equals and less as the gap grows (the
levels' games had next to none; children's games have a few), taken evenly from both sides'
chances so the expected score stays the curve's.

**The league.** Players in regions and schools; every month each region holds one event: a
random draw of its players plays a few rounds, each round paired at random (no Swiss: a random
pairing is the harder case for a rating, as strong players meet weak ones and learn less from
it). The variant of each event is drawn among the families. Seeded: the same league, games and
figures every run.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

LADDER = (0.975, 0.85, 0.75, 0.65, 0.825, 0.70, 0.85)
"""Each level's score against the level below, levels 2 to 8 (docs/benchmarks.md)."""


def _scale() -> dict[int, float]:
    out, total = {1: 0.0}, 0.0
    for level, p in enumerate(LADDER, start=2):
        total += 400 * math.log10(p / (1 - p))
        out[level] = total
    return out


LEVELS = _scale()
"""Level -> its strength on the rating scale, level 1 at 0."""
FAMILIES = ("integer", "fraction", "radical", "polynomial")
DRAW_EVEN = 0.06


def strength_of(level: float) -> float:
    low = max(1, min(7, math.floor(level)))
    frac = level - low
    return LEVELS[low] + frac * (LEVELS[low + 1] - LEVELS[low])


def expected(a: float, b: float) -> float:
    return 1.0 / (1.0 + 10 ** (-(a - b) / 400))


def outcome(a: float, b: float, rng: random.Random) -> str:
    """Blue (strength ``a``) against Red (``b``): ``blue``, ``red`` or ``draw``."""
    e = expected(a, b)
    draw = DRAW_EVEN * 2 * min(e, 1 - e)
    x = rng.random()
    if x < e - draw / 2:
        return "blue"
    if x < e + draw / 2:
        return "draw"
    return "red"


@dataclass
class League:
    strength: dict[str, float] = field(default_factory=dict)
    family_skill: dict[tuple[str, str], float] = field(default_factory=dict)
    """A player's strength in one variant family beyond their own (0 unless asked for)."""
    level: dict[str, float] = field(default_factory=dict)
    region: dict[str, str] = field(default_factory=dict)
    school: dict[str, str] = field(default_factory=dict)
    birth_year: dict[str, int] = field(default_factory=dict)

    @classmethod
    def make(
        cls,
        players: int,
        seed: int = 1,
        regions: int = 2,
        schools_per_region: int = 5,
        ids: list[str] | None = None,
        family_sd: float = 0.0,
    ) -> League:
        rng = random.Random(seed)
        league = cls()
        names = ids or [f"P{n:06d}" for n in range(players)]
        for n, pid in enumerate(names[:players]):
            level = rng.uniform(1.0, 6.0)
            league.level[pid] = level
            league.strength[pid] = strength_of(level)
            r = n % regions
            league.region[pid] = f"Region {r + 1}"
            league.school[pid] = f"School {r + 1}-{rng.randrange(schools_per_region) + 1}"
            league.birth_year[pid] = rng.randint(2008, 2018)
            for family in FAMILIES:
                league.family_skill[(pid, family)] = rng.gauss(0, family_sd) if family_sd else 0
        return league

    def true(self, pid: str, family: str | None = None) -> float:
        return self.strength[pid] + (self.family_skill.get((pid, family), 0) if family else 0)

    def play(
        self,
        periods: int,
        event_size: int = 16,
        rounds: int = 4,
        seed: int = 2,
        start_year: int = 2026,
        events_per_month: int = 1,
    ) -> list[dict[str, Any]]:
        """Every game of ``periods`` months, in date order, as the store's rated results: each
        region holds ``events_per_month`` events a month (a week apart)."""
        rng = random.Random(seed)
        by_region: dict[str, list[str]] = {}
        for pid, region in sorted(self.region.items()):
            by_region.setdefault(region, []).append(pid)
        out: list[dict[str, Any]] = []
        for month in range(periods):
            year, mon = start_year + month // 12, month % 12 + 1
            for week in range(events_per_month):
                for n, (region, members) in enumerate(sorted(by_region.items())):
                    day = min(28, 1 + 7 * week + n % 7)
                    date = f"{year:04d}-{mon:02d}-{day:02d}"
                    family = rng.choice(FAMILIES)
                    field_ = rng.sample(members, min(event_size, len(members)) // 2 * 2)
                    event = f"{region}-{year}-{mon}-{week}"
                    for rnd in range(rounds):
                        rng.shuffle(field_)
                        for table in range(len(field_) // 2):
                            blue, red = field_[2 * table], field_[2 * table + 1]
                            a, b = self.true(blue, family), self.true(red, family)
                            out.append(
                                {
                                    "date": date,
                                    "blue": blue,
                                    "red": red,
                                    "outcome": outcome(a, b, rng),
                                    "family": family,
                                    "event_id": event,
                                    "round": rnd + 1,
                                    "table_no": table + 1,
                                }
                            )
        out.sort(key=lambda r: (r["date"], r["event_id"], r["round"], r["table_no"]))
        return out


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation: Pearson's of the ranks."""
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else 0.0
