"""The vocabulary of a move: a chip, one taking, and a move as its full path (RULES.md D-5).

These are plain frozen records so that the tracker, the scorer, the journal and the simulator
can hold and compare them without knowing how the move generator works.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Square = tuple[int, int]
"""A square as ``(x, y)``: column left to right, row from the first mover's side (RULES.md §1)."""

BLUE = 0
RED = 1
SIDE_NAMES = ("blue", "red")


def side_name(side: int) -> str:
    return SIDE_NAMES[side]


def side_from_name(name: str) -> int:
    """Accepts the Damath names and the draughts names (first mover / second mover)."""
    key = name.strip().lower()
    if key in ("blue", "b0", "first", "white", "w"):
        return BLUE
    if key in ("red", "b1", "second", "black", "b"):
        return RED
    raise ValueError(f"unknown side {name!r}: expected 'blue' or 'red'")


@dataclass(frozen=True, slots=True)
class Chip:
    """A chip as it stands on the board. ``value`` is an exact value from ``values`` (or None
    in the plain draughts games, whose men carry no number)."""

    side: int
    value: Any = None
    dama: bool = False


@dataclass(frozen=True, slots=True)
class Taking:
    """One taking inside a move, everything the scorer needs (RULES.md §4).

    ``square`` is the landing square after jumping ``taken``: its operator is the operation.
    ``multiplier`` is 2 when exactly one of the two chips is a dama, 4 when both are.
    """

    taker: Chip
    taken: Chip
    taken_square: Square
    square: Square
    operator: str
    multiplier: int


@dataclass(frozen=True, slots=True)
class Move:
    """A move is its full path: start, every landing square, end (RULES.md D-5).

    ``captures`` lists the jumped squares in the order they were taken.
    ``chip`` is the chip that moves, as it stood before the move; ``takings`` is filled for
    Damath and empty for the plain draughts games. Neither takes part in equality: a move is
    identified by its path alone.
    """

    path: tuple[Square, ...]
    captures: tuple[Square, ...] = ()
    promotes: bool = False
    chip: Chip | None = field(default=None, compare=False)
    takings: tuple[Taking, ...] = field(default=(), compare=False)

    @property
    def start(self) -> Square:
        return self.path[0]

    @property
    def end(self) -> Square:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def __str__(self) -> str:
        sep = "x" if self.captures else "-"
        return sep.join(f"({x},{y})" for x, y in self.path)
