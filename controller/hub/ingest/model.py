"""What the intake keeps about boards and games between messages, and the words for what
became of one message."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from controller.link.gamestate import GameState

Item = tuple[str, str, bytes, float]
"""One thing for the worker: (source, topic, payload, arrival time); the source is ``mqtt``,
``refusal`` (the broker's log) or ``show`` (a page opened a board large)."""
Acks = dict[tuple[str, str], tuple[int, int | None]]
"""(board, game) → (the last record stored, the number of a conflicting record)."""
UNWRITABLE = ("disk is full", "disk I/O error", "readonly database", "unable to open")


def unwritable(exc: BaseException) -> bool:
    """The store cannot be written at all (a full disk, a failing one), as opposed to a
    problem with one message."""
    if isinstance(exc, sqlite3.OperationalError):
        return any(text in str(exc) for text in UNWRITABLE)
    return isinstance(exc, OSError) and exc.errno in (28, 27, 122, 5, 30)  # ENOSPC EFBIG ...


@dataclass
class BrokerAddress:
    host: str
    port: int
    username: str
    password: str
    tls: bool = False
    ca_file: str | None = None


@dataclass
class GameCache:
    board: str
    game: str
    last_seq: int
    head: str
    round_id: int | None = None
    assignment: str | None = None
    state: GameState | None = None
    as_of: float = 0.0
    first_seen: float = 0.0
    problem: str | None = None
    stored_summary: dict[str, Any] | None = None
    """The summary the store kept: shown after a restart until the game is rebuilt."""
    summary: dict[str, Any] | None = None
    summary_seq: int = -1
    """The summary last computed, and at which record: the card reuses it."""


@dataclass
class BoardMeta:
    online: bool = False
    last_contact: float | None = None
    software: str | None = None
    firmware: str | None = None
    problems: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    held_until: float | None = None
    """The broker holds the board's credential until then (it flooded the hub)."""

    def refuse(self, text: str) -> None:
        """A line for the board's card and the organiser's list (its last five)."""
        self.refused = [text, *self.refused][:5]


@dataclass
class Outcome:
    """What became of one message (for tests and the counters)."""

    result: str  # stored, duplicate, out-of-order, state, presence, or a Rejected reason
    detail: str = ""
