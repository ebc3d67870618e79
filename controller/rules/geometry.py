"""Board geometry shared by every draughts-like game: playable squares, their dense indices and
the diagonal rays from each square.

The move generator works on dense indices (0 .. n-1) so that a board is a flat list and a ray is
a precomputed tuple: speed comes from these tables, not from cleverness in callers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .move import Square

# Direction order is fixed: the first two point "up" (towards larger y), the last two "down".
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 1), (-1, 1), (1, -1), (-1, -1))
UP = (0, 1)
DOWN = (2, 3)


@dataclass(frozen=True)
class Geometry:
    """An n×n board whose playable squares are those with ``(x + y) % 2 == parity``.

    ``y = 0`` is the back row of the side that moves first; that side moves up.
    """

    size: int
    parity: int = 1
    squares: tuple[Square, ...] = field(init=False, repr=False)
    index: dict[Square, int] = field(init=False, repr=False, compare=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        squares = tuple(
            (x, y) for y in range(self.size) for x in range(self.size) if (x + y) % 2 == self.parity
        )
        index = {sq: i for i, sq in enumerate(squares)}
        rays = []
        for x, y in squares:
            per_dir = []
            for dx, dy in DIRECTIONS:
                ray = []
                cx, cy = x + dx, y + dy
                while 0 <= cx < self.size and 0 <= cy < self.size:
                    ray.append(index[(cx, cy)])
                    cx, cy = cx + dx, cy + dy
                per_dir.append(tuple(ray))
            rays.append(tuple(per_dir))
        object.__setattr__(self, "squares", squares)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "rays", tuple(rays))

    @property
    def count(self) -> int:
        return len(self.squares)

    def is_playable(self, square: Square) -> bool:
        return square in self.index

    def row(self, y: int) -> tuple[int, ...]:
        """Dense indices of the playable squares on row ``y``."""
        return tuple(i for i, (_, sy) in enumerate(self.squares) if sy == y)


@cache
def geometry(size: int, parity: int = 1) -> Geometry:
    """Geometries are immutable tables: build each one once."""
    return Geometry(size, parity)
