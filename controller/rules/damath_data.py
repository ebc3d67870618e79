"""The Damath board as data, defined once (RULES.md §1–2): the operator grid and the seven
placements. Everything else (engine, scorer, audit, view, simulator) reads it from here."""

from __future__ import annotations

from .move import Square
from .profiles import PROFILES as _PROFILES

SIZE = 8

# Operators by row, y = 0 .. 3; rows y and y + 4 are identical (RULES.md §1).
# Written with the signs a player writes: + − × ÷ (U+2212 for minus, U+00D7, U+00F7).
PLUS, MINUS, TIMES, DIVIDE = "+", "−", "×", "÷"
OPERATORS_ASCII = {PLUS: "+", MINUS: "-", TIMES: "x", DIVIDE: "/"}

_ROWS = (
    {1: PLUS, 3: MINUS, 5: DIVIDE, 7: TIMES},  # y = 0
    {0: MINUS, 2: PLUS, 4: TIMES, 6: DIVIDE},  # y = 1
    {1: DIVIDE, 3: TIMES, 5: PLUS, 7: MINUS},  # y = 2
    {0: TIMES, 2: DIVIDE, 4: MINUS, 6: PLUS},  # y = 3
)

OPERATORS: dict[Square, str] = {
    (x, y): _ROWS[y % 4][x] for y in range(SIZE) for x in range(SIZE) if (x + y) % 2 == 1
}
"""The operator of every playable square."""


def operator_at(square: Square) -> str:
    return OPERATORS[square]


def is_playable(square: Square) -> bool:
    x, y = square
    return 0 <= x < SIZE and 0 <= y < SIZE and (x + y) % 2 == 1


# Blue's squares in the order of the table in RULES.md §2; Red's are these rotated 180 degrees.
BLUE_SQUARES: tuple[Square, ...] = (
    (1, 2), (3, 2), (5, 2), (7, 2),
    (0, 1), (2, 1), (4, 1), (6, 1),
    (1, 0), (3, 0), (5, 0), (7, 0),
)  # fmt: skip
RED_SQUARES: tuple[Square, ...] = tuple((7 - x, 7 - y) for x, y in BLUE_SQUARES)

# Dama squares: where a chip is promoted when its move ends there (RULES.md §3).
DAMA_SQUARES: tuple[tuple[Square, ...], tuple[Square, ...]] = (
    ((0, 7), (2, 7), (4, 7), (6, 7)),  # Blue promotes on Red's back row
    ((1, 0), (3, 0), (5, 0), (7, 0)),  # Red promotes on Blue's back row
)

# The chip labels of each variant, as printed, in the order of BLUE_SQUARES (RULES.md §2).
PLACEMENTS: dict[str, tuple[str, ...]] = {
    "counting": ("10", "7", "2", "5", "1", "4", "11", "8", "12", "9", "6", "3"),
    "whole": ("9", "6", "1", "4", "0", "3", "10", "7", "11", "8", "5", "2"),
    "integer": ("-9", "6", "-1", "4", "0", "-3", "10", "-7", "-11", "8", "-5", "2"),
    "fraction": (
        "10/10", "7/10", "2/10", "5/10", "1/10", "4/10",
        "11/10", "8/10", "12/10", "9/10", "6/10", "3/10",
    ),
    "rational": (
        "-9/10", "6/10", "-1/10", "4/10", "0", "-3/10",
        "10/10", "-7/10", "-11/10", "8/10", "-5/10", "2/10",
    ),
    "radical": (
        "-9√2", "-√8", "4√18", "16√32", "-49√8", "-25√18",
        "36√32", "64√2", "-121√18", "-81√32", "100√2", "144√8",
    ),
    "polynomial": (
        "-3x²y", "-xy²", "6x", "10y", "-21xy²", "-15x",
        "28y", "36x²y", "-55x", "-45y", "66x²y", "78xy²",
    ),
}  # fmt: skip

VARIANTS: tuple[str, ...] = tuple(PLACEMENTS)

# The kind of number each variant's chips carry; it decides parsing, arithmetic and rounding.
VALUE_KINDS: dict[str, str] = {
    "counting": "integer",
    "whole": "integer",
    "integer": "integer",
    "fraction": "fraction",
    "rational": "fraction",
    "radical": "radical",
    "polynomial": "polynomial",
}

PROFILES: tuple[str, ...] = tuple(_PROFILES)
"""The rule profiles' names; the profiles themselves are data in ``profiles``."""
