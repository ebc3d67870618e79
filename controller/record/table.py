"""A tournament table on a board of a game other than Damath (Dam, English draughts, Dadama,
Mathematical Chess): the ``table`` records its journal carries besides the game's own, and what
they say. Damath's session has records of its own for the same acts (``info``, ``hold``, ``go``,
``confirm``, ``pause``, ``resume``); these games share one record kind, ``table``, whose ``act``
says which:

- ``players``: the assignment's players, school, grade, round, table, event and date (``info``,
  the fields ``record.info`` knows), with its id (``asg``); only before the first move;
- ``hold``: the first move waits for the round's start (``until``: ``desk`` or ``table``);
- ``confirm``: the table is confirmed on the board (``by`` the players or the board's arbiter);
- ``go``: the round started for this table (``by`` ``desk``, ``table`` or ``arbiter``);
- ``pause`` and ``resume``: from the arbiter's desk (``by``), or by a dispute;
- ``sign``: a player signs the finished game (``side``: 0 Blue, the first mover; 1 Red);
- ``dispute``: a player disputes (``side``, ``ply``: the steps played, ``t``: the board's time,
  ``sensed``: the board's last sensor changes, ``[t, "lift"|"place", [x, y]]`` each);
- ``end``: the arbiter ended the game from the board's menu (``reason``: ``resign`` or
  ``no-show`` with the ``side`` it is about, or ``stop`` with the ``result`` the arbiter's
  stop gives under the game's ``stop`` setting, ``rule``: ``draw`` or ``adjudicate``). The
  game is over from then on, as if its rules had ended it; its result is the record's.

The board's session and the hub read them with ``TableState.apply`` (the one reading): a record
that cannot be (a start never held, a pause while paused, players after the first move) raises
ValueError, and a move while the table is held or paused, or after the arbiter's end, is
refused (``blocks``). A journal written before the ``end`` act reads as it always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.i18n import _

from . import info as game_info
from .outcome import DRAW, ENDINGS, WINNER

Record = dict[str, Any]
TABLE = "table"
ACTS = ("players", "hold", "confirm", "go", "pause", "resume", "sign", "dispute", "end", "clock")
HOLD_UNTIL = ("desk", "table")
STARTERS = ("desk", "table", "arbiter")
CONFIRMERS = ("arbiter", "blue", "red")
SENSED_MAX = 64
"""Sensor changes a dispute carries at most."""
ARBITER_ENDINGS = ("stop", "resign", "no-show", "time")
"""How the arbiter ends a game from the board's menu (Damath's ``end`` reasons, the same names)."""
STOP_RULES = ("draw", "adjudicate")
"""What the arbiter's stop gives in a game without scores (its ``stop`` setting): a draw, or
the result the arbiter chooses (a draw or either side's win)."""
RESULTS = ("1-0", "0-1", "1/2-1/2")
"""A result from the first mover's side, as PDN writes it."""


@dataclass(frozen=True)
class TableEnding:
    """The arbiter's end of a game (an ``end`` record): why, the side it is about, the result."""

    reason: str
    side: int | None
    result: str

    def winner(self) -> int | None:
        return {"1-0": 0, "0-1": 1}.get(self.result)

    def text(self, colours: tuple[str, str]) -> str:
        """``BLACK resigned; WHITE wins``, in the game's own colours."""
        who = _(colours[self.side].capitalize()).upper() if self.side is not None else ""
        why = _(ENDINGS[self.reason]).format(SIDE=who)
        winner = self.winner()
        verdict = (
            _(DRAW)
            if winner is None
            else _(WINNER).format(SIDE=_(colours[winner].capitalize()).upper())
        )
        return _("{ending}; {result}").format(ending=why, result=verdict)


def _ending(rec: Mapping[str, Any]) -> TableEnding:
    reason = rec.get("reason")
    if reason not in ARBITER_ENDINGS:
        raise ValueError(_("unknown ending {str!r}").format(str=str(reason)[:20]))
    if reason == "stop":
        result = rec.get("result")
        if result not in RESULTS or rec.get("rule", "adjudicate") not in STOP_RULES:
            raise ValueError(_("an arbiter's stop without its result"))
        if rec.get("rule") == "draw" and result != "1/2-1/2":
            raise ValueError(_("an arbiter's stop under the draw rule that is not a draw"))
        return TableEnding("stop", None, str(result))
    side = _side(rec)
    return TableEnding(str(reason), side, "0-1" if side == 0 else "1-0")


def is_table(record: Mapping[str, Any]) -> bool:
    """A ``table`` record (whatever the game's own records are keyed by)."""
    return record.get("k") == TABLE


def _asg(value: object) -> str:
    if isinstance(value, str) and 0 < len(value) <= 48:
        return value
    raise ValueError(_("a table record without its assignment"))


def _side(rec: Mapping[str, Any]) -> int:
    side = rec.get("side")
    if side in (0, 1) and not isinstance(side, bool):
        return int(str(side))
    raise ValueError(_("side {str} does not exist").format(str=str(side)[:10]))


def _sensed(event: object) -> bool:
    """``[t, "lift"|"place", [x, y]]``: a sensor change of a board of up to 12 × 12."""
    return (
        isinstance(event, list)
        and len(event) == 3
        and isinstance(event[0], int | float)
        and not isinstance(event[0], bool)
        and event[1] in ("lift", "place")
        and isinstance(event[2], list)
        and len(event[2]) == 2
        and all(type(v) is int and 0 <= v < 12 for v in event[2])
    )


@dataclass
class TableState:
    """What a game's ``table`` records say: the players, the hold, the start and the pause."""

    info: dict[str, str] = field(default_factory=dict)
    asg: str | None = None
    """The assignment whose players the game carries."""
    held: str | None = None
    """What the first move waits for (``desk``, ``table``), None once started or never held."""
    held_asg: str | None = None
    confirmed: dict[str, set[str]] = field(default_factory=dict)
    """Who confirmed each assignment on the board: ``arbiter``, ``blue``, ``red``."""
    started_asg: str | None = None
    started_by: str | None = None
    paused: bool = False
    paused_by: str = ""
    """Who paused: ``desk``, ``dispute`` or ``arbiter`` (the board's Pause)."""
    signed: set[int] = field(default_factory=set)
    """The sides that signed the finished game."""
    disputes: list[Record] = field(default_factory=list)
    ending: TableEnding | None = None
    """The arbiter's end of the game from the board's menu, or None."""
    clock: Record | None = None
    """The board's clocks' last reading (``clock``: ``used``, ``move_ms``, ``ply``; a
    ``flag``: the side whose time fell), or None (``games.clocks``)."""

    def apply(self, rec: Mapping[str, Any], played: bool = False, over: bool = False) -> Record:
        """Apply one ``table`` record (``played``: a move of the game is in; ``over``: it
        ended); what it meant. ValueError, one line, for a record that cannot be here."""
        act = rec.get("act")
        if act == "players":
            if played:
                raise ValueError(_("the players of a game already under way cannot change"))
            raw = rec.get("info")
            if not isinstance(raw, dict):
                raise ValueError(_("a players record without its players"))
            self.info = game_info.clean(raw)
            self.asg = _asg(rec.get("asg"))
            return {"players": dict(self.info)}
        if act == "hold":
            if rec.get("until") not in HOLD_UNTIL:
                raise ValueError(_("a hold that waits for nothing the board knows"))
            if played or self.started_by is not None:
                raise ValueError(_("a hold of a game already started"))
            self.held, self.held_asg = str(rec["until"]), _asg(rec.get("asg"))
            return {"hold": self.held}
        if act == "confirm":
            asg = _asg(rec.get("asg"))
            if rec.get("by") not in CONFIRMERS:
                raise ValueError(_("a confirmation by nobody the board knows"))
            self.confirmed.setdefault(asg, set()).add(str(rec["by"]))
            return {"confirmed": asg, "by": rec["by"]}
        over = over or self.ending is not None
        if act == "clock":
            return self._clock(rec)
        if act == "end":
            if over:
                raise ValueError(_("an end of a game that is over"))
            self.ending = _ending(rec)
            self.paused, self.paused_by = False, ""
            return {"end": self.ending.reason, "result": self.ending.result}
        if act == "sign":
            side = _side(rec)
            if not over:
                raise ValueError(_("a signature of a game that is not over"))
            self.signed.add(side)
            return {"signed": side}
        if act == "dispute":
            side = _side(rec)
            if not isinstance(rec.get("ply"), int) or isinstance(rec.get("ply"), bool):
                raise ValueError(_("a dispute without its ply"))
            sensed = rec.get("sensed", [])
            if not isinstance(sensed, list) or len(sensed) > SENSED_MAX:
                raise ValueError(_("a dispute whose sensor events cannot be read"))
            if not all(_sensed(e) for e in sensed):
                raise ValueError(_("a dispute whose sensor events cannot be read"))
            self.disputes.append({k: v for k, v in rec.items() if k != "seq"})
            return {"dispute": side}
        if act == "go":
            if self.held is None:
                raise ValueError(_("a start of a game that was not held"))
            if rec.get("by") not in STARTERS:
                raise ValueError(_("a start by nobody the board knows"))
            self.started_asg, self.started_by = self.held_asg, str(rec["by"])
            self.held = self.held_asg = None
            return {"go": self.started_by}
        if act in ("pause", "resume"):
            if over:
                raise ValueError(_("a pause of a game that is over"))
            if self.paused == (act == "pause"):
                twice = _("a pause of a paused game")
                raise ValueError(twice if self.paused else _("a resume of a game not paused"))
            self.paused = act == "pause"
            self.paused_by = str(rec.get("by") or "desk") if self.paused else ""
            return {act: str(rec.get("by") or "desk")}
        raise ValueError(_("unknown table record {act!r}").format(act=act))

    def _clock(self, rec: Mapping[str, Any]) -> Record:
        used, move, ply = rec.get("used"), rec.get("move_ms"), rec.get("ply")
        numbers = [*used, move, ply] if isinstance(used, list) and len(used) == 2 else []
        if not numbers or not all(type(v) is int and v >= 0 for v in numbers):
            raise ValueError(_("a clock record whose times cannot be read"))
        self.clock = {"used": list(used), "move_ms": move, "ply": ply}  # type: ignore[arg-type]
        if "flag" in rec:
            self.clock["flag"] = _side({"side": rec["flag"]})
        return {"clock": self.clock}

    def is_confirmed(self, asg: str | None) -> bool:
        """By the board's arbiter (its Confirm), or by both players' own buttons."""
        by = self.confirmed.get(asg or "", set())
        return "arbiter" in by or {"blue", "red"} <= by

    def blocks(self) -> str | None:
        """Why no move may be played now (the arbiter ended the game, the round not started, the
        game paused), or None."""
        if self.ending is not None:
            return _("the arbiter ended the game: no more moves")
        if self.paused and self.paused_by == "arbiter":
            return _("paused by the arbiter: no move until Pause is pressed again")
        if self.paused:
            return _("paused from the arbiter's desk: no move until it resumes")
        if self.held == "desk":
            return _("the round has not started: wait for the arbiter's start")
        if self.held == "table":
            return _("the round has not started: confirm the table on the board first")
        return None

    def tags(self, colours: tuple[str, str]) -> dict[str, str]:
        """PDN tags of the table (the first mover is the table's Blue player): the event, the
        round, the date, and each player by the colour of the side they play."""
        out: dict[str, str] = {}
        for key, tag in (("event", "Event"), ("round", "Round")):
            if self.info.get(key):
                out[tag] = self.info[key]
        if self.info.get("date"):
            out["Date"] = self.info["date"].replace("-", ".")
        for side, colour in zip(("blue", "red"), colours, strict=True):
            if self.info.get(side):
                out[colour.capitalize()] = self.info[side]
        if self.ending is not None:
            out["Termination"] = self.ending.reason
        return out

    def result(self, by_rules: str) -> str:
        """The game's result: the arbiter's when the arbiter ended it, else ``by_rules``."""
        return self.ending.result if self.ending is not None else by_rules

    def players(self) -> dict[str, str]:
        """The table as a JSON record carries it (empty: no table's players), its fields in
        order of their names: the same text whether read live or from the journal."""
        return dict(sorted(self.info.items()))
