"""The tournament's three acts at the board as records: the players (or the arbiter) confirm
the assignment they were seated by, both players sign the finished game's scoresheet with their
own button, and a player raises a dispute. ``Signing`` holds what the records say (the game's
state applies them: ``state.DamathState``), ``record_problem`` what is impossible in one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.i18n import _

from .kinds import RecordKind

Record = dict[str, Any]

CONFIRMERS = ("arbiter", "blue", "red")
SENSED_MAX = 64
"""Sensor changes a dispute carries at most (a taking of many chips needs about 30)."""
SIGNING_KINDS = frozenset({RecordKind.CONFIRM, RecordKind.SIGN, RecordKind.DISPUTE})


@dataclass
class Signing:
    """Confirmations by assignment, and this game's signatures and disputes."""

    awaiting: str | None = None
    """The assignment the board shows and waits to have confirmed (None: none waits)."""
    confirmed: dict[str, set[str]] = field(default_factory=dict)
    """Who confirmed each assignment: ``arbiter``, ``blue``, ``red``."""
    signed: set[int] = field(default_factory=set)
    disputes: list[Record] = field(default_factory=list)

    def apply(self, rec: Record) -> None:
        kind = rec["k"]
        if kind == RecordKind.CONFIRM:
            self.confirmed.setdefault(rec["asg"], set()).add(rec["by"])
        elif kind == RecordKind.SIGN:
            self.signed.add(rec["side"])
        elif kind == RecordKind.DISPUTE:
            self.disputes.append(rec)

    def is_confirmed(self, asg: str | None) -> bool:
        """By the arbiter, or by both players."""
        by = self.confirmed.get(asg or "", set())
        return "arbiter" in by or {"blue", "red"} <= by

    @property
    def waiting(self) -> str | None:
        """The assignment still to be confirmed, or None."""
        return None if self.is_confirmed(self.awaiting) else self.awaiting

    def new_game(self) -> None:
        """A new game: its own signatures and disputes (an assignment stays confirmed)."""
        self.signed = set()
        self.disputes = []


def _square(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 8 for v in value)
    )


def _event(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], int | float)
        and not isinstance(value[0], bool)
        and value[1] in ("lift", "place")
        and _square(value[2])
    )


def record_problem(rec: Record) -> str | None:
    """What is impossible in a confirm, sign or dispute record, or None."""
    kind = rec["k"]
    if kind == RecordKind.CONFIRM:
        asg = rec.get("asg")
        if not isinstance(asg, str) or not 0 < len(asg) <= 48:
            return _("a confirmation without its assignment")
        if rec.get("by") not in CONFIRMERS:
            return _("a confirmation by nobody the board knows")
    elif rec.get("side") not in (0, 1):
        return _("side {str} does not exist").format(str=str(rec.get("side"))[:10])
    if kind == RecordKind.DISPUTE:
        sensed = rec.get("sensed", [])
        if not isinstance(sensed, list) or len(sensed) > SENSED_MAX:
            return _("a dispute whose sensor events cannot be read")
        if not all(_event(e) for e in sensed):
            return _("a dispute whose sensor events cannot be read")
        if not isinstance(rec.get("ply"), int):
            return _("no ply")
    return None
