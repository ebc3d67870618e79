"""Dam, the 12 × 12 draughts of Sri Lanka, on the board (docs/rules-dam.md): a plain draughts
game with its own rules, settings and JSON position (``controller/games/dam/record.py``)."""

from __future__ import annotations

from controller.games.dam.computer import COMPUTER
from controller.games.dam.record import RULES

from ..clocks import ClockRule
from ..draughts.kind import draughts_kind
from ..kind import Geometry

DAM = draughts_kind(
    RULES,
    Geometry(12),
    ("capture_priority", "crowning_ends_move", "quiet_move_limit", "repetition"),
    ClockRule(30 * 60, 60),  # the longer board's longer game (docs/rules-dam.md, "Clocks")
    COMPUTER,
)
