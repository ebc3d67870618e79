"""Every word the scoresheet prints, defined once: headings, labels, the result sentences and the
notes. Placeholders have names and no sentence is assembled from pieces, so the Filipino
catalogue translates each whole (marked ``N_``, translated where used: docs/translation.md)."""

from __future__ import annotations

from controller.i18n import N_, Nn_, nplural

TITLE = N_("{variant} DAMATH Scoresheet")
PLAYER = N_("Player {side}")
NAME = N_("Name")
SCHOOL = N_("School")
GRADE = N_("Grade/Year")
FED_ID = N_("Federation ID")
EVENT = N_("Event")
ROUND = N_("Round")
TABLE = N_("Board")
DATE = N_("Date")
RULES = N_("Rules")
RULES_VALUE = N_("{profile}")
NUMBER = N_("No.")
MOVE = N_("Move")
SCORE = N_("Score")
TOTAL = N_("Total")
SIDES = (N_("BLUE"), N_("RED"))
TAKING_AT = N_("at {square}")
"""After a taking's arithmetic, the square where the taker landed (its operator's square)."""

REMAINING = N_("Remaining chips (RC)")
AT_THE_BOARD = N_("At the board: {result}")
"""The board's own verdict, so named under a tournament's result that may differ from it."""
RC_CHIP = N_("RC {chip}")
RC_TOTAL = N_("RC total")
TAKINGS_TOTAL = N_("Takings total")
GRAND_TOTAL = N_("Grand total")

WINS = N_("{winner} wins: 1 point, {loser} 0.")
DRAW = N_("Draw: ½ point each.")
ENDED = N_("The game ended: {reason}.")
IN_PROGRESS = Nn_(
    "Game in progress after {moves} move: BLUE {blue}, RED {red}. No result yet: remaining "
    "chips and grand totals are written when the game ends.",
    "Game in progress after {moves} moves: BLUE {blue}, RED {red}. No result yet: remaining "
    "chips and grand totals are written when the game ends.",
)
"""Singular and plural (``plural``)."""
NOT_STARTED = N_("Game in progress: no move yet.")

NOTE_DOUBLE = N_(
    "A taking scores double when a dama takes an ordinary chip or an ordinary chip takes a "
    "dama, and four times when a dama takes a dama."
)
NOTE_RC_DOUBLE = N_(
    "Remaining chips are added to the takings total; a dama left on the board counts double. "
    "The greater grand total wins."
)
NOTE_RC_ONCE = N_(
    "Remaining chips are added to the takings total, each once (a dama too). The greater grand "
    "total wins."
)
NOTE_ROUNDING = N_(
    "Whole-number variants round a result to the nearest whole number, halves away from zero "
    "(−3.5 ≈ −4); … marks a decimal that goes on."
)
SIGNATURES = N_("Signatures")
SIGN_BLUE = N_("Player BLUE")
SIGN_RED = N_("Player RED")
SIGN_ARBITER = N_("Arbiter")


def plural(forms: tuple[str, str], count: int) -> str:
    """The singular or the plural form of a sentence for ``count``, translated."""
    return nplural(forms, count)


# the coach's review after a practice game (``review_html.py``)
REVIEW = N_("The coach's review")
REVIEW_INTRO = N_(
    "Every move against the engine's best, looking {depth} moves ahead: the points each move lost."
)
REVIEW_MOVE = N_("No.")
REVIEW_SIDE = N_("Side")
REVIEW_PLAYED = N_("Played")
REVIEW_BEST = N_("Engine's best")
REVIEW_LOST = N_("Points lost")
REVIEW_SAME = N_("as played")
REVIEW_MISTAKES = N_("The three biggest mistakes")
REVIEW_MISTAKE = N_("Move {number}, {side}: {move} lost {loss} points; better {best}.")
REVIEW_PLAYED_ARITHMETIC = N_("Played: {arithmetic}")
REVIEW_BETTER_ARITHMETIC = N_("Better: {arithmetic}")
REVIEW_NO_MISTAKE = N_("None: every move was as good as the engine's.")
REVIEW_ACCURACY = N_("Accuracy")
REVIEW_BEST_MOVES = N_("best moves")
REVIEW_POINTS_LOST = N_("points lost")
REVIEW_TAKINGS_ON = N_("takings on {operator}")
