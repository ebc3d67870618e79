"""Standings and the crosstable of one division: points, then the event's tie-breaks in order.

A pure function of the players, pairings and current results, so the wall, the pages, the
command line and the exports cannot disagree. Tie-breaks on Damath scores compare exact values
(``a + b√2``, rationals included) with the rules engine's ``compare``: never a rounded float.

Unplayed rounds (a bye, a forfeit, a round missed or before a late entry, after a withdrawal)
follow the idea of the FIDE tie-break regulations (2023, article 16): for an opponent's
Buchholz each of their unplayed rounds counts as a draw; a player's own unplayed round counts
as a "dummy" opponent with the player's own points.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cmp_to_key

from controller.rules.values import Sqrt2

from .damath_scores import ZERO, as_exact, cmp
from .history import side_points
from .model import BLUE, DEFAULT_TIEBREAKS, RED, GameResult, Pairing, Player, Points

SHORT = {
    "score-diff": "Diff",
    "score-total": "Total",
    "buchholz": "Buch",
    "buchholz-cut1": "BuchC1",
    "sonneborn-berger": "SB",
    "direct": "DE",
    "wins": "Wins",
    "red-games": "Red",
}


@dataclass(frozen=True)
class Round:
    """One round as a player lived it."""

    round: int
    opponent: int | None
    colour: str | None  # BLUE / RED in a game (played or forfeited), None for a bye
    outcome: str  # win, draw, loss, forfeit-win, forfeit-loss, bye, absent, pending
    points: Fraction
    own_score: Sqrt2 | None = None
    their_score: Sqrt2 | None = None

    @property
    def played(self) -> bool:
        return self.outcome in ("win", "draw", "loss")

    @property
    def share(self) -> Fraction:
        """The round's result as a fraction of a win (for Sonneborn-Berger)."""
        return {"win": Fraction(1), "draw": Fraction(1, 2), "forfeit-win": Fraction(1)}.get(
            self.outcome, Fraction(0)
        )


@dataclass
class Standing:
    player: Player
    points: Fraction
    rounds: list[Round]
    tiebreaks: dict[str, Fraction | int | Sqrt2] = field(default_factory=dict)
    rank: int = 0
    shared: bool = False


def _outcome(result: GameResult | None, side: str) -> str:
    if result is None:
        return "pending"
    o = result.outcome
    if o == "bye":
        return "bye"
    if o == "draw":
        return "draw"
    if o in (BLUE, RED):
        return "win" if o == side else "loss"
    if o == "double-forfeit":
        return "forfeit-loss"
    return "forfeit-win" if o == f"{side}-forfeit" else "forfeit-loss"


def player_rounds(
    players: Iterable[Player],
    pairings: Sequence[Pairing],
    results: Mapping[int, GameResult],
    points: Points,
) -> dict[int, list[Round]]:
    """Each player's rounds, round by round; a round without a pairing is ``absent``."""
    last = max((p.round for p in pairings), default=0)
    out: dict[int, dict[int, Round]] = {p.id: {} for p in players}
    for p in pairings:
        r = results.get(p.id)
        if p.is_bye:
            if p.blue in out:
                got = points.bye if r is None or r.outcome == "bye" else Fraction(0)
                out[p.blue][p.round] = Round(p.round, None, None, "bye", got)
            continue
        for me, side, other in ((p.blue, BLUE, p.red), (p.red, RED, p.blue)):
            if me not in out:
                continue
            own = their = None
            if r is not None and r.blue_score is not None:
                own, their = (
                    (r.blue_score, r.red_score)
                    if side == BLUE
                    else (
                        r.red_score,
                        r.blue_score,
                    )
                )
            got = side_points(r, side, points) if r is not None else Fraction(0)
            out[me][p.round] = Round(p.round, other, side, _outcome(r, side), got, own, their)
    return {
        pid: [rs.get(n, Round(n, None, None, "absent", Fraction(0))) for n in range(1, last + 1)]
        for pid, rs in out.items()
    }


def _adjusted(rounds: list[Round], points: Points) -> Fraction:
    """A player's points for an opponent's Buchholz: every unplayed round as a draw."""
    return sum(
        (r.points if r.played else points.draw for r in rounds if r.outcome != "pending"),
        Fraction(0),
    )


def _opponent_values(
    pid: int, rounds: dict[int, list[Round]], points: Points
) -> list[tuple[Fraction, Fraction]]:
    own = sum((r.points for r in rounds[pid]), Fraction(0))
    values = []
    for r in rounds[pid]:
        if r.outcome == "pending":
            continue
        if r.played and r.opponent in rounds:
            values.append((_adjusted(rounds[r.opponent], points), r.share))
        else:
            # the dummy opponent: the player's own points; a bye's share is what it scored
            share = r.points / points.win if r.outcome == "bye" else r.share
            values.append((own, share))
    return values


Value = Fraction | int | Sqrt2


def individual(tb: str, pid: int, rounds: dict[int, list[Round]], points: Points) -> Value:
    """The value of one tie-break that does not depend on who else is tied."""
    mine = rounds[pid]
    if tb in ("score-diff", "score-total"):
        total = ZERO
        for r in mine:
            if r.own_score is not None and r.their_score is not None:
                total = total + (r.own_score - r.their_score if tb == "score-diff" else r.own_score)
        return total
    if tb in ("buchholz", "buchholz-cut1"):
        values = sorted(v for v, _ in _opponent_values(pid, rounds, points))
        if tb == "buchholz-cut1" and values:
            values = values[1:]
        return sum(values, Fraction(0))
    if tb == "sonneborn-berger":
        return sum((v * s for v, s in _opponent_values(pid, rounds, points)), Fraction(0))
    if tb == "wins":
        return sum(1 for r in mine if r.outcome == "win")
    if tb == "red-games":
        return sum(1 for r in mine if r.played and r.colour == RED)
    raise ValueError(tb)


def _direct(group: list[Standing]) -> dict[int, Fraction]:
    ids = {s.player.id for s in group}
    met: set[frozenset[int]] = set()
    got = {pid: Fraction(0) for pid in ids}
    for s in group:
        for r in s.rounds:
            if r.opponent in ids and r.outcome in ("win", "draw", "loss"):
                met.add(frozenset((s.player.id, r.opponent)))
                got[s.player.id] += r.points
    everyone_met = len(met) == len(ids) * (len(ids) - 1) // 2
    return got if everyone_met else {pid: Fraction(0) for pid in ids}


def _cmp(x: Value, y: Value) -> int:
    if isinstance(x, Sqrt2) or isinstance(y, Sqrt2):
        return cmp(as_exact(x), as_exact(y))
    return (x > y) - (x < y)


def standings(
    players: Sequence[Player],
    pairings: Sequence[Pairing],
    results: Mapping[int, GameResult],
    points: Points,
    order: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """Ranked standings: points, then each tie-break in ``order`` splits what is still tied;
    players tied on everything share a rank (listed by name)."""
    rounds = player_rounds(players, pairings, results, points)
    table = [
        Standing(p, sum((r.points for r in rounds[p.id]), Fraction(0)), rounds[p.id])
        for p in players
    ]
    for s in table:
        for tb in order:
            if tb != "direct":
                s.tiebreaks[tb] = individual(tb, s.player.id, rounds, points)
    groups = _sorted_split(table, None)
    for tb in order:
        refined = []
        for g in groups:
            if len(g) == 1:
                refined.append(g)
                continue
            if tb == "direct":
                values = _direct(g)
                for s in g:
                    s.tiebreaks["direct"] = values[s.player.id]
            refined.extend(_sorted_split(g, tb))
        groups = refined
    out, rank = [], 1
    for g in groups:
        for s in sorted(g, key=lambda s: (s.player.name.casefold(), s.player.id)):
            s.rank, s.shared = rank, len(g) > 1
            out.append(s)
        rank += len(g)
    if "direct" in order:  # 0 where nobody was tied with the player
        for s in out:
            s.tiebreaks.setdefault("direct", Fraction(0))
    return out


def _sorted_split(group: list[Standing], tb: str | None) -> list[list[Standing]]:
    """Best first, split where the points (``tb`` None) or the tie-break differ."""

    def key(s: Standing) -> Value:
        return s.points if tb is None else s.tiebreaks[tb]

    def order(a: Standing, b: Standing) -> int:
        return _cmp(key(b), key(a))

    ordered = sorted(group, key=cmp_to_key(order))
    out: list[list[Standing]] = []
    for s in ordered:
        if out and _cmp(key(out[-1][0]), key(s)) == 0:
            out[-1].append(s)
        else:
            out.append([s])
    return out
