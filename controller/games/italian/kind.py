"""Italian draughts as the board plays it: a plain draughts game on the 32 dark squares of the
8 × 8 board (``controller.games.draughts``: its shared session and view), with no settings
of its own."""

from __future__ import annotations

from controller.games.clocks import ClockRule
from controller.games.draughts.kind import draughts_kind
from controller.games.kind import Geometry

from .computer import COMPUTER
from .record import RULES

ITALIAN = draughts_kind(RULES, Geometry(8), (), ClockRule(20 * 60, 60), COMPUTER)  # as Damath's
