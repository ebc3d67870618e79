"""The 32 playable squares and their bit numbers (and any even board's). Shared by the Pi and
the RP2040.

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


def dark_index(x: int, y: int, size: int) -> int:
    """The playable (dark) squares of any even board, numbered as on 8 x 8: (x, y) -> bit
    (size // 2) * y + x // 2; a 12 x 12 Dam board has 72 (hardware/dam-12x12.md)."""
    if not (0 <= x < size and 0 <= y < size) or (x + y) % 2 != 1:
        raise ValueError("not a playable square: " + repr((x, y)))
    return (size // 2) * y + x // 2


def dark_square(index: int, size: int) -> tuple[int, int]:
    """bit number -> (x, y) of a size x size board's playable squares"""
    half = size // 2
    if not 0 <= index < half * size:
        raise ValueError("square index out of range: " + repr(index))
    y = index // half
    return (2 * (index % half) + (1 - y % 2), y)
