"""A move told to a child: the chip by its number, the squares named as the board writes them,
and each taking's arithmetic with the board's own signs (``6 × (−3) = −18``).

Used by what the board shows (a hint, the computer's move: ``shown.py``); the page's review
says the same in its own script from the same sentences (``coach_texts``). The arithmetic is
the scorer's own (``rules.scoring``): exact, as the sheet writes it; this module only puts it
in words."""

from __future__ import annotations

from controller.i18n import _, side_word
from controller.rules.move import Move, Square
from controller.rules.scoring import score_move

from . import coach_texts as say


def square_name(square: Square) -> str:
    """A square as the board's messages name it: ``(3, 2)``."""
    return f"({square[0]}, {square[1]})"


def page_signs(text: str) -> str:
    """The sheet's ASCII signs as a page prints them: ``6 x (-3)`` → ``6 × (−3)``."""
    return text.replace(" x ", " × ").replace("-", "−")


def chip_label(move: Move) -> str:
    """The number on the chip that moves (``−9``), or nothing for a chip without one."""
    chip = move.chip
    if chip is None or chip.value is None:
        return ""
    return page_signs(str(chip.value.label))


def taking_sentences(move: Move, variant: str, yours: bool) -> list[str]:
    """Each taking of ``move`` as a whole sentence, in the language in force. ``yours``: the
    move is the player's own (a hint); else the computer's, taking the player's chips."""
    mover = move.chip.side if move.chip is not None else 0
    other = side_word(1 - mover)
    out = []
    for i, scored in enumerate(score_move(move, variant).takings):
        t = scored.taking
        if yours:
            template = say.TAKING_YOURS if i == 0 else say.TAKING_YOURS_THEN
        else:
            template = say.TAKING_THEIRS if i == 0 else say.TAKING_THEIRS_THEN
        out.append(
            _(template).format(
                taker=page_signs(str(t.taker.value.label)),
                other=other,
                taken=page_signs(str(t.taken.value.label)),
                over=square_name(t.taken_square),
                op=t.operator,
                land=square_name(t.square),
                arithmetic=page_signs(scored.written),
            )
        )
        if t.multiplier == 2:
            out.append(_(say.DAMA_DOUBLE))
        elif t.multiplier == 4:
            out.append(_(say.DAMA_FOUR))
    return out


def display_arithmetic(move: Move, variant: str, score_text: str) -> str:
    """The display's second line: the one taking's arithmetic, or the sum of several."""
    takings = score_move(move, variant).takings
    if len(takings) == 1:
        return takings[0].written
    return _(say.SCORE_TOTAL).format(score=score_text)
