"""``hub board-add``: one credential per board, and the board's connection file; ``hub
board-remove``: a board retired (its credential revoked, its games kept).

Each board gets its own MQTT user (its board id) with a random password, hashed into the
broker's password file by ``mosquitto_passwd``, and its own HMAC key, kept in the hub's store to
check every record. The connection file carries both to the board; the hub keeps no plain
password. A running broker is told to read the password file again (SIGHUP).
"""

from __future__ import annotations

import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from controller.link.config import LinkConfig, write
from controller.link.protocol import check_board_id

from .broker import BrokerFiles
from .folder import private_folder
from .settings import load_or_create, save
from .store import FILENAME, Store
from .storecheck import save_key


@dataclass(frozen=True)
class Added:
    path: Path
    config: LinkConfig
    reloaded: bool


def add_board(
    folder: str | Path,
    board: str,
    *,
    host: str | None = None,
    port: int | None = None,
    ca_file: str | None = None,
    out: str | Path | None = None,
    replace: bool = False,
) -> Added:
    folder = Path(folder)
    board = check_board_id(board)
    settings = load_or_create(folder)
    host = host or settings.public_host
    if not host:
        raise ValueError(
            "say which address the boards reach this hub at, once: --host 192.168.x.y "
            "(the laptop's address on the hall's Wi-Fi)"
        )
    if host != settings.public_host:
        settings.public_host = host
        save(folder, settings)
    tls = ca_file is not None
    if ca_file is not None and not Path(ca_file).is_file():
        raise ValueError(f"--ca {ca_file}: no such file")
    port = port or (8883 if tls else 1883)
    if not 1 <= port <= 65535:
        raise ValueError(f"--port {port}: a port is a number from 1 to 65535")
    store = Store(folder / FILENAME, settings.event)
    try:
        retired = board in store.removed_boards()  # a board retired may be added again
        if store.board_key(board) is not None and not replace and not retired:
            raise ValueError(
                f"board {board} already has a credential; --replace issues a new one "
                "(its old connection file stops working)"
            )
        key = secrets.token_bytes(32)
        password = secrets.token_urlsafe(18)
        files = BrokerFiles(folder)
        files.set_password(board, password)
        store.add_board(board, key.hex())
        save_key(folder, board, key.hex())  # beside the store: a rebuild needs it
    finally:
        store.close()
    path = Path(out) if out else folder / "boards" / f"{board}.toml"
    written_ca = ""
    if out is None:
        private_folder(path.parent)
    if ca_file is not None:
        target = path.parent / "hub-ca.pem"
        path.parent.mkdir(parents=True, exist_ok=True)
        if Path(ca_file).resolve() != target.resolve():
            shutil.copyfile(ca_file, target)
            target.chmod(0o600)
        written_ca = target.name
    config = LinkConfig(host, port, tls, written_ca, board, board, password, key)
    write(path, config, written_ca)
    return Added(path, config, files.reload())


@dataclass(frozen=True)
class Removed:
    board: str
    games: int
    reloaded: bool


def remove_board(folder: str | Path, board: str) -> Removed:
    """Retire a board (a typo in ``board-add``, a spare left at home): its credential is
    revoked at the broker (a running broker drops its connection), it leaves the Boards page
    and the wall, its stored games stay the event's. Refused while it stands at a table or
    plays a pairing that has no result: seat another board there first (the arbiter's "Move
    to another board")."""
    folder = Path(folder)
    board = check_board_id(board)
    if not (folder / FILENAME).exists():
        raise ValueError(f"{folder}: no hub here (start the hub with --dir {folder} once)")
    _check_free(folder, board)
    settings = load_or_create(folder)
    store = Store(folder / FILENAME, settings.event)
    try:
        if store.board_key(board) is None or board in store.removed_boards():
            known = ", ".join(b["id"] for b in store.boards()) or "none"
            raise ValueError(f"no board {board} in this hub (its boards: {known})")
        games = len(store.games(board=board))
        files = BrokerFiles(folder)
        files.remove(board)
        store.remove_board(board)
    finally:
        store.close()
    return Removed(board, games, files.reload())


def _check_free(folder: Path, board: str) -> None:
    """A board still needed by the tournament is not retired."""
    from controller.tournament import boards as seating
    from controller.tournament.store import FILE_NAME
    from controller.tournament.tournament import Tournament

    if not (folder / FILE_NAME).exists():
        return
    t = Tournament.open(folder)
    try:
        for (division, table), seated in seating.seats(t).items():
            if seated == board:
                raise ValueError(
                    f"board {board} stands at table {table} of division {division!r}: seat "
                    f"another board there first (`hub seat --table {table} --board …`)"
                )
        results = t.results()
        for pid, d in seating.dispatches(t).items():
            if d.board == board and pid not in results:
                p = next(x for x in t.pairings() if x.id == pid)
                raise ValueError(
                    f"board {board} plays round {p.round}, table {p.table} (no result yet): "
                    "move that game to another board first"
                )
    finally:
        t.close()
