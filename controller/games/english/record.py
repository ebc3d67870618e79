"""English draughts' records: its rules on the board (Black moves first, positions as PDN FEN)
and the reader the hub and the link apply its records with. Pure: the rules engine and the
records' shared machinery only."""

from __future__ import annotations

from controller.games.draughts.record import DraughtsRecorded, pdn_rules
from controller.record.games import Recorded

RULES = pdn_rules("english", ("black", "white"), "B:W21,22,23:B1,2,3")
"""English draughts (checkers): Black moves first (docs/rules-english.md)."""


def recorded() -> Recorded:
    """A new reader of an English game's records (``controller.registry``'s entry)."""
    return DraughtsRecorded(RULES)
