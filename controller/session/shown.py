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
from . import coach_words as words
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
    variant: str
    """The game's variant: each taking's arithmetic is scored in it."""
    level: int | None = None

    @property
    def squares(self) -> tuple[Square, ...]:
        """The lit squares: the chip's only for a first hint, else the whole path."""
        return (self.move.start,) if self.kind == "hint_chip" else tuple(self.move.path)

    @property
    def taken(self) -> tuple[Square, ...]:
        return () if self.kind == "hint_chip" else tuple(self.move.captures)

    def said(self) -> Said:
        """What the board says of it, in the language in force: the chip by its number, the
        squares as the board names them, the colour of the lights and each taking's
        arithmetic (``coach_words``)."""
        move = move_text(self.move)
        chip = words.chip_label(self.move)
        start, end = words.square_name(self.move.start), words.square_name(self.move.end)
        if self.kind == "hint_chip":
            return coach_texts.HINT_CHIP.format(chip=chip, square=start)
        takes = bool(self.move.captures)
        values: dict[str, object] = {
            "level": self.level,
            "move": move,
            "chip": chip,
            "start": start,
            "end": end,
            "score": words.page_signs(self.score_text),
        }
        if takes:
            sentences = words.taking_sentences(self.move, self.variant, self.kind != "computer")
            values["takings"] = " ".join(sentences)
            values["arithmetic"] = words.display_arithmetic(
                self.move, self.variant, self.score_text
            )
        if self.kind == "computer":
            text = coach_texts.COMPUTER_MOVE_TAKES if takes else coach_texts.COMPUTER_MOVE
        else:
            text = coach_texts.HINT_MOVE_TAKES if takes else coach_texts.HINT_MOVE
        return text.format(**values)

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
