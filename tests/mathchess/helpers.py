"""Positions of Mathematical Chess written the way the seed's figures would show them: a line
of tokens (``w6 b9 . w+ b5``: side then piece, ``.`` an empty point) on a row or a column."""

from __future__ import annotations

from typing import Any

from controller.rules.mathchess import (
    DEFAULT,
    Move,
    Piece,
    Point,
    Position,
    Remove,
    own_level,
)
from controller.rules.mathchess.board import Board
from controller.rules.mathchess.pieces import symbol

FULL = own_level({"+": 4, "-": 4, "x": 4, "/": 4, "P": 4, "R": 4}, zero=True, digits=10)
"""A box that holds every piece the seed's examples use."""

CORNERS = {(0, 0): (0, "op"), (8, 0): (0, "digit"), (0, 8): (1, "op"), (8, 8): (1, "digit")}
"""Where each side gets a spare operator and a spare digit, so that no example ends the game by
its removals: corners, whose lines the examples keep clear of."""


def piece(token: str) -> Piece:
    side = {"w": 0, "b": 1}[token[0].lower()]
    return Piece(side, symbol(token[1:]))


def row(y: int, text: str, x0: int = 0) -> dict[Point, Piece]:
    return {(x0 + i, y): piece(t) for i, t in enumerate(text.split()) if t != "."}


def col(x: int, text: str, y0: int = 0) -> dict[Point, Piece]:
    """Tokens from the bottom (low ``y``) up."""
    return {(x, y0 + i): piece(t) for i, t in enumerate(text.split()) if t != "."}


def position(
    *parts: dict[Point, Piece], to_move: str = "white", fill: bool = True, **settings: Any
) -> Position:
    pieces: dict[Point, Piece] = {}
    for part in parts:
        pieces.update(part)
    if fill:
        for at, (side, kind) in CORNERS.items():
            mine = [p for p in pieces.values() if p.side == side]
            if at not in pieces:
                used = {p.symbol for p in mine}
                choice = (
                    "÷" if kind == "op" else next(str(d) for d in range(10) if str(d) not in used)
                )
                pieces[at] = Piece(side, choice)
    return Position(
        FULL,
        DEFAULT.with_settings(settings),
        Board.of(9, pieces),
        0 if to_move == "white" else 1,
        preparing=False,
    )


def after_move(pos: Position, start: Point, end: Point) -> Position:
    return pos.apply(Move(start, end))


def removable(pos: Position) -> set[Point]:
    return set(pos.removable())


def symbols(pos: Position, points: set[Point] | frozenset[Point]) -> list[str]:
    """The pieces on ``points`` as ``b9``, sorted: what a test compares with the seed's words."""
    out = []
    for p in points:
        found = pos.board.at(p)
        assert found is not None
        out.append(("w" if found.side == 0 else "b") + found.symbol)
    return sorted(out)


def texts(pos: Position) -> set[str]:
    return {m.text() for m in pos.removal_options()}


def remove(pos: Position, *points: Point) -> Position:
    return pos.apply(Remove(frozenset(points)))
