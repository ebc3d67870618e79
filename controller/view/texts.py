"""What the board's small display and the view say, each line's words defined once, with named
placeholders (the display is 4 lines of 21 ASCII characters: these are its short forms, in
Filipino too; marked with ``N_`` and translated where used: docs/translation.md)."""

from __future__ import annotations

from controller.i18n import N_

SETUP_NEXT_PAGE = N_("Put the {side} {value}{dama} on {square} ({done} of {total} chips in place).")
SETUP_DONE_PAGE = N_("Every chip is in place: take your hands off the board.")
SETUP_TAKE_OFF_PAGE = N_("Take the chip on {square} off: no chip belongs there.")
SETUP_TITLE = N_("Setup {done}/{total}")
SETUP_PUT = N_("Put {SIDE} {value}{dama}")
SETUP_ON = N_("on square {xy}")
SETUP_DONE = N_("All set: hands off")
SETUP_TAKE_OFF = N_("Take off chip at {xy}")
SETUP_GAME = N_("{variant} {rules}")
DAMA = N_(" dama")
PLAYERS = N_("{blue} v {red}")
TURN_LINE = N_("{who} {game} {move}")
TURN_LINE_UNTIMED = N_("{who} to move")
PREVIEW_TITLE = N_("If you take:")
PREVIEW_LINE = N_("{xy} = {score}")
WHICH_WAY = N_("Which way? Next/OK")
CHOICE = N_("{mark}via {xy} = {score}")
END_RESULT = N_("{result}: {ending}")
END_TOTALS = N_("T  B {blue} R {red}")
END_RC = N_("RC B {blue} R {red}")
END_GRAND = N_("GT B {blue} R {red}")
END_GAME = N_("{variant} {rules}, {moves} moves")
NO_CLOCK = N_("--:--")
