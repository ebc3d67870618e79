"""Which LED(s) sit under each playable square, from how the chain is laid out.

The chain is described in its own frame: it runs along chain rows 0..7, left to right (right to
left on odd rows when serpentine), with an LED under every square ("all") or only under the
playable ones ("playable"), `per_square` LEDs in a row under each, starting at LED `offset`. That
frame is mirrored (chain x -> 7 - x) if asked, then turned by `rotation` degrees onto the board:
90 puts chain (cx, cy) at board (7 - cy, cx), 180 at (7 - cx, 7 - cy), 270 at (cy, 7 - cx).
"""

from __future__ import annotations

from drivers.occupancy import Square
from firmware.squares import dark_square

ROTATIONS = (0, 90, 180, 270)


GRIDS = ("dark-squares", "points")
"""Where a board's sensors sit: under the dark squares of a draughts board, or at every point of
a grid (Mathematical Chess's 9 x 9 points)."""


def playable_squares(size: int = 8) -> frozenset[Square]:
    """The dark squares of a size x size board (8 x 8 Damath: 32, 12 x 12 Dam: 72)."""
    return frozenset(dark_square(i, size) for i in range(size * size // 2))


def board_cells(size: int = 8, grid: str = "dark-squares") -> frozenset[Square]:
    """Every place of the board that has a sensor and an LED: its dark squares, or its points."""
    if grid == "points":
        return frozenset((x, y) for y in range(size) for x in range(size))
    return playable_squares(size)


def chain_to_board(cx: int, cy: int, rotation: int, mirror: bool, size: int = 8) -> Square:
    last = size - 1
    if mirror:
        cx = last - cx
    if rotation == 0:
        return (cx, cy)
    if rotation == 90:
        return (last - cy, cx)
    if rotation == 180:
        return (last - cx, last - cy)
    if rotation == 270:
        return (cy, last - cx)
    raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")


def layout_map(
    cells: str = "playable",
    serpentine: bool = False,
    rotation: int = 0,
    mirror: bool = False,
    per_square: int = 1,
    offset: int = 0,
    size: int = 8,
    grid: str = "dark-squares",
) -> dict[Square, tuple[int, ...]]:
    """-> {square: LED indices} for every playable square (or point) of a size x size board."""
    if cells not in ("playable", "all"):
        raise ValueError(f'cells must be "playable" or "all", not {cells!r}')
    playable = board_cells(size, grid)
    mapping: dict[Square, tuple[int, ...]] = {}
    index = offset
    for cy in range(size):
        xs = range(size - 1, -1, -1) if serpentine and cy % 2 else range(size)
        for cx in xs:
            square = chain_to_board(cx, cy, rotation, mirror, size)
            if square in playable:
                mapping[square] = tuple(range(index, index + per_square))
            elif cells == "playable":
                continue
            index += per_square
    return mapping
