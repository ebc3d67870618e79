"""What a running hub is, handed to its web pages and the rounds: the store, the live view, the
boards' link, the feeds and settings, and the two jobs every page may do (send a board its
assignment, open the tournament). ``service.open_hub`` makes one."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.link.protocol import GAME_ID, check_board_id
from controller.tournament.games import GAMES as GAME_NAMES
from controller.tournament.store import FILE_NAME as TOURNAMENT_FILE

from . import storecheck
from .broker import Broker
from .feeds import Feeds
from .ingest import Ingest
from .live import Live
from .settings import HubSettings
from .store import Store

if TYPE_CHECKING:
    from controller.tournament.tournament import Tournament


@dataclass
class HubContext:
    folder: Path
    store: Store
    live: Live
    ingest: Ingest
    feeds: Feeds
    settings: HubSettings
    broker: Broker | None
    broker_url: str
    backups: storecheck.Backups
    started: float = field(default_factory=time.time)
    rebuilt: str = ""
    """What ``--rebuild`` did at start (empty without it)."""
    stop_recorded: Callable[[], None] | None = None
    """Stops the thread that keeps the results recorded otherwise than the boards' on the
    walls' cards (``recorded.RecordedResults``)."""

    def assign(self, board: str, data: dict[str, Any]) -> dict[str, Any]:
        """Store an assignment for ``board`` and publish it (retained) for the board to show."""
        check_board_id(board)
        if self.store.board_key(board) is None:
            raise ValueError(f"no board {board!r} in this hub")
        number = data.get("round", 0)
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 1000:
            raise ValueError("'round' must be a whole number from 0 to 999")
        payload: dict[str, Any] = {"v": 1, "id": f"a-{secrets.token_hex(6)}", "round": number}
        for name in ("game", "table", "variant", "rules", "start", "event", "date"):
            value = data.get(name)
            if value is not None:
                if not isinstance(value, str | int) or isinstance(value, bool):
                    raise ValueError(f"'{name}' must be text")
                payload[name] = str(value)[:60]
        if payload.get("game") not in (None, *GAME_NAMES):
            raise ValueError(f"'game' is one of {', '.join(GAME_NAMES)} (the game the table plays)")
        if payload.get("start") not in (None, "desk", "table"):
            raise ValueError("'start' is desk or table (when the clocks start)")
        for side in ("blue", "red"):
            person = data.get(side) or {}
            if not isinstance(person, dict):
                raise ValueError(f"'{side}' must be an object with a name")
            payload[side] = {
                k: str(person[k])[:80]
                for k in ("name", "school", "grade", "fed_id")
                if person.get(k)
            }
        assert GAME_ID.match(payload["id"])
        with self.store.transaction() as db:
            round_id = self.store.round_id(db, number)
        self.store.add_assignment(payload["id"], board, round_id, payload)
        self.ingest.publish_assignment(board, payload)
        return payload

    @contextmanager
    def tournament(self) -> Iterator[Tournament]:
        """The event's tournament (``DIR/tournament.sqlite``), open for one request: the command
        line may change it at the same time (SQLite serialises the writes)."""
        from controller.tournament.tournament import Tournament

        t = Tournament.open(self.folder)
        try:
            yield t
        finally:
            t.close()

    @contextmanager
    def event_tournament(self) -> Iterator[Tournament | None]:
        """The event's tournament when the folder holds one (``tournament``), else None: the
        public pages of a hall without an event still answer."""
        if not (self.folder / TOURNAMENT_FILE).is_file():
            yield None
            return
        with self.tournament() as t:
            yield t

    def unassign(self, board: str) -> None:
        """The board plays nothing assigned now (its pairing moved away): clear its retained
        assignment so it stops showing it."""
        self.store.clear_assignment(board)
        self.ingest.publish_assignment(board, None)

    def close(self) -> None:
        if self.stop_recorded is not None:
            self.stop_recorded()
        self.ingest.stop()
        self.backups.stop()
        if self.broker is not None:
            self.broker.stop()
        self.store.close()
