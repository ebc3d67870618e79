"""What each player has done before a round: the facts a Swiss pairing and the colour rules need.

The pairing engine is stateless: from round 2 it must be told every player's score, colours,
floats, byes and past opponents (its README, "Caller responsibilities"). They are derived here
from the stored pairings and results, the way bbpPairings reads them from a FIDE TRF file:
only games actually played count for colours and for "never meet twice"; a pairing-allocated
bye and a forfeit win count as a downfloat; a round a player missed leaves no trace.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .model import BLUE, PLAYED, RED, GameResult, Pairing, Points, TournamentError


@dataclass
class PlayerHistory:
    id: int
    score: Fraction = Fraction(0)  # pairing score: a win 1, a draw ½ (the engine's scale)
    colours: list[str] = field(default_factory=list)  # played games only
    floats: list[str] = field(default_factory=list)  # "up" / "down" / "none" per round taken part
    byes: int = 0
    forfeit_wins: int = 0
    opponents: set[int] = field(default_factory=set)  # played games only


def pairing_points(result: GameResult, side: str, points: Points) -> Fraction:
    """Points in the engine's scale (a win is 1) so score groups keep their meaning whatever
    the event gives for a win."""
    return side_points(result, side, points) / points.win


def side_points(result: GameResult, side: str, points: Points) -> Fraction:
    """The event's points for ``side`` (BLUE or RED) in this result."""
    o = result.outcome
    if o == "bye":
        return points.bye if side == BLUE else Fraction(0)
    if o == "draw":
        return points.draw
    if o in ("blue", "red"):
        return points.win if o == side else points.loss
    if o == "double-forfeit":
        return points.forfeit_loss
    return points.forfeit_win if o == f"{side}-forfeit" else points.forfeit_loss


def histories(
    players: Iterable[int],
    pairings: Iterable[Pairing],
    results: Mapping[int, GameResult],
    points: Points,
    before_round: int,
) -> dict[int, PlayerHistory]:
    """Every player's history over rounds ``1 .. before_round - 1``. A game of those rounds
    without a result stops here: the next round cannot be paired on a guess."""
    out = {pid: PlayerHistory(pid) for pid in players}
    by_round: dict[int, list[Pairing]] = {}
    for p in pairings:
        if p.round < before_round:
            by_round.setdefault(p.round, []).append(p)
    for rnd in sorted(by_round):
        before = {pid: h.score for pid, h in out.items()}
        for p in sorted(by_round[rnd], key=lambda q: q.table):
            result = results.get(p.id)
            if result is None:
                if p.is_bye:
                    result = GameResult("bye")
                else:
                    raise TournamentError(
                        f"round {rnd}, table {p.table} has no result yet: "
                        f"record it before pairing round {before_round}"
                    )
            _apply(out, p, result, points, before)
    return out


def _apply(
    out: dict[int, PlayerHistory],
    p: Pairing,
    result: GameResult,
    points: Points,
    before: Mapping[int, Fraction],
) -> None:
    blue = out.get(p.blue)
    red = out.get(p.red) if p.red is not None else None
    if p.is_bye:
        if blue is not None:
            blue.score += pairing_points(result, BLUE, points)
            blue.byes += 1
            blue.floats.append("down")
        return
    played = result.outcome in PLAYED
    for me, side, other in ((blue, BLUE, p.red), (red, RED, p.blue)):
        if me is None:
            continue
        gained = pairing_points(result, side, points)
        me.score += gained
        if played and other is not None:
            me.colours.append(side)
            me.opponents.add(other)
            mine, theirs = before.get(me.id, Fraction(0)), before.get(other, Fraction(0))
            me.floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        elif gained >= 1:  # a forfeit win: an unplayed game worth a win
            me.forfeit_wins += 1
            me.floats.append("down")
        else:
            me.floats.append("none")
