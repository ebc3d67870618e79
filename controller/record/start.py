"""A tournament game's clocks wait for the round's start: the ``hold`` and ``go`` records.

A board linked to a tournament hub holds its game's clocks at full time until the round starts
(docs/tournament.md, "When the clocks start"): ``hold`` says what the clocks wait for (``round``:
the round to be sent; ``desk``: the arbiter's start from the desk; ``table``: the table's
confirmation), and puts them back to full time if they had run before the board knew; ``go``
says who started them (``desk``, ``table``, or the board's own ``arbiter``). Both are journaled,
so a board that loses its power before the start resumes with its clocks still full.
"""

from __future__ import annotations

from typing import Any

from controller.i18n import _

from .kinds import RecordKind

Record = dict[str, Any]

HOLD_UNTIL = ("round", "desk", "table")
STARTERS = ("desk", "table", "arbiter")
START_KINDS = frozenset({RecordKind.HOLD, RecordKind.GO})


def _asg(value: object) -> bool:
    return value is None or (isinstance(value, str) and 0 < len(value) <= 48)


def record_problem(rec: Record) -> str | None:
    """What is impossible in a hold or go record, or None."""
    if rec["k"] == RecordKind.HOLD and rec.get("until") not in HOLD_UNTIL:
        return _("a hold of the clocks that waits for nothing the board knows")
    if rec["k"] == RecordKind.GO and rec.get("by") not in STARTERS:
        return _("a start of the clocks by nobody the board knows")
    if not _asg(rec.get("asg")):
        return _("a start of the clocks for an assignment that cannot be")
    return None
