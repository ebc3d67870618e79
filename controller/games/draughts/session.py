"""One game of plain draughts on a board (Dam on 12 × 12, English draughts on 8 × 8): the generic
tracker reads the moves from the dark squares; every move is journaled before it is applied, and
the one ``apply`` reads a record live and on resume. These games have no score: the result is
told by the pieces (a side with no piece or no move loses; the game's draws), written as PDN.

What differs between them is data, a ``DraughtsRules``: the rule set's game, its colours, its
opening and settings, its JSON position (docs/rules-dam.md; English draughts: docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from controller.games.draughts.record import (
    DraughtsRules,
    describe,
    recorded_move,
    result_of,
    start_game,
)
from controller.i18n import _
from controller.record.journal_file import Record
from controller.record.table import TableState, is_table
from controller.rules.game import Ending
from controller.rules.move import Chip, Move, Square
from controller.rules.pdn_game import write_pdn
from controller.session.journal import Journal
from controller.session.journaled import JournaledGame, open_journal, without_start
from controller.tracker.events import BoardReady, Event, MoveCommitted
from controller.tracker.guidance import Guidance
from controller.tracker.tracker import Tracker


@dataclass
class DraughtsConfig:
    """What a game starts from: its rule settings and a position (None: the opening), and what
    the arbiter's stop gives (``stop``: ``draw`` or ``adjudicate``, ``games.arbiter``)."""

    settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    stop: str = "draw"


@dataclass(frozen=True)
class DraughtsView:
    """Everything the LEDs, the display and the page show of a draughts game (pure data)."""

    game: str
    phase: str
    """``setup`` (set the board), ``play``, ``over``."""
    colours: tuple[str, str]
    size: int
    side_to_move: int
    pieces: dict[Square, Chip]
    guidance: Guidance
    last: Move | None
    message: str
    ending: Ending | None
    """How the rules ended the game, or None."""
    result: str
    ply: int
    arbiter: str = ""
    """How the arbiter ended it from the menu (``BLACK resigned; WHITE wins``), or ""."""

    @property
    def over(self) -> bool:
        return self.ending is not None or bool(self.arbiter)


class DraughtsSession(JournaledGame):
    """The state machine of a draughts game; time only comes in as values, never read here."""

    def __init__(
        self, rules: DraughtsRules, config: DraughtsConfig, journal: Journal | None = None
    ) -> None:
        super().__init__(journal)
        self.rules = rules
        self.config = config
        self.start = rules.opening(config.settings)
        self.game = self.start.copy()
        self.tracker = Tracker(self.game)
        self.phase = "setup"
        self.game_id = ""
        """When the game began (UTC, from its start record)."""
        self.table = TableState()
        """The tournament table's records (``record.table``): its players, hold, pause."""
        self.blocks: Callable[[], str | None] = self.table.blocks
        """Why no move may be played now (None: it may); the board's table may say more."""
        self.ended_text: Callable[[], str] = lambda: ""
        """The arbiter's end of the game in words (the board's table says it), or ""."""

    @classmethod
    def begin(
        cls, rules: DraughtsRules, config: DraughtsConfig, journal: Journal | None = None
    ) -> DraughtsSession:
        """A new game: its start record journaled and applied."""
        s = cls(rules, config, journal)
        began = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        start: Record = {"k": "start", "game": rules.name, "id": began}
        start["settings"] = dict(config.settings)
        if config.position is not None:
            start["position"] = config.position
        s.commit(start)
        s.tracker = Tracker(s.game)
        return s

    @classmethod
    def open(
        cls, rules: DraughtsRules, config: DraughtsConfig, path: str | None, *, sync: bool = True
    ) -> DraughtsSession:
        """The game in the journal at ``path``, resumed (the board must show it again before
        play goes on), or a new one when the journal holds none (or there is no journal)."""
        journal, loaded = open_journal(path, sync=sync)
        lost = without_start(loaded, journal)
        if not loaded.records or lost:
            s = cls.begin(rules, config, journal)
            s.problems += lost or loaded.problems
            return s
        s = cls(rules, config, journal)
        s.resumed(loaded)
        s.tracker = Tracker(s.game, mode="restore")
        return s

    def apply(self, rec: Record) -> str | None:
        kind = rec.get("k")
        try:
            if kind == "start":
                self._apply_start(rec)
            elif kind == "move":
                self._apply_move(rec)
            elif is_table(rec):
                self.table.apply(rec, bool(self.game.ply), self.game.ending() is not None)
                if self.table.ending is not None and self.phase == "play":
                    self.phase = "over"  # the arbiter ended it (on a resume: once it is set)
            else:
                return _("unknown record {kind!r}").format(kind=kind)
        except (ValueError, TypeError, KeyError) as exc:
            return str(exc)
        return None

    def played(self) -> bool:
        return bool(self.game.ply)

    def over(self) -> bool:
        """Ended by the rules (the pieces) or by the arbiter (``table.ending``)."""
        return self.game.ending() is not None or self.table.ending is not None

    def _apply_start(self, rec: Record) -> None:
        start = start_game(self.rules, rec)
        self.start = start
        self.game = start.copy()
        self.game_id = str(rec.get("id") or "game")

    def _apply_move(self, rec: Record) -> None:
        self.game.push(recorded_move(self.game, rec))

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
        if self.over() and name in ("next", "confirm"):
            self.message = ""
            return
        if name not in ("next", "confirm"):
            self.message = _("that button does nothing in {game}").format(game=_(self.rules.title))
            return
        self._events(self.tracker.feed_button(t, name))

    def _events(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, BoardReady) and self.phase == "setup":
                self.phase = "over" if self.over() else "play"
                self.message = ""
            if isinstance(event, MoveCommitted):
                move = event.move
                blocked = self.blocks()
                if blocked is not None:  # held or paused: the move is put back
                    self.tracker.set_position(self.game, event.t)
                    self.message = blocked
                    self.cues.append("error")
                    continue
                rec: Record = {
                    "k": "move",
                    "path": [list(sq) for sq in move.path],
                    "captures": [list(sq) for sq in move.captures],
                }
                if not self.commit(rec):  # the board and the game part: show the game again
                    self.tracker.set_position(self.game, event.t)
                    continue
                self.cues.append("move")
                self.message = ""
                ending = self.game.ending()
                if ending is not None:
                    self.phase = "over"
                    self.message = describe(self.rules, ending)
                    self.cues.append("game_over")

    def view(self) -> DraughtsView:
        played = self.game.played()
        ending = self.game.ending()
        return DraughtsView(
            game=self.rules.name,
            phase=self.phase,
            colours=self.rules.colours,
            size=self.game.rules.size,
            side_to_move=self.game.side_to_move,
            pieces=self.game.chips(),
            guidance=self.tracker.guidance(),
            last=played[-1][1] if played else None,
            message=self.message,
            ending=ending,
            result=self.table.result(result_of(ending)),
            ply=len(played),
            arbiter=self.ended_text() if self.table.ending is not None else "",
        )

    def pdn(self, tags: dict[str, str] | None = None) -> str:
        """The game as PDN (the rules' export), its result told by the pieces."""
        tags = {**(tags or {}), **self.table.tags(self.rules.colours)}
        result = self.table.result(result_of(self.game.ending()))
        return write_pdn(self.game, self.start, result, tags)

    def position(self) -> dict[str, Any]:
        return self.rules.to_json(self.game)
