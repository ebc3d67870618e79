"""Every word the scoresheet prints, defined once: headings, labels, the result sentences and the
notes. Placeholders have names and no sentence is assembled from pieces, so a translation
catalogue can take these over as they stand."""

from __future__ import annotations

TITLE = "{variant} DAMATH Scoresheet"
PLAYER = "Player {side}"
NAME = "Name"
SCHOOL = "School"
GRADE = "Grade/Year"
EVENT = "Event"
ROUND = "Round"
TABLE = "Board"
DATE = "Date"
RULES = "Rules"
RULES_VALUE = "{profile}"
NUMBER = "No."
MOVE = "Move"
SCORE = "Score"
TOTAL = "Total"
SIDES = ("BLUE", "RED")
TAKING_AT = "at {square}"
"""After a taking's arithmetic, the square where the taker landed (its operator's square)."""

REMAINING = "Remaining chips (RC)"
RC_CHIP = "RC {chip}"
RC_TOTAL = "RC total"
TAKINGS_TOTAL = "Takings total"
GRAND_TOTAL = "Grand total"

WINS = "{winner} wins: 1 point, {loser} 0."
DRAW = "Draw: ½ point each."
ENDED = "The game ended: {reason}."
IN_PROGRESS = (
    "Game in progress after {moves} move: BLUE {blue}, RED {red}. No result yet: remaining "
    "chips and grand totals are written when the game ends.",
    "Game in progress after {moves} moves: BLUE {blue}, RED {red}. No result yet: remaining "
    "chips and grand totals are written when the game ends.",
)
"""Singular and plural (``plural``)."""
NOT_STARTED = "Game in progress: no move yet."

NOTE_DOUBLE = (
    "A taking scores double when a dama takes an ordinary chip or an ordinary chip takes a "
    "dama, and four times when a dama takes a dama."
)
NOTE_RC_DOUBLE = (
    "Remaining chips are added to the takings total; a dama left on the board counts double. "
    "The greater grand total wins."
)
NOTE_RC_ONCE = (
    "Remaining chips are added to the takings total, each once (a dama too). The greater grand "
    "total wins."
)
NOTE_ROUNDING = (
    "Whole-number variants round a result to the nearest whole number, halves away from zero "
    "(−3.5 ≈ −4); … marks a decimal that goes on."
)
SIGNATURES = "Signatures"
SIGN_BLUE = "Player BLUE"
SIGN_RED = "Player RED"
SIGN_ARBITER = "Arbiter"


def plural(forms: tuple[str, str], count: int) -> str:
    """The singular or the plural form of a sentence for ``count``."""
    return forms[0] if count == 1 else forms[1]
