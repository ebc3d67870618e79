"""How good a draughts position is, in men, exact: material (a king worth more, by each game's
rules), advancement of the men, the centre, and the back rank kept as a guard.

The weights are data (``Weights``), each game bringing its own in its folder; they are turned
once into whole-number tables over the board's squares (``Tables``), so an evaluation is a sum of
lookups and one exact fraction.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm

from controller.rules.geometry import geometry
from controller.rules.movegen import KING, MAN


@dataclass(frozen=True)
class Weights:
    """What a position's parts are worth, in men."""

    king: Fraction
    """A king: more where it flies (Dam) or where men cannot take it (Italian)."""
    advance: Fraction
    """Per row a man has come from its own back row (nearer to becoming a king)."""
    centre: Fraction
    """A piece on one of the central squares (it reaches both wings)."""
    guard: Fraction
    """A man still on its own back row (it keeps the other side's men from crowning)."""


@dataclass(frozen=True)
class Tables:
    """Whole-number worths by square (over ``denominator``), for side 0's pieces; side 1's are
    the same tables read from the other end of the board."""

    man: tuple[tuple[int, ...], tuple[int, ...]]
    king: tuple[int, ...]
    denominator: int


@cache
def tables(weights: Weights, size: int, parity: int) -> Tables:
    """The weights as lookups on a ``size`` × ``size`` board."""
    den = lcm(
        *(w.denominator for w in (weights.king, weights.advance, weights.centre, weights.guard))
    )
    geo = geometry(size, parity)
    low, high = size // 2 - 2, size // 2 + 1  # the central four columns and rows

    def whole(value: Fraction) -> int:
        return int(value * den)

    men: list[tuple[int, ...]] = []
    for side in (0, 1):
        row: list[int] = []
        for x, y in geo.squares:
            came = y if side == 0 else size - 1 - y
            worth = 1 + weights.advance * came
            if low <= x <= high and low <= y <= high:
                worth += weights.centre
            if came == 0:
                worth += weights.guard
            row.append(whole(worth))
        men.append(tuple(row))
    kings = tuple(
        whole(weights.king + (weights.centre if low <= x <= high and low <= y <= high else 0))
        for x, y in geo.squares
    )
    return Tables((men[0], men[1]), kings, den)


def evaluate(cells: tuple[int, ...], side: int, table: Tables) -> Fraction:
    """The position's worth for ``side`` (the side to move), in men."""
    man0, man1 = table.man
    king = table.king
    total = 0
    for sq, c in enumerate(cells):
        if c == MAN:
            total += man0[sq]
        elif c == -MAN:
            total -= man1[sq]
        elif c == KING:
            total += king[sq]
        elif c == -KING:
            total -= king[sq]
    return Fraction(total if side == 0 else -total, table.denominator)
