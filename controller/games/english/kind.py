"""English draughts (checkers) on the 8 × 8 board: the rules engine's English rule set
(``controller/rules/draughts.py``), its opening and positions as PDN FEN
(``controller/games/english/record.py``), registered as a plain draughts game. Black moves first; a
side with no piece or no move loses; the third occurrence of a position is a draw."""

from __future__ import annotations

from controller.games.english.computer import COMPUTER
from controller.games.english.record import RULES

from ..clocks import ClockRule
from ..draughts.kind import draughts_kind
from ..kind import Geometry

ENGLISH = draughts_kind(RULES, Geometry(8), (), ClockRule(20 * 60, 60), COMPUTER)  # as Damath's
