"""The 32 playable squares and their bit numbers. Shared by the Pi and the RP2040.

A square is (x, y): x = column 0..7, y = row 0..7 from Blue's side; playable iff (x + y) is odd.
Bit i of an occupancy mask is square i, numbered row by row from Blue's side: i = 4 * y + x // 2.
The sensor matrix is wired to match: matrix row r is board row y, matrix column c is x // 2.
"""

COUNT = 32
ROWS = 8
COLUMNS = 4


def index_of(x: int, y: int) -> int:
    """(x, y) -> bit number 0..31; ValueError for a square that is not playable."""
    if not (0 <= x < 8 and 0 <= y < 8) or (x + y) % 2 != 1:
        raise ValueError("not a playable square: " + repr((x, y)))
    return 4 * y + x // 2


def square_of(index: int) -> tuple[int, int]:
    """bit number 0..31 -> (x, y)"""
    if not 0 <= index < COUNT:
        raise ValueError("square index out of range: " + repr(index))
    y = index // 4
    c = index % 4
    return (2 * c + (1 - y % 2), y)


PLAYABLE = tuple(square_of(i) for i in range(COUNT))
