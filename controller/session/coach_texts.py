"""What the board says when the computer plays, gives a hint or reviews a game: every such
sentence in one place, marked for the Filipino catalogue (``N_``; docs/translation.md) and
translated where it is said.

Each ``Text`` has the page's sentence and the small display's form (ASCII, at most three lines
of 21 columns once wrapped). A move that takes has its own whole sentence, never a fragment
glued on, so that a translation puts the words in its own order."""

from __future__ import annotations

from controller.i18n import N_

from .texts import Text

COMPUTER_MOVE = Text(
    N_(
        "The computer (level {level}) plays {move}: lift the chip on {chip} and move it as the "
        "lights show. Score {score}."
    ),
    N_("PC: {move}\nscore {score}"),
)
COMPUTER_MOVE_TAKES = Text(
    N_(
        "The computer (level {level}) plays {move}: lift the chip on {chip}, move it as the "
        "lights show and take off {squares}. Score {score}."
    ),
    N_("PC: {move}\nscore {score}"),
)
NOT_THE_SHOWN_MOVE = Text(
    N_("That is not the computer's move: put the chips back as the lights show, then play {move}."),
    N_("Not the PC's move:\nput it back"),
)
WAIT_FOR_COMPUTER = Text(
    N_("The computer has not chosen its move yet: put the chips back and wait for the lights."),
    N_("PC thinking:\nput it back"),
)
HINT_CHIP = Text(
    N_("Hint: move the chip on {chip}. Press Hint again to see the whole move."),
    N_("Hint: move {chip}"),
)
HINT_MOVE = Text(N_("Hint: {move}. Score {score}."), N_("Hint: {move}\nscore {score}"))
HINT_MOVE_TAKES = Text(
    N_("Hint: {move}, take off {squares}. Score {score}."), N_("Hint: {move}\nscore {score}")
)
HINT_THINKING = Text(N_("Looking for a good move…"), N_("Hint: thinking..."))
HINTS_OFF = N_("Hints are for practice games: the arbiter turns them on under Computer and coach.")
HINT_NOT_NOW = N_("A hint is given while a game is being played, on a player's turn.")
NO_COMPUTER_HINT = N_("It is the computer's turn: its move is already on the lights.")
REVIEW_NOT_YET = N_("The review is made once the game has moves.")
REVIEW_WORKING = N_("The coach is reviewing the game…")
REVIEW_STARTED = N_("The coach reviews the game: the review appears below the board.")
REVIEW_FAILED = N_("The coach could not review this game: {reason}")

# --------------------------------------------------------------------------- the review, after
# a practice game: on the board's display (Next turns its pages) and on the printable sheet.
# Marked for the catalogue (``N_``), translated where used (docs/translation.md).

REVIEW_HEAD = N_("Review {n}/{count} Next>")
"""The head line of a review page on the display (the count of pages; Next turns them)."""
REVIEW_MISTAKE = N_("{side} {number}: {move} lost {loss}; better {best}{arithmetic}")
"""One of the three biggest mistakes on the display; ``{arithmetic}`` is `` = 6x2 = 12`` or
nothing (a better move that takes nothing)."""
REVIEW_NONE = N_("No mistake: every move as good as the PC's")
REVIEW_ACCURACY = N_("{side} best {best}/{choices}; +:{add} -:{sub} x:{mul} div:{div}")
"""A side's accuracy on the display: ``{add}`` … ``{div}`` are the takings on that sign that
were the engine's best, in per cent (``75%``), or ``--`` when the side made no taking on it."""
REVIEW_NEXT = N_("Next: the review")
"""The tally's extra line where the display has room (the serial stream) once a review is
there."""

# the arbiter's settings menu, practice games (the board's buttons)
MENU_COMPUTER = N_("Computer: {side}")
MENU_COMPUTER_OFF = N_("off")
MENU_LEVEL = N_("Level: {level}")
