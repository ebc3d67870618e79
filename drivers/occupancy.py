"""Occupancy frames: which of a board's squares (or points) hold a piece, and when that was seen;
and the masks they travel as (bit i = cell i: the 32 squares of 8 x 8 by default)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware.squares import COUNT, PLAYABLE, dark_index, dark_square, index_of, square_of

Square = tuple[int, int]

__all__ = ["COUNT", "PLAYABLE", "Layout", "OccupancyFrame", "Square", "mask_of", "squares_of"]


@dataclass(frozen=True)
class OccupancyFrame:
    """t: seconds on the injected monotonic clock; occupied: the squares holding a chip."""

    t: float
    occupied: frozenset[Square]


def squares_of(mask: int) -> frozenset[Square]:
    """Bit mask (bit i = square i, see firmware/squares.py) -> set of (x, y)."""
    return frozenset(square_of(i) for i in range(COUNT) if mask >> i & 1)


def mask_of(squares: Iterable[Square]) -> int:
    mask = 0
    for x, y in squares:
        mask |= 1 << index_of(x, y)
    return mask


@dataclass(frozen=True)
class Layout:
    """How a board's cells are numbered in a mask: the dark squares of a ``size`` x ``size``
    board (bit (size // 2) * y + x // 2, as on 8 x 8), or its points (bit size * y + x)."""

    size: int = 8
    grid: str = "dark-squares"

    @property
    def count(self) -> int:
        return self.size * self.size if self.grid == "points" else self.size * self.size // 2

    def index(self, cell: Square) -> int:
        x, y = cell
        if self.grid == "points":
            if not (0 <= x < self.size and 0 <= y < self.size):
                raise ValueError("not a point of the board: " + repr(cell))
            return self.size * y + x
        return dark_index(x, y, self.size)

    def cell(self, index: int) -> Square:
        if self.grid == "points":
            return (index % self.size, index // self.size)
        return dark_square(index, self.size)

    def encode(self, cells: Iterable[Square]) -> int:
        mask = 0
        for cell in cells:
            mask |= 1 << self.index(cell)
        return mask

    def decode(self, mask: int) -> frozenset[Square]:
        return frozenset(self.cell(i) for i in range(self.count) if mask >> i & 1)
