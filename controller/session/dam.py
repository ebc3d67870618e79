"""One Dam game (12×12, docs/rules-dam.md) on a board: the generic tracker reads the moves from
the 72 playable squares; every move is journaled before it is applied, and the one ``apply``
reads a record live and on resume. Dam has no score: the result is told by the pieces (a side
with no piece or no move loses; the draws of M-9), written as PDN from Black's side."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.rules.dam import COLOURS, DEFAULT, DamEnding, DamGame
from controller.rules.dam_notation import dam_from_json, dam_to_json
from controller.rules.move import Chip, Move, Square
from controller.rules.pdn_game import write_pdn
from controller.tracker.events import BoardReady, MoveCommitted
from controller.tracker.guidance import Guidance
from controller.tracker.tracker import Tracker

from .journal import Journal, JournalError, Record, replay

GAME = "dam"


@dataclass
class DamConfig:
    """What a Dam game starts from: its rule settings and a position (None: the opening)."""

    settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        DEFAULT.with_settings(self.settings)  # refused here, with its reason, if wrong
        if self.position is not None:
            dam_from_json({**self.position, "settings": self.settings})


def config_from_settings(given: dict[str, Any], position: Any = None) -> DamConfig:
    """A Dam game's config from ``--set`` style settings (``game`` names the game, left out)."""
    return DamConfig({k: v for k, v in given.items() if k != "game"}, position)


def result_of(ending: DamEnding | None) -> str:
    """The PDN result, from Black's side (Black moves first): ``*`` while the game goes on."""
    if ending is None:
        return "*"
    if ending.winner is None:
        return "1/2-1/2"
    return "1-0" if ending.winner == 0 else "0-1"


@dataclass(frozen=True)
class DamView:
    """Everything the LEDs, the display and the page show of a Dam game (pure data)."""

    phase: str
    """``setup`` (set the board), ``play``, ``over``."""
    side_to_move: int
    pieces: dict[Square, Chip]
    guidance: Guidance
    last: Move | None
    message: str
    ending: DamEnding | None
    result: str
    ply: int


class DamSession:
    """The state machine of a Dam game; time only comes in as values, never read here."""

    def __init__(self, config: DamConfig, journal: Journal | None = None) -> None:
        self.config = config
        self.journal = journal
        self.problems: list[str] = []
        self.cues: list[str] = []
        self.start = DamGame.opening()
        self.game = self.start.copy()
        self.tracker = Tracker(self.game)
        self.phase = "setup"
        self.message = ""
        self.game_id = ""
        """When the game began (UTC, from its start record): names its PDN in ``games/``."""
        self.saved: Path | None = None

    @classmethod
    def begin(cls, config: DamConfig, journal: Journal | None = None) -> DamSession:
        """A new game: its start record journaled and applied."""
        s = cls(config, journal)
        began = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        start: Record = {"k": "start", "game": GAME, "id": began}
        start["settings"] = dict(config.settings)
        if config.position is not None:
            start["position"] = config.position
        s._record(start)
        s.tracker = Tracker(s.game)
        return s

    @classmethod
    def open(cls, config: DamConfig, path: str, *, sync: bool = True) -> DamSession:
        """The game in the journal at ``path``, resumed (the board must show it again before
        play goes on), or a new one when the journal holds none."""
        journal, loaded = Journal.open(path, sync=sync)
        if not loaded.records:
            return cls.begin(config, journal)
        s = cls(config, journal)
        s.problems += loaded.problems
        s.problems += replay(loaded.records, s.apply)
        s.tracker = Tracker(s.game, mode="restore")
        s.phase = "setup"
        return s

    def apply(self, rec: Record) -> str | None:
        """Read one journal record into the game: the one path for play and for resume.
        Returns why a record cannot be applied (nothing changed), or None."""
        kind = rec.get("k")
        try:
            if kind == "start":
                self._apply_start(rec)
            elif kind == "move":
                self._apply_move(rec)
            else:
                return _("unknown record {kind!r}").format(kind=kind)
        except (ValueError, TypeError, KeyError) as exc:
            return str(exc)
        return None

    def _apply_start(self, rec: Record) -> None:
        if rec.get("game") != GAME:
            raise ValueError(_("not the start of a Dam game"))
        settings = rec.get("settings") or {}
        position = rec.get("position")
        if position is not None:
            start = dam_from_json({**position, "settings": settings})
        else:
            start = DamGame.opening(DEFAULT.with_settings(settings))
        self.start = start
        self.game = start.copy()
        self.game_id = str(rec.get("id") or "game")

    def _apply_move(self, rec: Record) -> None:
        path = tuple(_square(p) for p in rec.get("path") or ())
        fits = [m for m in self.game.legal_moves() if m.path == path]
        captures = rec.get("captures")
        if captures is not None and len(fits) > 1:
            taken = tuple(_square(c) for c in captures)
            fits = [m for m in fits if m.captures == taken]
        if not fits:
            raise ValueError(_("not a legal move here: {path}").format(path=list(path)))
        self.game.push(fits[0])

    def _record(self, rec: Record) -> bool:
        """Journal then apply; a record the journal cannot keep is not played (said why)."""
        if self.journal is not None:
            try:
                self.journal.append(rec)
            except JournalError as exc:
                self.message = str(exc)
                self.cues.append("error")
                return False
        problem = self.apply(rec)
        if problem:
            self.problems.append(problem)
            self.message = problem
            return False
        return True

    def feed_frame(self, t: float, occupied: Iterable[Square]) -> None:
        """A scan of the board: setup until it shows the game, then the moves it shows."""
        self._events(self.tracker.feed_frame(t, frozenset(occupied)))

    def tick(self, t: float) -> bool:
        """Time passing lets a move settle; True when something happened."""
        events = self.tracker.tick(t)
        self._events(events)
        return bool(events)

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """A button: ``next``/``confirm`` choose between two paths the board cannot tell apart."""
        if name not in ("next", "confirm"):
            self.message = _("that button does nothing in Dam")
            return
        self._events(self.tracker.feed_button(t, name))

    def _events(self, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, BoardReady) and self.phase == "setup":
                self.phase = "over" if self.game.ending() is not None else "play"
                self.message = ""
            if isinstance(event, MoveCommitted):
                move = event.move
                rec: Record = {
                    "k": "move",
                    "path": [list(sq) for sq in move.path],
                    "captures": [list(sq) for sq in move.captures],
                }
                if not self._record(rec):  # the board and the game part: show the game again
                    self.tracker.set_position(self.game, event.t)
                    continue
                self.cues.append("move")
                self.message = ""
                ending = self.game.ending()
                if ending is not None:
                    self.phase = "over"
                    self.message = ending.describe()
                    self.cues.append("game_over")

    def take_cues(self) -> list[str]:
        out, self.cues = self.cues, []
        return out

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()

    def view(self) -> DamView:
        played = self.game.played()
        ending = self.game.ending()
        return DamView(
            phase=self.phase,
            side_to_move=self.game.side_to_move,
            pieces=self.game.chips(),
            guidance=self.tracker.guidance(),
            last=played[-1][1] if played else None,
            message=self.message,
            ending=ending,
            result=result_of(ending),
            ply=len(played),
        )

    def pdn(self, tags: dict[str, str] | None = None) -> str:
        """The game as PDN (the rules' export), its result told by the pieces."""
        return write_pdn(self.game, self.start, result_of(self.game.ending()), tags)

    def position(self) -> dict[str, Any]:
        return dam_to_json(self.game)


def side_name(side: int) -> str:
    return COLOURS[side]


def _square(raw: object) -> Square:
    if (
        isinstance(raw, list | tuple)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        return (raw[0], raw[1])
    raise ValueError(_("not a square: {raw!r}").format(raw=raw))
