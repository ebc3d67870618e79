"""The pieces on the points, as an immutable value: a position never changes in place, so a
game's history is its list of positions and undoing is exact."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .grid import COLUMN, ROW, Point, on_grid
from .pieces import Piece


@dataclass(frozen=True, slots=True)
class Board:
    size: int
    cells: tuple[Piece | None, ...]

    @classmethod
    def empty(cls, size: int) -> Board:
        return cls(size, (None,) * (size * size))

    @classmethod
    def of(cls, size: int, pieces: Mapping[Point, Piece]) -> Board:
        cells: list[Piece | None] = [None] * (size * size)
        for (x, y), piece in pieces.items():
            if not on_grid((x, y), size):
                raise ValueError(f"({x},{y}) is off a board of {size} lines")
            cells[y * size + x] = piece
        return cls(size, tuple(cells))

    def at(self, point: Point) -> Piece | None:
        return self.cells[point[1] * self.size + point[0]]

    def pieces(self) -> Iterator[tuple[Point, Piece]]:
        size = self.size
        for i, piece in enumerate(self.cells):
            if piece is not None:
                yield (i % size, i // size), piece

    def changed(self, changes: Mapping[Point, Piece | None]) -> Board:
        cells = list(self.cells)
        for (x, y), piece in changes.items():
            cells[y * self.size + x] = piece
        return Board(self.size, tuple(cells))

    def count(self, side: int) -> Counter[str]:
        return Counter(p.symbol for p in self.cells if p is not None and p.side == side)

    def attached(self, point: Point, line: str) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
        """The digits attached to the operator on ``point`` along ``line`` (C-6): the lower
        side (left or below) and the higher side (right or above), each in board order, up to
        the next operator or the edge; empty points and digits do not separate them."""
        x, y = point
        size = self.size
        lower: list[Point] = []
        higher: list[Point] = []
        for side, step in ((lower, -1), (higher, 1)):
            i = (x if line == ROW else y) + step
            while 0 <= i < size:
                here = (i, y) if line == ROW else (x, i)
                piece = self.at(here)
                if piece is not None:
                    if not piece.is_digit:
                        break
                    side.append(here)
                i += step
        lower.reverse()
        return tuple(lower), tuple(higher)

    def line_pieces(self, point: Point, line: str) -> list[Point]:
        x, y = point
        pts = (
            [(i, y) for i in range(self.size)]
            if line == ROW
            else [(x, i) for i in range(self.size)]
        )
        return [p for p in pts if self.at(p) is not None]


__all__ = ["COLUMN", "ROW", "Board"]
