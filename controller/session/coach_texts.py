"""What the board says when the computer plays, gives a hint or reviews a game: every such
sentence in one place (plain English; a translation catalogue takes them over as they stand).

Each ``Text`` has the page's sentence and the small display's form (ASCII, 21 columns)."""

from __future__ import annotations

from .texts import Text

COMPUTER_MOVE = Text(
    "The computer (level {level}) plays {move}: lift the chip on {chip}, move it as the lights "
    "show{takes}. Score {score}.",
    "PC: {move}\nscore {score}",
)
COMPUTER_TAKES = Text(", take off {squares}")
NOT_THE_SHOWN_MOVE = Text(
    "That is not the computer's move: put the chips back as the lights show, then play {move}.",
    "Not the PC's move:\nput it back",
)
WAIT_FOR_COMPUTER = Text(
    "The computer has not chosen its move yet: put the chips back and wait for the lights.",
    "PC thinking:\nput it back",
)
HINT_CHIP = Text(
    "Hint: move the chip on {chip}. Press Hint again to see the whole move.", "Hint: move {chip}"
)
HINT_MOVE = Text("Hint: {move}{takes}. Score {score}.", "Hint: {move}\nscore {score}")
HINT_THINKING = Text("Looking for a good move…", "Hint: thinking...")
HINTS_OFF = "Hints are for practice games: the arbiter turns them on under Computer and coach."
HINT_NOT_NOW = "A hint is given while a game is being played, on a player's turn."
NO_COMPUTER_HINT = "It is the computer's turn: its move is already on the lights."
REVIEW_NOT_YET = "The review is made once the game has moves."
REVIEW_WORKING = "The coach is reviewing the game…"
REVIEW_STARTED = "The coach reviews the game: the review appears below the board."
REVIEW_FAILED = "The coach could not review this game: {reason}"
