"""The running hub: its store, its broker (own or given), the ingest, the web app, wired once.

``HubContext`` is what the web routes and the tests see; ``open_hub`` builds it from an event
directory and ``serve`` runs it until SIGTERM or Ctrl+C. The hub keeps serving whatever boards
send; a dead broker is restarted by its supervisor and the hub reconnects by itself.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from controller.link.protocol import HUB_USER

from . import storecheck
from .broker import Broker, BrokerFiles, Tls
from .context import HubContext
from .feeds import Feeds
from .folder import make_private, private_folder
from .ingest import BrokerAddress, Ingest, Limits
from .live import Live
from .recorded import RecordedResults
from .settings import load_or_create, save
from .store import FILENAME, Store

if TYPE_CHECKING:
    pass

log = logging.getLogger("damath-board.hub")


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
    ingest.transport.tournament = lambda: _has_event(folder)
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
    recorded = RecordedResults(folder, store, live)
    recorded.start()
    return HubContext(
        folder, store, live, ingest, Feeds(store), settings, broker, shown, backups,
        rebuilt=rebuilt, stop_recorded=recorded.stop,
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
