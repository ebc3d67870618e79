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
        "The computer (level {level}) moves its {chip} from {start} to {end}: make its move as "
        "the green lights show."
    ),
    N_("PC: {move}\nscore 0"),
)
COMPUTER_MOVE_TAKES = Text(
    N_(
        "The computer (level {level}) takes with its {chip} on {start}: move it as the green "
        "lights show, to {end}. {takings} Take off the board each of your chips that blinks "
        "red-orange. The computer scores {score}."
    ),
    N_("PC: {move}\n{arithmetic}"),
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
    N_(
        "Hint: lift your {chip} on {square}, where the light pulses green. Press Hint again to "
        "see the whole move."
    ),
    N_("Hint: lift the {chip}\non {square}"),
)
HINT_MOVE = Text(
    N_(
        "Hint: move your {chip} from {start} to {end}, along the green lights. It takes nothing, "
        "so it scores 0."
    ),
    N_("Hint: {move}\nscore 0"),
)
HINT_MOVE_TAKES = Text(
    N_(
        "Hint: lift your {chip} on {start} and follow the green lights to {end}. {takings} Then "
        "take off the board every chip that blinks red-orange: you score {score}."
    ),
    N_("Hint: {move}\n{arithmetic}"),
)

# --------------------------------------------------------------------------- one taking, told
# to a child: which chip jumps which, onto which operator's square, and the arithmetic.

TAKING_YOURS = N_(
    "Your {taker} jumps {other}'s {taken} on {over} and lands on the {op} square {land}: "
    "{arithmetic}."
)
"""A taking by the player the board speaks to (a hint, a review)."""
TAKING_YOURS_THEN = N_(
    "Then it jumps {other}'s {taken} on {over} and lands on the {op} square {land}: {arithmetic}."
)
TAKING_THEIRS = N_(
    "Its {taker} jumps your {taken} on {over} and lands on the {op} square {land}: {arithmetic}."
)
"""A taking by the computer, of the player's chip."""
TAKING_THEIRS_THEN = N_(
    "Then it jumps your {taken} on {over} and lands on the {op} square {land}: {arithmetic}."
)
DAMA_DOUBLE = N_("A dama takes part, so the score counts double.")
DAMA_FOUR = N_("Two damas take part, so the score counts four times.")
SCORE_TOTAL = N_("score {score}")
"""The display's second line when a move takes more than once (its takings' sum)."""
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
REVIEW_MISTAKE = N_("{side} {number}: {move}; better {best}{arithmetic}: {gain} points more")
"""One of the three biggest mistakes on the display, with what the better move gives a child
can count (``MoveReview.better_by``: takings over the next moves); ``{arithmetic}`` is
`` = 6x2 = 12`` or nothing (a better move that takes nothing, or no room for it)."""
REVIEW_MISTAKE_FURTHER = N_("{side} {number}: {move}; better {best}{arithmetic} (PC looks further)")
"""A mistake whose better move scores no more over the next moves: the engine's reason lies
further ahead."""
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
