"""The scoresheet of a game of Mathematical Chess: each turn with its move and removals, each
removal with its rule, the pieces it took, the arithmetic that allowed it, and its points
(C-11: 2 for an operator, 1 for a digit). Built from the game's own positions, so it says
exactly what the rules said at the time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.i18n import _
from controller.rules.mathchess import (
    SIDES,
    Done,
    MathChessGame,
    Move,
    Pass,
    Place,
    Point,
    Position,
    Remove,
    point_text,
)


def points_of(symbols: tuple[str, ...] | list[str]) -> int:
    """C-11: 2 for every operator taken, 1 for every digit."""
    return sum(1 if s.isdigit() else 2 for s in symbols)


@dataclass
class Removal:
    rule: str
    points: tuple[Point, ...]
    pieces: tuple[str, ...]
    arithmetic: tuple[str, ...]
    """The matches that allowed it (``6 + 9 = 15 and 5: last digits 5 = 5``); for a move that
    takes by itself, the taking."""

    @property
    def score(self) -> int:
        return points_of(self.pieces)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "points": [list(p) for p in self.points],
            "pieces": list(self.pieces),
            "arithmetic": list(self.arithmetic),
            "score": self.score,
        }


@dataclass
class SheetTurn:
    number: int
    side: int
    text: str
    removals: list[Removal] = field(default_factory=list)

    @property
    def score(self) -> int:
        return sum(r.score for r in self.removals)

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "side": SIDES[self.side],
            "text": self.text,
            "removals": [r.as_json() for r in self.removals],
            "score": self.score,
        }


def _explain(before: Position, points: frozenset[Point]) -> tuple[str, ...]:
    return tuple(m.text() for m in before.removal_options() if points & frozenset(m.removable))


def sheet_turns(game: MathChessGame) -> list[SheetTurn]:
    """Every turn of Play now! and Prepare now!, in order, with its removals explained."""
    out: list[SheetTurn] = []
    current: SheetTurn | None = None
    for before, action in zip(game.positions, game.actions, strict=False):
        side = before.to_move
        if isinstance(action, Place | Pass):
            text = action.text() if isinstance(action, Place) else _("pass")
            out.append(SheetTurn(len(out) + 1, side, text))
            current = None
            continue
        if isinstance(action, Done):
            current = None
            continue
        if current is None:
            current = SheetTurn(len(out) + 1, side, "")
            out.append(current)
        if isinstance(action, Move):
            move = before.find_move(action)
            current.text = move.text()
            if move.rule is not None:
                taken = before.board.at(move.end)
                symbol = taken.symbol if taken is not None else "?"
                how = _("the move takes {piece} on {point}").format(
                    piece=symbol, point=point_text(move.end)
                )
                current.removals.append(Removal(move.rule, (move.end,), (symbol,), (how,)))
        elif isinstance(action, Remove):
            pts = tuple(sorted(action.points))
            pieces = tuple(p.symbol for p in (before.board.at(x) for x in pts) if p is not None)
            current.removals.append(
                Removal(
                    before.step_rule(action.points),
                    pts,
                    pieces,
                    _explain(before, action.points),
                )
            )
            if not current.text:
                current.text = _("removal without moving")
    return out


def sheet_json(game: MathChessGame) -> dict[str, Any]:
    """The sheet for a page. ``score`` is the rules' (C-11: every piece missing from a side's
    box counts as taken); ``start_score`` what a game set up from a position began with."""
    ending = game.position.ending()
    return {
        "turns": [t.as_json() for t in sheet_turns(game)],
        "score": list(game.position.score()),
        "start_score": list(game.start.score()),
        "result": game.result(),
        "ending": ending.describe() if ending is not None else None,
    }


def sheet_text(game: MathChessGame) -> str:
    """The sheet as plain text: one line per turn, one indented line per removal."""
    lines = []
    for turn in sheet_turns(game):
        lines.append(f"{turn.number:3}. {SIDES[turn.side]:5} {turn.text}")
        for r in turn.removals:
            where = ",".join(point_text(p) for p in r.points)
            lines.append(
                f"       {r.rule} {where} {' '.join(r.pieces)} +{r.score}"
                + (f"  [{'; '.join(r.arithmetic)}]" if r.arithmetic else "")
            )
    white, black = game.position.score()
    lines.append(
        _("score: white {white}, black {black}; result {result}").format(
            white=white, black=black, result=game.result()
        )
    )
    return "\n".join(lines) + "\n"
