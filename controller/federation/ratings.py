"""The rating run: every rated game, period by period, through Glicko-2, from scratch.

A rating period is a span of calendar months (one by default) of the events' dates; every game
of a period is rated against the opponents' ratings at the period's start (Glicko-2's own
rule). Each game counts (a win 1, a draw ½, a loss 0); forfeits and byes are not games and are
not rated. Ratings are kept in pools: ``all`` (every Damath game) and one per variant family
(``integer``: Counting, Whole, Integer; ``fraction``: Fraction, Rational; ``radical``;
``polynomial``), so a player strong with integers and new to radicals is rated as such.

A rating is provisional while its deviation is above ``PROVISIONAL_RD`` (110, as lichess marks
one): a newcomer's first period, or a player back after a long absence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.ratings import glicko2
from controller.ratings.glicko2 import Rating
from controller.rules.damath_data import VALUE_KINDS

ALL = "all"
FAMILIES = ("integer", "fraction", "radical", "polynomial")
POOLS = (ALL, *FAMILIES)
PROVISIONAL_RD = 110.0
SCORES = {"blue": (1.0, 0.0), "red": (0.0, 1.0), "draw": (0.5, 0.5)}


def family_of(variant: str) -> str:
    """The variant family a Damath variant is rated in (its chips' kind of number)."""
    return VALUE_KINDS.get(variant, "integer")


def period_index(date: str, months: int = 1) -> int:
    """The rating period of a date ``YYYY-MM-DD``: periods of ``months`` calendar months
    counted from year 0, so consecutive periods have consecutive numbers."""
    year, month = int(date[:4]), int(date[5:7])
    return (year * 12 + month - 1) // months


def period_name(index: int, months: int = 1) -> str:
    """``YYYY-MM``: the first month of the period."""
    first = index * months
    return f"{first // 12:04d}-{first % 12 + 1:02d}"


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


@dataclass
class Standing:
    """A player's rating in one pool as the run goes."""

    rating: Rating = field(default_factory=Rating)
    period: int | None = None
    """The last period the player played in (their rating is as of its end)."""


@dataclass
class PeriodGames:
    """The games of one period, per player: (opponent, score)."""

    games: dict[str, list[tuple[str, float]]] = field(default_factory=dict)

    def add(self, blue: str, red: str, outcome: str) -> None:
        sb, sr = SCORES[outcome]
        self.games.setdefault(blue, []).append((red, sb))
        self.games.setdefault(red, []).append((blue, sr))


class Pool:
    """One pool's players and the rows of their history."""

    def __init__(self, name: str, months: int) -> None:
        self.name = name
        self.months = months
        self.players: dict[str, Standing] = {}

    def rate(self, index: int, period: PeriodGames) -> Iterator[dict[str, Any]]:
        """Every player of the period rated at its end; the history rows."""
        before: dict[str, Rating] = {}
        for fed_id in period.games:
            st = self.players.setdefault(fed_id, Standing())
            # the periods the player sat out since the last: the deviation grows
            gap = index - st.period - 1 if st.period is not None else 0
            before[fed_id] = glicko2.idle(st.rating, gap)
        for fed_id, games in period.games.items():
            played = [glicko2.Game(before[opp], score) for opp, score in games]
            new = glicko2.update(before[fed_id], played)
            self.players[fed_id] = Standing(new, index)
            yield {
                "pool": self.name,
                "period": period_name(index, self.months),
                "fed_id": fed_id,
                "rating": new.rating,
                "rd": new.rd,
                "volatility": new.volatility,
                "wins": sum(1 for _, s in games if s == 1.0),
                "draws": sum(1 for _, s in games if s == 0.5),
                "losses": sum(1 for _, s in games if s == 0.0),
            }


@dataclass
class Run:
    """What a run did: its rows are written as they come, these are its figures."""

    games: int = 0
    periods: int = 0
    last_period: str = ""
    players: set[str] = field(default_factory=set)


def rate(
    results: Iterable[Mapping[str, Any]], months: int = 1, run: Run | None = None
) -> Iterator[dict[str, Any]]:
    """The history rows of every pool, period by period, from ``results`` in date order
    (``date``, ``blue``, ``red``, ``outcome``, ``family``: what ``store.rated_results``
    yields). ``run`` collects the run's figures."""
    run = run if run is not None else Run()
    pools = {name: Pool(name, months) for name in POOLS}
    current: int | None = None
    games: dict[str, PeriodGames] = {}
    for r in results:
        if r["outcome"] not in SCORES or r["blue"] == r["red"]:
            continue
        index = period_index(r["date"], months)
        if current is not None and index < current:
            raise ValueError(f"results out of date order at {r['date']}")
        if index != current:
            if current is not None:
                yield from _close(pools, current, games, run, months)
            current, games = index, {}
        run.games += 1
        run.players.update((r["blue"], r["red"]))
        for pool in (ALL, r["family"] if r["family"] in FAMILIES else "integer"):
            games.setdefault(pool, PeriodGames()).add(r["blue"], r["red"], r["outcome"])
    if current is not None:
        yield from _close(pools, current, games, run, months)


def _close(
    pools: dict[str, Pool], index: int, games: dict[str, PeriodGames], run: Run, months: int
) -> Iterator[dict[str, Any]]:
    run.periods += 1
    run.last_period = period_name(index, months)
    for name, period in games.items():
        yield from pools[name].rate(index, period)


def current(rows: Iterable[Mapping[str, Any]], as_of: str, months: int = 1) -> dict[str, Any]:
    """Each player's rating as of period ``as_of`` (``YYYY-MM``) from their history rows: the
    last row, its deviation grown by the periods since (Glicko-2's rule for a player who
    does not play). Returns fed_id -> {rating, rd, provisional, games, period}."""
    end = period_index(as_of + "-01", months)
    out: dict[str, Any] = {}
    for row in rows:  # by player, then period: the last one of each player wins
        fed_id = row["fed_id"]
        games = row["wins"] + row["draws"] + row["losses"]
        prev = out.get(fed_id)
        total = games + (prev["games"] if prev else 0)
        record = {
            "wins": row["wins"] + (prev["wins"] if prev else 0),
            "draws": row["draws"] + (prev["draws"] if prev else 0),
            "losses": row["losses"] + (prev["losses"] if prev else 0),
        }
        last = Rating(row["rating"], row["rd"], row["volatility"])
        gap = end - period_index(row["period"] + "-01", months)
        now = glicko2.idle(last, gap)
        out[fed_id] = {
            "rating": now.rating,
            "rd": now.rd,
            "volatility": now.volatility,
            "provisional": provisional(now.rd),
            "games": total,
            "period": row["period"],
            **record,
        }
    return out
