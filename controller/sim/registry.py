"""The boards of one simulator, one per board id, so a class can open one per pair of players.

A board is created only by a deliberate act of the arbiter (``create``: the page's "Create
board" button, docs/security.md), never by opening its address, and lives until the server
stops; with a state folder every board's game is journaled there, so a board opened after a
restart resumes its game (``find``), and the boards found there are listed. Ids are short and
plain (letters, digits, ``-`` and ``_``) because they appear in addresses people type and read
aloud; the number of boards is capped so a mistyped loop cannot exhaust the machine.

A board whose code fails (a bug, a value nothing foresaw) is marked broken with the reason; the
other boards go on, and a new game on it is the way back (docs/failures.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.board import BoardHost, BoardIdError, check_board_id
from controller.board.host import BOARDS, JOURNAL
from controller.board.ids import BOARD_ID
from controller.i18n import _
from controller.record.info import ROSTER_FILE, read_roster

from .engine import SimBoard, SimError

log = logging.getLogger("damath-board.sim")


class Boards:
    """Board id -> ``SimBoard``; every board shares the simulator's clock and tracker settings."""

    def __init__(
        self,
        clock: Callable[[], float],
        settings: dict[str, Any] | None = None,
        max_boards: int = 64,
        state_dir: Path | None = None,
        defaults: dict[str, Any] | None = None,
        roster_file: Path | None = None,
    ) -> None:
        self.clock = clock
        self.settings = settings
        self.max_boards = max_boards
        self.state_dir = state_dir
        self.defaults = dict(defaults or {})
        """``sim --set``: what every new game starts with (rules, practice, event)."""
        self.roster_file = roster_file or (state_dir / ROSTER_FILE if state_dir else None)
        self._boards: dict[str, SimBoard] = {}
        self.broken: dict[str, str] = {}
        """Board id -> why it stopped (shown on its pages until a new game mends it)."""

    def roster(self) -> tuple[str, ...]:
        """The class list (``players.txt``): the names the boards offer, read afresh each
        time so that a teacher's edit shows in the next game."""
        return read_roster(self.roster_file) if self.roster_file is not None else ()

    @staticmethod
    def check_id(board_id: str) -> str:
        """The board id rule (``controller.board.ids``), said to the page as a SimError."""
        try:
            return check_board_id(board_id)
        except BoardIdError as exc:
            raise SimError(str(exc)) from None

    def get(self, board_id: str) -> SimBoard | None:
        return self._boards.get(board_id)

    def is_saved(self, board_id: str) -> bool:
        return BoardHost.of_board(self.state_dir, self.check_id(board_id)).has_game()

    def find(self, board_id: str) -> SimBoard | None:
        """The board with this id: open now, or saved in the state folder (then loaded and
        resumed); None when there is no such board. Never creates one."""
        self.check_id(board_id)
        board = self._boards.get(board_id)
        if board is None and self.is_saved(board_id):
            board = self._make(board_id)
        return board

    def create(self, board_id: str) -> SimBoard:
        """A new board with this id (the arbiter's deliberate act); an existing one is kept."""
        return self.find(board_id) or self._make(board_id)

    def open(self, board_id: str) -> SimBoard:
        """``create`` (kept for scripts and tests that set boards up directly)."""
        return self.create(board_id)

    def _make(self, board_id: str) -> SimBoard:
        if len(self._boards) >= self.max_boards:
            raise SimError(
                _("this simulator already runs {max_boards} boards: reuse one of them").format(
                    max_boards=self.max_boards
                )
            )
        board = SimBoard(
            board_id,
            self.clock,
            settings=self.settings,
            state_dir=self.state_dir,
            defaults=self.defaults,
            roster=self.roster,
        )
        self._boards[board_id] = board
        return board

    def mark_broken(self, board_id: str, exc: BaseException) -> str:
        """Stop ticking a board whose code failed; the reason, as its pages show it."""
        if board_id not in self.broken:
            log.error("board %s stopped", board_id, exc_info=exc)
            why = f"{type(exc).__name__}: {str(exc)[:160]}"
            self.broken[board_id] = _(
                "This board stopped because of an error ({why}). The other boards go on; the "
                "arbiter can start a new game on it."
            ).format(why=why)
        return self.broken[board_id]

    def mended(self, board_id: str) -> None:
        self.broken.pop(board_id, None)

    def ids(self) -> list[str]:
        """The boards open now and those with a game saved in the state folder."""
        saved: set[str] = set()
        boards = None if self.state_dir is None else self.state_dir / BOARDS
        if boards is not None and boards.is_dir():
            saved = {
                p.parent.name
                for p in boards.glob(f"*/{JOURNAL}")
                if BOARD_ID.fullmatch(p.parent.name)
            }
        return sorted(set(self._boards) | saved)

    def items(self) -> list[tuple[str, SimBoard]]:
        return list(self._boards.items())

    def close(self) -> None:
        for board in self._boards.values():
            board.close()
        self._boards.clear()
