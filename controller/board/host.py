"""One board's games on the disk: the host opens the game in the board's journal (resumed
exactly) or a new one, puts a game away, and closes. It is the only code that knows where a
board keeps its games; ``run``, ``sim``, ``demo`` and a series of games all go through it, for
every game of the registry (``controller.games``).

A board's folder holds ``journal.jsonl`` (the game in play, whatever the game: its first record
says which) and ``games/`` (the games kept: each journal as ``game-<second>.jsonl``, with its
record and sheets beside it under the same name, written by the keeper,
``controller.games.keeper``). Without a folder the games live in memory only.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from controller.games import GAMES, BoardGame, GameKind, Opening, game_of_journal
from controller.i18n import _
from controller.record.journal_file import KEPT_FOLDER
from controller.record.journal_file import read as read_journal
from controller.session.journal import Journal, JournalError

from .ids import check_board_id

G = TypeVar("G", bound=BoardGame)

JOURNAL = "journal.jsonl"
BOARDS = "boards"
"""In a state folder shared by many boards (the simulator's), each board's folder."""


def default_state_dir() -> Path:
    """systemd's ``StateDirectory=`` (``$STATE_DIRECTORY``), else ~/.local/state/damath-board."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "damath-board"


def board_folder(state_dir: str | Path, board_id: str) -> Path:
    """Where one of many boards keeps its games in a shared state folder (the id checked)."""
    return Path(state_dir) / BOARDS / check_board_id(board_id)


class BoardHost:
    """Where one board's games live, and their life: open, put away, close."""

    def __init__(
        self,
        folder: str | Path | None,
        *,
        sync: bool = True,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.sync = sync
        """fsync every record (the board, the simulator); a demo may do without."""
        self.wall = wall
        """The wall clock: it names the games kept (``kept_name``) and nothing else."""

    @classmethod
    def of_board(cls, state_dir: str | Path | None, board_id: str, **options: Any) -> BoardHost:
        """The host of board ``board_id`` in a state folder shared by many boards; in memory
        without one. A wrong id is refused here, with the rule."""
        check_board_id(board_id)
        folder = None if state_dir is None else board_folder(state_dir, board_id)
        return cls(folder, **options)

    @property
    def journal_path(self) -> Path | None:
        return None if self.folder is None else self.folder / JOURNAL

    @property
    def games_folder(self) -> Path | None:
        """Where the kept games are (None in memory)."""
        return None if self.folder is None else self.folder / KEPT_FOLDER

    def has_game(self) -> bool:
        """A game waits in the board's journal (it is resumed by ``open``)."""
        self._adopt_old_journals()
        path = self.journal_path
        return path is not None and path.is_file()

    def held(self) -> GameKind | None:
        """The game the board's journal holds (None: no journal, or nothing in it yet)."""
        path = self.journal_path
        if not self.has_game() or path is None:
            return None
        return game_of_journal(read_journal(path).records)

    def open(
        self,
        kind: GameKind,
        settings: Mapping[str, Any],
        t: float,
        **opening: Any,
    ) -> BoardGame:
        """The game in the board's journal, resumed exactly, when it is a game of ``kind``; else
        a new one from ``settings`` (a game of another kind left in the journal is kept in
        ``games/`` first, and said). ``opening``: the rest of ``kind.Opening`` (tracker settings,
        a position, what the last game carries over, a config made already). Never fails
        because of the journal: damage is in the game's ``problems``. A wrong setting is a
        ValueError, before anything is touched."""
        start = Opening(self.journal_path, t, self.sync, self.wall, **opening)
        if start.config is None:
            start.config = kind.check(settings, start)  # a wrong setting: nothing touched yet
        problems: list[str] = []
        held = self.held()
        if held is not None and held is not kind:
            problem = self.put_away_journal()
            problems.append(
                problem
                or _(
                    "the journal held a game of {other}: it is kept in games/; {game} begins"
                ).format(other=_(held.title), game=_(kind.title))
            )
        game = kind.open(settings, start)
        game.problems.extend(problems)
        return game

    def open_as(
        self, kind: GameKind, cls: type[G], settings: Mapping[str, Any], t: float, **opening: Any
    ) -> G:
        """``open``, for a tool made for one game (Damath's series, the demo): the game as its
        own class, or a TypeError naming both (a kind whose games are another class)."""
        game = self.open(kind, settings, t, **opening)
        if not isinstance(game, cls):
            raise TypeError(f"{kind.name} opened a {type(game).__name__}, not a {cls.__name__}")
        return game

    def put_away(self, game: BoardGame) -> str | None:
        """Stop ``game`` before a new one (``open`` then starts it): a game with moves is kept,
        a game nobody moved in is dropped, and the journal is left empty. Returns what went
        wrong, or None; the new game starts all the same."""
        return game.put_away(self.wall())

    def put_away_journal(self) -> str | None:
        """Keep a game an earlier run left in the journal (as the new-game button does)."""
        path = self.journal_path
        if path is None or not path.is_file():
            return None
        if path.stat().st_size == 0:
            path.unlink()
            return None
        journal, _loaded = Journal.open(path, sync=self.sync)
        try:
            journal.keep(self.wall())
        except JournalError as exc:
            return str(exc)
        finally:
            journal.close()
            if path.is_file() and path.stat().st_size == 0:
                path.unlink()  # the next game starts its own journal
        return None

    def close(self, game: BoardGame, t: float) -> None:
        """A deliberate stop: what must be journaled is; the game resumes from here."""
        game.close(t)

    def _adopt_old_journals(self) -> None:
        """A board folder of an earlier release kept each game's journal under the game's own
        name (``dam.jsonl`` …): the one journal of the folder takes it over, once."""
        path = self.journal_path
        if path is None or path.exists():
            return
        for name in GAMES:
            old = path.with_name(f"{name}.jsonl")
            if old.is_file():
                old.replace(path)
                return
