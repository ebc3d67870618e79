"""The schools' ranking (teams), as Philippine school meets award it beside the individuals: a
school's team score is the sum of its best N players' points in a division (N is the event's
``team_size``), from the players' school field. Pure: a function of the division's standings,
so the desk, the wall and the exports agree with the individual table they come from.

Which players count: a school's players in the order of the individual standings (points, then
the event's tie-breaks), the first N. Ties between schools are broken, in order, by:

1. the counted players' Damath score difference, summed (exact, as the individual tie-break);
2. the best individual rank among the counted players (the school with the better player);
3. nothing more: the schools share the rank (shown ``2=``), listed by name.

A school with fewer than N players counts the players it has. A withdrawn player still counts
for the rounds played. Players without a school are no team.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cmp_to_key

from controller.rules.values import Sqrt2

from .damath_scores import ZERO, cmp
from .standings import Standing


@dataclass(frozen=True)
class TeamStanding:
    school: str
    points: Fraction
    score_diff: Sqrt2
    best_rank: int
    counted: tuple[Standing, ...]
    """The players whose points count, best first."""
    others: tuple[Standing, ...]
    """The school's other players (their points do not count)."""
    rank: int = 0
    shared: bool = False


def team_standings(table: Sequence[Standing], size: int) -> list[TeamStanding]:
    """The schools of one division ranked; ``size`` 0: no team ranking (an empty list)."""
    if size <= 0:
        return []
    schools: dict[str, list[Standing]] = {}
    for s in table:  # already in the order of the individual standings
        school = " ".join(s.player.school.split())
        if school:
            schools.setdefault(school.casefold(), []).append(s)
    teams = []
    for players in schools.values():
        counted, others = tuple(players[:size]), tuple(players[size:])
        diff = ZERO
        for s in counted:
            diff = diff + _own_diff(s)
        teams.append(
            TeamStanding(
                school=" ".join(players[0].player.school.split()),
                points=sum((s.points for s in counted), Fraction(0)),
                score_diff=diff,
                best_rank=min(s.rank for s in counted),
                counted=counted,
                others=others,
            )
        )
    teams.sort(key=lambda t: t.school.casefold())
    return _ranked(teams)


def _own_diff(s: Standing) -> Sqrt2:
    """The player's Damath score difference over their games (the event may not rank by it)."""
    total = ZERO
    for r in s.rounds:
        if r.own_score is not None and r.their_score is not None:
            total = total + (r.own_score - r.their_score)
    return total


def _key_cmp(a: TeamStanding, b: TeamStanding) -> int:
    """Better first: points, then score difference, then the best individual rank."""
    if a.points != b.points:
        return -1 if a.points > b.points else 1
    c = cmp(a.score_diff, b.score_diff)
    if c:
        return -c
    return (a.best_rank > b.best_rank) - (a.best_rank < b.best_rank)


def _ranked(teams: list[TeamStanding]) -> list[TeamStanding]:
    ordered = sorted(teams, key=cmp_to_key(_key_cmp))  # stable: tied schools stay by name
    out: list[TeamStanding] = []
    rank = 1
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and _key_cmp(ordered[i], ordered[j + 1]) == 0:
            j += 1
        shared = j > i
        out += [replace(t, rank=rank, shared=shared) for t in ordered[i : j + 1]]
        rank += j - i + 1
        i = j + 1
    return out
