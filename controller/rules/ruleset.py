"""A rule set: the handful of choices that make one draughts game differ from another.

Damath, English, Italian, International and Brazilian draughts are all values of this record
read by one move generator (``movegen``); a new game is new data, not a new generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Priority(Enum):
    """Which captures a player must choose among all the capture sequences available."""

    ANY = "any"  # English: any capture, but a sequence is always played to its end
    MOST = "most"  # International, Brazilian: the most pieces
    ITALIAN = "italian"  # most pieces; then by a king; then most kings; then kings taken first
    MOST_THEN_DAMA = "most-then-dama"  # Damath official (D-1): most chips, then a dama's
    DAMA_THEN_MOST = "dama-then-most"  # Damath online profile: a dama's first, then most


class Trail(Enum):
    """What a flying king may not revisit inside one capture sequence (RULES.md D-3)."""

    FREE = "free"  # International draughts: only the jumped pieces matter
    STRICT = "strict"  # D-3: never pass over or land on a square already passed or landed on
    LOOSE = "loose"  # the looser reading: never pass over or land on its starting square


class KingTurns(Enum):
    """Where a flying king may change direction inside one taking."""

    ANYWHERE = "anywhere"  # International, Damath: on any landing square, and must go on
    AT_EDGE = "at-edge"  # Dam: legs along one diagonal, a turn only on the edge, stops allowed


@dataclass(frozen=True)
class RuleSet:
    name: str
    size: int
    men_capture_backward: bool
    flying_kings: bool
    priority: Priority
    men_capture_kings: bool = True
    king_trail: Trail = Trail.FREE
    men_move_backward: bool = False
    """Dam: men step backward as well as forward (they take backward when the rule says so)."""
    crowning_ends_capture: bool = False
    """English and Dam: a man that reaches the far row during a taking is crowned there and
    stops; elsewhere (International, Brazilian, Damath D-2) it goes on as a man."""
    king_turns: KingTurns = KingTurns.ANYWHERE
    parity: int = 1
    """Playable squares have ``(x + y) % 2 == parity``."""

    def __str__(self) -> str:
        return self.name
