"""A game of Mathematical Chess on a board: the tracker's reading of each turn played through the
rules engine, and every step journaled (the start position, each placement with the piece named,
each move, each removal with its rule, each Done or pass), so a restart replays the game exactly.

The journal is the board's usual one (``journal.Journal``: CRC'd lines, append + fsync); its
records are read by one function, ``apply``, live and on a resume.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from controller.games.mathchess.record import GAME, TURN, action_record, apply_record, start_record
from controller.games.mathchess.tracker import MathChessTracker
from controller.i18n import _
from controller.record.games import game_of
from controller.record.journal_file import Record
from controller.record.table import TableState, is_table
from controller.rules.mathchess import (
    IllegalAction,
    MathChessGame,
    NotationError,
    Point,
    Position,
    Stop,
    position_from_json,
    position_to_json,
)
from controller.rules.mathchess.position import Action
from controller.session.journal import Journal, JournalError
from controller.session.journaled import keep_resumed


@dataclass
class Said:
    """The last thing the board told the players (the display, the page)."""

    text: str
    rule: str | None = None


class MathChessSession:
    """One game on one board: frames and buttons in, the game and its journal out."""

    def __init__(self, start: Position, journal: Journal | None = None) -> None:
        self.game = MathChessGame(start)
        self.tracker = MathChessTracker(start)
        self.journal = journal
        self.problems: list[str] = []
        self.said: Said | None = None
        self.table = TableState()
        """The tournament table's records (``record.table``): its players, hold, pause."""

    # ------------------------------------------------------------------ opening

    @classmethod
    def start(cls, start: Position, path: str | Path | None = None) -> MathChessSession:
        """A new game from ``start``; journaled in a fresh file at ``path`` if given."""
        journal = None
        if path is not None:
            Path(path).unlink(missing_ok=True)
            journal, _loaded = Journal.open(path)
        session = cls(start, journal)
        session._write(start_record(position_to_json(start)))
        return session

    @classmethod
    def open(cls, path: str | Path, start: Position) -> MathChessSession:
        """The game in the journal at ``path``, replayed exactly; a new one from ``start`` when
        the journal holds none. What could not be read is in ``problems``, never raised."""
        journal, loaded = Journal.open(path)
        records = loaded.records
        if not records or game_of(records[0]) != GAME:
            journal.close()
            session = cls.start(start, path)
            session.problems += loaded.problems
            return session
        try:
            first = position_from_json(records[0].get("position", {}))
        except NotationError as exc:
            first = start
            loaded.problems.append(str(exc))
        session = cls(first, journal)
        session.problems += loaded.problems
        for n, record in enumerate(records[1:], 2):
            try:
                session.apply(record)
            except (IllegalAction, NotationError, ValueError) as exc:
                session.problems.append(
                    _("journal record {n} does not fit the game: {why}").format(n=n, why=exc)
                )
                session.problems += keep_resumed(journal, loaded, n - 1)
                break
        session.tracker.reset(session.game.position)
        return session

    def apply(self, record: Record) -> None:
        """The one reading of a journal record, live and on a resume (``games.mathchess.record``,
        ``record.table``)."""
        if is_table(record):
            over = self.game.position.ending() is not None
            self.table.apply(record, bool(self.game.actions), over)
        else:
            apply_record(self.game, record)

    def record(self, record: Record) -> bool:
        """A table record journaled, then applied; False (said) when it cannot be."""
        if not self._write(record):
            return False
        self.apply(record)
        return True

    def _write(self, record: Record) -> bool:
        """Journal a record before it takes effect; False (said) when the disk refuses it."""
        if self.journal is None:
            return True
        try:
            self.journal.append(record)
        except JournalError as exc:
            self.problems.append(str(exc))
            self.said = Said(str(exc))
            return False
        return True

    def _play(self, actions: list[Action]) -> None:
        """Checked as a whole first, then journaled as one record, then played: a turn is in
        the journal whole or not at all, and never played without being journaled."""
        here = self.game.position
        for action in actions:
            here = here.apply(action)
        if len(actions) == 1:
            record = action_record(actions[0])
        else:
            record = {"k": TURN, "actions": [action_record(a) for a in actions]}
        if not self._write(record):
            return
        self.apply(record)
        self.tracker.reset(self.game.position)
        if self.sensors is not None and self.sensors != self.tracker.occupied:
            self.tracker.frame(self.sensors)  # what the board shows that the game does not

    # ------------------------------------------------------------------ the board's inputs

    sensors: frozenset[Point] | None = None
    """The last frame (None before the first one)."""

    def frame(self, occupied: frozenset[Point]) -> None:
        self.sensors = frozenset(occupied)
        self.tracker.frame(self.sensors)
        reading = self.tracker.reading
        if reading.refused:
            first = reading.refused[0]
            self.said = Said(self.tracker.problem() or first.text, first.rule)
        else:
            self.said = None

    def name(self, symbol: str) -> None:
        """Prepare now!: the player names the piece just put down (C-12)."""
        try:
            self._play([self.tracker.name(symbol)])
        except IllegalAction as exc:
            self.said = Said(exc.text, exc.rule)
            return
        self.said = None

    def done(self) -> None:
        """Play now!: the player's button ends the turn (C-13)."""
        try:
            self._play(self.tracker.done())
        except IllegalAction as exc:
            self.said = Said(exc.text, exc.rule)
            return
        self.said = None

    def stop(self) -> bool:
        """The arbiter's stop from the board's menu: the points taken decide (C-11), the
        stop journaled as the rules' own action; False (said) when it cannot be."""
        try:
            self._play([Stop("arbiter")])
        except IllegalAction as exc:
            self.said = Said(exc.text, exc.rule)
            return False
        return self.position.stopped == "arbiter"

    def over(self) -> bool:
        """Ended by the rules (C-11) or by the arbiter's resignation or no-show (the table)."""
        return self.position.ending() is not None or self.table.ending is not None

    def put_away(self, wall: float) -> None:
        """Before a new game on the board: a game with actions is kept beside the journal
        (``games/``, under its one name), never lost; why not, if it cannot be, is said."""
        if self.journal is not None and self.game.actions:
            try:
                self.journal.keep(wall)
            except JournalError as exc:
                self.problems.append(str(exc))
        self.close()

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()

    @property
    def position(self) -> Position:
        return self.game.position
