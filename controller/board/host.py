"""One board's games: the host opens the game in the board's journal (resumed exactly) or a new
one, keeps a game that is put away under the one name, and closes. It is the only code that
knows where a board keeps its games on the disk; ``run``, ``sim``, ``demo`` and a series of
games all go through it.

A board's folder holds ``journal.jsonl`` (the game in play) and ``games/`` (the games kept: each
journal as ``game-<second>.jsonl``, with its record and sheets beside it under the same name,
``session.journal.kept_name``). Without a folder the games live in memory only.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from controller.session import Session, SessionConfig
from controller.session.journal import KEPT_FOLDER, JournalError, kept_name

from .ids import check_board_id

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
    """Where one board's games live, and their life: open, start, put away, keep, close."""

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
    def of_board(cls, state_dir: str | Path | None, board_id: str, **options: object) -> BoardHost:
        """The host of board ``board_id`` in a state folder shared by many boards; in memory
        without one. A wrong id is refused here, with the rule."""
        check_board_id(board_id)
        folder = None if state_dir is None else board_folder(state_dir, board_id)
        return cls(folder, **options)  # type: ignore[arg-type]

    @property
    def journal_path(self) -> Path | None:
        return None if self.folder is None else self.folder / JOURNAL

    @property
    def games_folder(self) -> Path | None:
        """Where the kept games are (None in memory)."""
        return None if self.folder is None else self.folder / KEPT_FOLDER

    def has_game(self) -> bool:
        """A game waits in the board's journal (it is resumed by ``open``)."""
        path = self.journal_path
        return path is not None and path.is_file()

    def open(self, config: SessionConfig, t: float) -> Session:
        """The game in the board's journal, resumed exactly; a new game from ``config`` when
        there is none. Never fails because of the journal: damage is in ``problems``."""
        config.profile()  # a wrong rule setting fails here, clearly
        path = self.journal_path
        if path is None:
            session = Session.start(config, t)
        else:
            session = Session.open(config, str(path), t, sync=self.sync)
        session.wall = self.wall
        return session

    def put_away(self, session: Session) -> str | None:
        """Stop ``session`` before a new game (``open`` then starts it): a game with moves is
        kept, a game nobody moved in is dropped, and the journal is left empty. Returns what
        went wrong, or None; the new game starts all the same."""
        journal = session.journal
        if journal is None:
            return None
        try:
            if session.game.ply:
                journal.keep(self.wall())
            journal.close()
            journal.path.unlink(missing_ok=True)
        except (JournalError, OSError) as exc:
            return str(exc)
        return None

    def put_away_journal(self) -> str | None:
        """Keep a game an earlier run left in the journal (as the new-game button does)."""
        from controller.session.journal import Journal

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
                path.unlink()  # the next session starts its own journal
        return None

    def close(self, session: Session, t: float) -> None:
        """A deliberate stop: the clocks journaled as they stand; the game resumes from here."""
        session.close(t)

    def keep_record(self, session: Session) -> list[Path]:
        """The finished game's record and sheets in the kept games, under the one name (the
        board's ``games/``); OSError says why not. Nothing in memory."""
        folder = self.games_folder
        if folder is None:
            return []
        from controller.session.export import export_game

        return export_game(session, folder, kept_name(self.wall()))
