"""Hand-built chips and takings for scoring tests (no move generator needed)."""

from __future__ import annotations

from controller.rules.damath_data import OPERATORS, VALUE_KINDS
from controller.rules.move import BLUE, RED, Chip, Move, Square, Taking
from controller.rules.values import parse_value


def chip(label: str, variant: str, side: int = BLUE, dama: bool = False) -> Chip:
    return Chip(side, parse_value(label, VALUE_KINDS[variant]), dama)


def taking(
    variant: str,
    taker: str,
    taken: str,
    square: Square,
    taker_dama: bool = False,
    taken_dama: bool = False,
    side: int = BLUE,
) -> Taking:
    """A taking landing on ``square``, its operator read from the board, multiplier from the
    damas (RULES.md §4)."""
    a = chip(taker, variant, side, taker_dama)
    b = chip(taken, variant, 1 - side, taken_dama)
    mult = 4 if taker_dama and taken_dama else 2 if taker_dama or taken_dama else 1
    return Taking(a, b, (0, 0), square, OPERATORS[square], mult)


def plain_move(variant: str, label: str, start: Square, end: Square, side: int = BLUE) -> Move:
    return Move((start, end), chip=chip(label, variant, side))


def take_move(variant: str, side: int, takings: list[Taking], start: Square) -> Move:
    path = (start, *(t.square for t in takings))
    return Move(path, tuple(t.taken_square for t in takings), chip=takings[0].taker,
                takings=tuple(takings))  # fmt: skip


__all__ = ["BLUE", "RED", "chip", "plain_move", "take_move", "taking"]
