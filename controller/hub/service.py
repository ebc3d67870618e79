"""The running hub: its store, its broker (own or given), the ingest, the web app, wired once.

``HubContext`` is what the web routes and the tests see; ``open_hub`` builds it from an event
directory and ``serve`` runs it until SIGTERM or Ctrl+C. The hub keeps serving whatever boards
send; a dead broker is restarted by its supervisor and the hub reconnects by itself.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from controller.link.protocol import GAME_ID, HUB_USER, check_board_id
from controller.tournament.games import GAMES as GAME_NAMES

from . import storecheck
from .broker import Broker, BrokerFiles, Tls
from .feeds import Feeds
from .folder import make_private, private_folder
from .ingest import BrokerAddress, Ingest, Limits
from .live import Live
from .settings import HubSettings, load_or_create, save
from .store import FILENAME, Store

if TYPE_CHECKING:
    from controller.tournament.tournament import Tournament

log = logging.getLogger("damath-board.hub")


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

    def unassign(self, board: str) -> None:
        """The board plays nothing assigned now (its pairing moved away): clear its retained
        assignment so it stops showing it."""
        self.store.clear_assignment(board)
        self.ingest.publish_assignment(board, None)

    def close(self) -> None:
        self.ingest.stop()
        self.backups.stop()
        if self.broker is not None:
            self.broker.stop()
        self.store.close()


def parse_broker_url(url: str) -> tuple[bool, str, int, str | None, str | None]:
    """``mqtt[s]://[user:password@]host[:port]`` → (tls, host, port, user, password)."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError(f"--broker {url!r}: expected mqtt://HOST:PORT or mqtts://HOST:PORT")
    tls = parts.scheme == "mqtts"
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError:
        raise ValueError(f"--broker {url!r}: the port is not a number from 1 to 65535") from None
    return tls, parts.hostname, port, parts.username, parts.password


def open_hub(
    folder: str | Path,
    *,
    broker_url: str | None = None,
    mqtt_port: int = 1883,
    mqtt_bind: str = "0.0.0.0",
    tls: Tls | None = None,
    ca_file: str | None = None,
    event: str | None = None,
    limits: Limits | None = None,
    rebuild: bool = False,
) -> HubContext:
    """Open (or create) the event directory, start the broker unless one is given, connect.
    The store is checked first (``storecheck``): a damaged or emptied one is refused with the
    recovery (StoreDamaged), unless ``rebuild``: then it is put aside, the last good backup
    taken, and every board asked for its games again."""
    folder = private_folder(folder)
    make_private(folder)  # what an earlier version or a copy left readable to others
    settings = load_or_create(folder)
    if event and not settings.event:
        settings.event = event
        save(folder, settings)
    rebuilt = storecheck.prepare_rebuild(folder) if rebuild else ""
    storecheck.check(folder)
    store = Store(folder / FILENAME, settings.event)
    _keys(folder, store)
    if rebuild and (folder / "tournament.sqlite").exists():
        from controller.tournament.tournament import Tournament

        from .rounds import restore_assignments

        t = Tournament.open(folder)
        try:
            restore_assignments(store, t)
        finally:
            t.close()
    live = Live()
    broker = None
    if broker_url is None:
        files = BrokerFiles(folder)
        files.set_password(HUB_USER, settings.password)
        broker = Broker(files, mqtt_port, mqtt_bind, tls)
        broker.start()
        address = BrokerAddress("127.0.0.1", mqtt_port, HUB_USER, settings.password)
        shown = f"mqtt://{mqtt_bind}:{mqtt_port}" + (
            f" and mqtts://{mqtt_bind}:{tls.port}" if tls else ""
        )
    else:
        secure, host, port, user, password = parse_broker_url(broker_url)
        address = BrokerAddress(
            host, port, user or HUB_USER, password or settings.password, secure, ca_file
        )
        shown = f"{'mqtts' if secure else 'mqtt'}://{host}:{port}"
    ingest = Ingest(store, live, address, limits=limits)
    ingest.tournament = lambda: _has_event(folder)
    ingest.rebuild_until = storecheck.rebuilding_until(folder)
    if rebuild:
        ingest.ask_resend(f"r-{secrets.token_hex(6)}", ingest.rebuild_until)
    if broker is not None:
        broker.on_refusal = lambda r: ingest.refusal(r.kind, r.user, r.detail)
        broker.answering = lambda: ingest.connected  # a broker that stops answering: restarted
        ingest.hold = broker.files.hold  # a flooding board is cut off at the broker
        ingest.release_due = broker.files.release_due
    ingest.start()
    backups = storecheck.Backups(folder)
    backups.start()
    return HubContext(
        folder, store, live, ingest, Feeds(store), settings, broker, shown, backups,
        rebuilt=rebuilt,
    )  # fmt: skip


def _has_event(folder: Path) -> bool:
    """The folder holds a tournament's event (``hub event create`` or the desk made it)."""
    from controller.tournament.store import FILE_NAME

    return (folder / FILE_NAME).is_file()


def _keys(folder: Path, store: Store) -> None:
    """The boards' keys in the store and beside it (``keys.json``) agree: a store rebuilt
    from nothing gets them back; an event made before the copy existed gets it."""
    kept = storecheck.load_keys(folder)
    for board, key in kept.items():
        if store.board_key(board) is None:
            store.add_board(board, key)
    for row in store.boards():
        stored = store.board_key(row["id"])
        if stored is not None and kept.get(row["id"]) != stored.hex():
            storecheck.save_key(folder, row["id"], stored.hex())
