"""What is impossible in a Damath journal record: the grammar every reader holds a record to
before it is applied (``state.DamathState.apply``). A record the board never wrote (a wrong
kind, a square off the board, a side that does not exist, a value the page would refuse) is
named and skipped, never obeyed: on a resume, by the board's link, by the hub."""

from __future__ import annotations

from typing import Any

from controller.i18n import _

from . import info as game_info
from . import play as play_mode
from .kinds import RecordKind
from .outcome import ENDINGS
from .signing import SIGNING_KINDS
from .signing import record_problem as signing_problem
from .start import START_KINDS
from .start import record_problem as start_problem

Record = dict[str, Any]
KINDS = frozenset(RecordKind)
MAX_MS = 10**10  # a clock reading in milliseconds: far beyond any game
START_OBJECTS = ("rule_settings", "tracker_settings", "position", "info", "play")


def _number(value: Any) -> bool:
    return type(value) in (int, float) and value == value and abs(value) < 1e12


def _whole(value: Any, top: int = MAX_MS) -> bool:
    return type(value) is int and 0 <= value <= top


def record_problem(rec: Record) -> str | None:
    """What is impossible in a journal record (wrong kinds, squares off the board, a side that
    does not exist), or None. A start record is read by ``start_ok`` and the state's apply."""
    kind = rec.get("k")
    if kind == "start":
        return _("a start record that cannot be read")
    if not isinstance(kind, str) or kind not in KINDS:
        return _("unknown kind of record {str!r}").format(str=str(kind)[:20])
    if not _number(rec.get("t")):
        return _("no time")
    if ("game_ms" in rec or "move_ms" in rec) and not (
        _whole(rec.get("game_ms")) and _whole(rec.get("move_ms"))
    ):
        return _("impossible clock readings")
    if kind in ("move", "takeback") and not _whole(rec.get("ply"), 10_000):
        return _("no ply")
    if kind == "move":
        path = rec.get("path")
        ok = isinstance(path, list) and 2 <= len(path) <= 16
        ok = (
            ok
            and isinstance(path, list)
            and all(
                isinstance(sq, list) and len(sq) == 2 and all(_whole(v, 7) for v in sq)
                for sq in path
            )
        )
        if not ok:
            return _("a move whose path is not squares of the board")
    if kind in ("warning", "timeout", "end") and rec.get("side") not in (None, 0, 1):
        return _("side {str} does not exist").format(str=str(rec.get("side"))[:10])
    if kind == "end" and rec.get("reason") not in ENDINGS:
        return _("unknown ending {str!r}").format(str=str(rec.get("reason"))[:20])
    if kind in SIGNING_KINDS:
        return signing_problem(rec)
    if kind in START_KINDS:
        return start_problem(rec)
    if kind in ("info", "play") and not isinstance(rec.get(kind), dict):
        return _("{kind} that is not an object").format(kind=kind)
    try:
        if kind == "info":
            game_info.clean(rec["info"])
        elif kind == "play":
            play_mode.parse(rec["play"])
    except ValueError as exc:  # InfoError, PlayError: what the page or the board never write
        return str(exc)[:120]
    return None


def start_ok(rec: Record) -> bool:
    """A start record with what a game starts from (its values are checked when applied)."""
    return (
        rec.get("k") == "start"
        and isinstance(rec.get("variant"), str)
        and isinstance(rec.get("rules"), str)
        and all(isinstance(rec.get(k), dict | None) for k in START_OBJECTS)
    )
