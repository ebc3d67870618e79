"""Moves along lines (R01) and the removals a move makes by itself (C-4: R02–R05).

Every piece moves like a rook: any distance along its row or column over empty points. A move
may end on an opposing piece and take it: an operator the first piece it meets (R02); a digit
alone on a line with one opposing digit (R03); one of two own operators (R04) or two own digits
(R05) jumping its partner to the first piece beyond.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .board import Board
from .grid import COLUMN, DIRECTIONS, ROW, Point, point_text, ray
from .pieces import Piece


@dataclass(frozen=True, slots=True)
class Move:
    start: Point
    end: Point
    rule: str | None = None
    """R02–R05 when the move takes the piece on ``end``; None for a move to an empty point."""
    over: Point | None = None
    """The partner jumped (R04, R05)."""

    def text(self) -> str:
        sep = "x" if self.rule else "-"
        return f"{point_text(self.start)}{sep}{point_text(self.end)}"


def piece_moves(board: Board, start: Point) -> list[Move]:
    piece = board.at(start)
    assert piece is not None
    out: list[Move] = []
    for direction in DIRECTIONS:
        path = ray(start, direction, board.size)
        for here in path:
            target = board.at(here)
            if target is None:
                out.append(Move(start, here))
                continue
            if target.side != piece.side:
                rule = _direct(board, start, piece, here, target)
                if rule:
                    out.append(Move(start, here, rule))
            elif target.is_digit == piece.is_digit:
                jump = _jump(board, piece, path)
                if jump is not None:
                    out.append(Move(start, jump[0], jump[1], here))
            break
    return out


def legal_moves(board: Board, player: int) -> list[Move]:
    out: list[Move] = []
    for start, piece in board.pieces():
        if piece.side == player:
            out.extend(piece_moves(board, start))
    return out


def _direct(board: Board, start: Point, piece: Piece, here: Point, target: Piece) -> str | None:
    """R02 for an operator meeting an opposing piece; R03 for a digit."""
    if not piece.is_digit:
        return None if target.symbol == piece.symbol else "R02"
    line = ROW if start[1] == here[1] else COLUMN
    alone = len(board.line_pieces(start, line)) == 2
    if alone and target.is_digit and target.symbol != piece.symbol:
        return "R03"
    return None


def _jump(board: Board, piece: Piece, path: Iterator[Point]) -> tuple[Point, str] | None:
    """R04/R05: past the partner, over empty points, to the first piece beyond."""
    for here in path:
        target = board.at(here)
        if target is None:
            continue
        if target.side == piece.side or target.symbol == piece.symbol:
            return None
        return here, ("R05" if piece.is_digit else "R04")
    return None


def why_not(board: Board, player: int, start: Point, end: Point) -> tuple[str, str]:
    """The rule a move that is not legal breaks, and why, in words a child can follow."""
    piece = board.at(start)
    if piece is None:
        return "R01", f"there is no piece on {point_text(start)}"
    if piece.side != player:
        return "R01", f"the {piece.name()} on {point_text(start)} is not yours"
    if start == end or (start[0] != end[0] and start[1] != end[1]):
        return "R01", "a piece moves along its row or its column"
    target = board.at(end)
    blockers = [p for p in _between(start, end) if board.at(p) is not None]
    if target is not None and target.side == player:
        return "R01", f"{point_text(end)} holds your own {target.symbol}"
    if target is None:
        where = point_text(blockers[0]) if blockers else point_text(end)
        return "R01", f"the way is blocked at {where}: a move passes over empty points only"
    what = target.name()
    kind = "operator" if not piece.is_digit else "digit"
    if not blockers:
        if not piece.is_digit:
            return "R02", f"an operator never takes an operator of its own kind ({what})"
        line = ROW if start[1] == end[1] else COLUMN
        if len(board.line_pieces(start, line)) == 2 and target.symbol == piece.symbol:
            return "R03", f"two digits of the same value never take each other ({what})"
        return "R03", (
            "a digit takes by moving only when it and one opposing digit are alone on their "
            "line (R03), or by jumping its own digit partner (R05)"
        )
    partner = board.at(blockers[0])
    assert partner is not None
    if len(blockers) == 1 and partner.side == player and partner.is_digit == piece.is_digit:
        rule = "R05" if piece.is_digit else "R04"
        same = "a digit of the same value" if piece.is_digit else "an operator of its own kind"
        return rule, f"a jumping {kind} never takes {same} ({what})"
    if not piece.is_digit:
        return "R02", (
            f"an operator takes only the first piece it meets; {point_text(blockers[0])} is in "
            "the way (it may jump one own operator next to it on the line, R04)"
        )
    return "R05", "a digit jumps only one own digit partner, to the first piece beyond"


def _between(a: Point, b: Point) -> list[Point]:
    """The points strictly between ``a`` and ``b``, in the order a piece moving from ``a``
    meets them (the first blocker named is the first one met)."""
    if a[0] == b[0]:
        step = 1 if b[1] > a[1] else -1
        return [(a[0], y) for y in range(a[1] + step, b[1], step)]
    step = 1 if b[0] > a[0] else -1
    return [(x, a[1]) for x in range(a[0] + step, b[0], step)]
