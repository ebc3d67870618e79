"""Occupancy frames: which of the 32 playable squares hold a chip, and when that was seen."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware.squares import COUNT, PLAYABLE, index_of, square_of

Square = tuple[int, int]

__all__ = ["COUNT", "PLAYABLE", "OccupancyFrame", "Square", "mask_of", "squares_of"]


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
