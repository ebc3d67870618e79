"""Italian draughts' records: its rules on the board (White moves first, positions as PDN FEN
with the Italian federation's numbering) and the reader the hub and the link apply its records
with. Pure: the rules engine and the records' shared machinery only."""

from __future__ import annotations

from controller.games.draughts.record import DraughtsRecorded, pdn_rules
from controller.record.games import Recorded

RULES = pdn_rules("italian", ("white", "black"), "W:W21,22,23:B9,10,11")


def recorded() -> Recorded:
    """A new reader of an Italian game's records (``controller.registry``'s entry)."""
    return DraughtsRecorded(RULES)
