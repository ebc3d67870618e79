"""The grid of points (C-1): pieces stand where lines cross, ``(x, y)``, ``x`` the column from
the left, ``y`` the row from White's side. A line is a whole row or a whole column."""

from __future__ import annotations

from collections.abc import Iterator

Point = tuple[int, int]

ROW = "row"
COLUMN = "column"
LINES = (ROW, COLUMN)

SIDES_OF_LINE = {ROW: ("left", "right"), COLUMN: ("below", "above")}
"""The names of an operator's two sides on each of its lines, the lower coordinate first."""

DIRECTIONS: tuple[Point, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))

SIZES = range(6, 13)
"""Board sizes a game may be set to (the seed suggests 6, 8, 9 and 10; 9 is the default)."""


def on_grid(point: Point, size: int) -> bool:
    return 0 <= point[0] < size and 0 <= point[1] < size


def ray(start: Point, direction: Point, size: int) -> Iterator[Point]:
    """The points from ``start`` (excluded) to the edge, in order."""
    x, y = start
    dx, dy = direction
    x, y = x + dx, y + dy
    while 0 <= x < size and 0 <= y < size:
        yield (x, y)
        x, y = x + dx, y + dy


def line_points(point: Point, line: str, size: int) -> list[Point]:
    """Every point of ``point``'s row or column, in increasing order."""
    x, y = point
    if line == ROW:
        return [(i, y) for i in range(size)]
    return [(x, i) for i in range(size)]


def half_rows(side: int, size: int) -> range:
    """A side's own half for placing (C-2): White the rows below the middle, Black those above;
    on an odd grid the middle row belongs to neither."""
    half = size // 2
    return range(0, half) if side == 0 else range(size - half, size)


def point_text(point: Point) -> str:
    return f"({point[0]},{point[1]})"
