"""The pieces: digits 0–9 and the six operators, each belonging to White (side 0) or Black."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

WHITE = 0
BLACK = 1
SIDES = ("white", "black")


class Op(Enum):
    ADD = "+"
    SUB = "−"
    MUL = "×"
    DIV = "÷"
    POW = "P"
    ROOT = "R"


OP_NAMES = {
    Op.ADD: "addition",
    Op.SUB: "subtraction",
    Op.MUL: "multiplication",
    Op.DIV: "division",
    Op.POW: "power",
    Op.ROOT: "root",
}

ALIASES = {
    "+": Op.ADD,
    "-": Op.SUB,
    "−": Op.SUB,
    "–": Op.SUB,
    "x": Op.MUL,
    "X": Op.MUL,
    "*": Op.MUL,
    "×": Op.MUL,
    "/": Op.DIV,
    ":": Op.DIV,
    "÷": Op.DIV,
    "P": Op.POW,
    "p": Op.POW,
    "^": Op.POW,
    "R": Op.ROOT,
    "r": Op.ROOT,
    "√": Op.ROOT,
}
"""What a person may type for an operator; the engine writes the first column's signs."""

DIGITS = tuple(str(d) for d in range(10))


class PieceError(ValueError):
    """Text that names no piece; the message lists what does."""


def symbol(text: str) -> str:
    """The canonical symbol of a piece: ``"0"``–``"9"`` or an operator's sign."""
    raw = text.strip() if isinstance(text, str) else text
    if raw in DIGITS:
        return str(raw)
    if isinstance(raw, str) and raw in ALIASES:
        return ALIASES[raw].value
    raise PieceError(
        f"{text!r} is not a piece: digits are 0 to 9, operators + - x / P (power) R (root)"
    )


@dataclass(frozen=True, slots=True)
class Piece:
    side: int
    symbol: str

    @property
    def is_digit(self) -> bool:
        return self.symbol in DIGITS

    @property
    def digit(self) -> int:
        return int(self.symbol)

    @property
    def op(self) -> Op:
        return Op(self.symbol)

    def name(self) -> str:
        """``white 7`` or ``black addition``: how a page or a message names the piece."""
        what = self.symbol if self.is_digit else OP_NAMES[self.op]
        return f"{SIDES[self.side]} {what}"


def digit(side: int, value: int) -> Piece:
    return Piece(side, str(value))


def operator(side: int, op: Op) -> Piece:
    return Piece(side, op.value)
