"""Matches around an operator (C-7, C-8): a partial value on one side and one on the other side
of the same line whose values compare equal (C-5), and who may use them to remove what.

The owner of the operator removes the opposing digits of the two partial values (R06, R07). A
player whose digit is in the match removes the opposing digits and the operator itself when it
is the opponent's (R09, R10). Which matches a player may use at a moment of the turn is the
``Scope``: the moved operator's, the moved digit's, or every one the board allows (R12).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .arithmetic import PartialValue, compare_text, key, partial_values
from .board import Board
from .grid import LINES, SIDES_OF_LINE, Point, point_text
from .pieces import Piece

ANY = "any"
OWN_OPERATORS = "own-operators"
OPERATOR = "operator"
DIGIT = "digit"
DIGIT_LINES = "digit-lines"
NONE = "none"


@dataclass(frozen=True, slots=True)
class Scope:
    """The matches a player may use now: ``any`` claimable match, only their ``own-operators``
    (C-7), those of the moved ``operator`` or of the moved ``digit`` on ``point``, those around
    the operators the moved digit is attached to (``digit-lines``), or ``none``."""

    kind: str
    point: Point | None = None


@dataclass(frozen=True, slots=True)
class Match:
    operator: Point
    piece: Piece
    line: str
    first: PartialValue
    """The partial value on the lower side (left of a row, below on a column)."""
    second: PartialValue
    key: int
    removable: tuple[Point, ...]
    rule: str
    compare: str

    @property
    def used(self) -> tuple[Point, ...]:
        return self.first.points + self.second.points

    def text(self) -> str:
        """``6 + 9 = 15 and 5: last digits 5 = 5``."""
        return (
            f"{self.first.text()} and {self.second.text()}: "
            f"{compare_text(self.first.value, self.second.value, self.compare)}"
        )

    def as_json(self, board: Board) -> dict[str, object]:
        lower, higher = SIDES_OF_LINE[self.line]
        return {
            "rule": self.rule,
            "operator": {
                "point": list(self.operator),
                "piece": self.piece.symbol,
                "side": self.piece.name().split()[0],
            },
            "line": self.line,
            lower: self.first.as_json(),
            higher: self.second.as_json(),
            "key": self.key,
            "compare": self.compare,
            "removable": [
                {"point": list(p), "piece": _piece(board, p).symbol} for p in self.removable
            ],
            "text": self.text(),
        }

    def describe(self, board: Board) -> str:
        """The match and what it removes, in a sentence."""
        taken = ", ".join(f"{_piece(board, p).name()} on {point_text(p)}" for p in self.removable)
        where = point_text(self.operator)
        return f"{self.rule} {self.piece.name()} on {where}: {self.text()}; removes {taken}"


def _piece(board: Board, point: Point) -> Piece:
    piece = board.at(point)
    assert piece is not None
    return piece


def find_matches(
    board: Board, player: int, scope: Scope, rule: str, compare: str, roots: str
) -> list[Match]:
    """Every match ``player`` may use within ``scope``, each with what it would remove."""
    if scope.kind == NONE:
        return []
    if scope.kind == OPERATOR:
        assert scope.point is not None
        operators = [scope.point]
    elif scope.kind in (DIGIT, DIGIT_LINES):
        assert scope.point is not None
        operators = [
            p
            for line in LINES
            for p in board.line_pieces(scope.point, line)
            if not _piece(board, p).is_digit
        ]
    else:
        operators = [p for p, piece in board.pieces() if not piece.is_digit]
    out: list[Match] = []
    for where in operators:
        opiece = _piece(board, where)
        own = opiece.side == player
        if scope.kind == OWN_OPERATORS and not own:
            continue
        for line in LINES:
            out.extend(
                _line_matches(board, player, scope, where, opiece, own, line, rule, compare, roots)
            )
    return out


def _line_matches(
    board: Board,
    player: int,
    scope: Scope,
    where: Point,
    opiece: Piece,
    own: bool,
    line: str,
    rule: str,
    compare: str,
    roots: str,
) -> list[Match]:
    lower, higher = board.attached(where, line)
    if not lower or not higher:
        return []
    if scope.kind in (DIGIT, DIGIT_LINES) and scope.point not in lower + higher:
        return []
    op = opiece.op
    firsts = partial_values(op, lower, tuple(_piece(board, p).digit for p in lower), roots)
    seconds = partial_values(op, higher, tuple(_piece(board, p).digit for p in higher), roots)
    by_key: dict[int, list[PartialValue]] = defaultdict(list)
    for value in seconds:
        by_key[key(value.value, compare)].append(value)
    out: list[Match] = []
    seen: set[tuple[tuple[Point, ...], tuple[Point, ...], int, int]] = set()
    for first in firsts:
        k = key(first.value, compare)
        for second in by_key.get(k, ()):
            used = first.points + second.points
            if scope.kind == DIGIT and scope.point not in used:
                continue
            if not own and all(_piece(board, p).side != player for p in used):
                continue
            ident = (first.points, second.points, first.value, second.value)
            if ident in seen:
                continue
            seen.add(ident)
            removable = sorted({p for p in used if _piece(board, p).side != player})
            if not own:
                removable.append(where)
            if removable:
                out.append(
                    Match(where, opiece, line, first, second, k, tuple(removable), rule, compare)
                )
    return out
