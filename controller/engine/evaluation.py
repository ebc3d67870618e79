"""The heuristic part of the evaluation: what the exact grand total does not see yet.

The evaluation of a position is the exact grand-total difference if the game ended now
(``Position.grand``: takings, remaining chips, damas doubled where the profile says so) plus
small terms for what the future is likely to bring: a chip near the far row is close to
becoming a dama (whose takings count double), a chip on its own back row guards the dama
squares, a dama's reach. They are per-square tables (like Scan's and Kingsrow's pattern
tables, kept tiny), updated incrementally by ``Position.make``.

Weights are in *ordinary takings* (``ScoreTables.typical``: the median score of one taking in
the variant), so one set of weights serves Integer Damath (a taking ≈ 10 points) as well as
Fraction (≈ 0.5) or Polynomial (≈ 1000).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from controller.rules import damath_data
from controller.rules.geometry import geometry

SQUARES = geometry(damath_data.SIZE).squares


@dataclass(frozen=True)
class EvalWeights:
    man_rows: tuple[float, ...] = (0.12, 0.0, 0.02, 0.05, 0.10, 0.18, 0.30, 0.0)
    """A chip by rows advanced from its own back row (0: guarding the dama squares)."""
    dama: float = 0.8
    """A dama's reach and its doubled takings, beyond what its remaining value counts."""
    dama_centre: float = 0.1
    """A dama on the two long diagonals sees most of the board."""


DEFAULT_WEIGHTS = EvalWeights()

_LONG_DIAGONALS = frozenset(
    [(x, 7 - x) for x in range(8)] + [(x, x + 1) for x in range(7)] + [(x + 1, x) for x in range(7)]
)


@cache
def square_table(weights: EvalWeights, typical: int) -> tuple[int, ...]:
    """``table[square * 5 + piece + 2]``: the heuristic key of ``piece`` (±1 a chip, ±2 a dama,
    Blue positive) on a dense square, Blue's point of view."""
    table = [0] * (len(SQUARES) * 5)
    for sq, (x, y) in enumerate(SQUARES):
        dama = weights.dama + (weights.dama_centre if (x, y) in _LONG_DIAGONALS else 0.0)
        table[sq * 5 + 3] = round(weights.man_rows[y] * typical)
        table[sq * 5 + 1] = -round(weights.man_rows[7 - y] * typical)
        table[sq * 5 + 4] = round(dama * typical)
        table[sq * 5 + 0] = -round(dama * typical)
    return tuple(table)
