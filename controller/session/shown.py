"""A move the board shows before it is made: the computer's move, or a hint.

The board lights the chip to lift, the squares the move passes and the chips it takes; the
display gives the score. A computer's move must then be made exactly as shown (the session
refuses any other); a hint is only advice. What is shown belongs to one position: ``ply``
says which, and anything shown for another ply is ignored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.rules.move import Move, Square

from . import coach_texts
from .texts import Said


def square_text(square: Square) -> str:
    return f"{square[0]},{square[1]}"


def move_text(move: Move) -> str:
    """The move as the board's notation writes it: ``2,5-3,4`` or ``2,5x4,3x6,1``."""
    sep = "x" if move.captures else "-"
    return sep.join(square_text(sq) for sq in move.path)


@dataclass(frozen=True)
class Shown:
    kind: str
    """``computer`` (to be made as shown), ``hint_chip`` (only the chip), ``hint`` (the move)."""
    ply: int
    move: Move
    score_text: str
    level: int | None = None

    @property
    def squares(self) -> tuple[Square, ...]:
        """The lit squares: the chip's only for a first hint, else the whole path."""
        return (self.move.start,) if self.kind == "hint_chip" else tuple(self.move.path)

    @property
    def taken(self) -> tuple[Square, ...]:
        return () if self.kind == "hint_chip" else tuple(self.move.captures)

    def said(self) -> Said:
        """What the board says of it, in the language in force."""
        move = move_text(self.move)
        if self.kind == "hint_chip":
            return coach_texts.HINT_CHIP.format(chip=square_text(self.move.start))
        squares = ", ".join(square_text(sq) for sq in self.move.captures)
        if self.kind == "computer":
            text = coach_texts.COMPUTER_MOVE_TAKES if squares else coach_texts.COMPUTER_MOVE
            return text.format(
                level=self.level,
                move=move,
                chip=square_text(self.move.start),
                squares=squares,
                score=self.score_text,
            )
        text = coach_texts.HINT_MOVE_TAKES if squares else coach_texts.HINT_MOVE
        return text.format(move=move, squares=squares, score=self.score_text)

    def json(self) -> dict[str, Any]:
        said = self.said()
        return {
            "kind": self.kind,
            "ply": self.ply,
            "from": list(self.move.start),
            "path": [list(sq) for sq in self.squares],
            "taken": [list(sq) for sq in self.taken],
            "score": self.score_text if self.kind != "hint_chip" else None,
            "level": self.level,
            "text": said.page,
        }
