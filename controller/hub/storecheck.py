"""The store checked at start, backed up during the event, and rebuilt when it is lost.

The hub acknowledges a record only once it is on its disk, and a board never sends an
acknowledged record again by itself: a store emptied, truncated or with garbage in its WAL
would silently lose the round. So (docs/hall.md, "A damaged store"):

- **What it held** is written beside it after commits (``hub.expect``: its games and records,
  at most a second behind the store, never ahead of it: it is written after the commit);
- **at start** the store must pass SQLite's ``quick_check`` and hold at least what
  ``hub.expect`` says, and a store that is missing while backups exist is missing; else the hub
  refuses to serve it, with the recovery in one message (``StoreDamaged``), never a traceback;
- **backups**: SQLite's online backup (a consistent copy while the hub writes) into
  ``DIR/backups/``: ``hub-round-N.sqlite`` when round N is sent to the boards (what was played
  before it), ``hub-latest.sqlite`` every ``BACKUP_EVERY`` seconds;
- **rebuild** (``hub --rebuild``): the damaged files moved to ``DIR/damaged/<time>/``, the last
  good backup as the new store (or an empty one), the boards' keys from ``DIR/keys.json`` (kept
  beside the store by ``board-add``), the tournament's assignments put back, and every board
  asked to send every game again from its first record (``damath/v1/boards/<id>/resend``,
  docs/mqtt.md): the boards' journals are the source of truth, and the hub stores each record
  once however often it comes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .folder import private_folder, sqlite_files
from .store import FILENAME

log = logging.getLogger("damath-board.hub.store")
MARKER = "hub.expect"
KEYS = "keys.json"
BACKUPS = "backups"
DAMAGED = "damaged"
LATEST = "hub-latest.sqlite"
BACKUP_EVERY = 600.0
REBUILD_HOURS = 2.0
"""While a rebuild runs, new games are not limited: every board sends all its games again."""


class StoreDamaged(ValueError):
    """The store cannot be served: the message says what is wrong and how to recover."""


@dataclass(frozen=True)
class Held:
    games: int
    records: int
    at: float = 0.0


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def read_marker(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def expected(folder: Path) -> Held:
    data = read_marker(folder)
    try:
        return Held(
            int(data.get("games", 0)), int(data.get("records", 0)), float(data.get("at", 0))
        )
    except (TypeError, ValueError):
        return Held(0, 0)


def write_marker(folder: Path, held: Held, **extra: Any) -> None:
    """What the store holds now (called after a commit: never more than is on the disk)."""
    data = {**read_marker(folder), **extra}
    data.update(v=1, games=held.games, records=held.records, at=held.at or time.time())
    _write(folder / MARKER, data)


def count(db: sqlite3.Connection) -> Held:
    games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    records = db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    return Held(int(games), int(records))


def _stamp(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at else "earlier"


def inspect(path: Path) -> tuple[str, Held]:
    """('', what it holds) for a sound store, else (what is wrong, Held(0, 0))."""
    if not path.exists():
        return "is missing", Held(0, 0)
    if path.stat().st_size == 0:
        return "is empty (0 bytes)", Held(0, 0)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = [r[0] for r in db.execute("PRAGMA quick_check").fetchall()]
            if rows != ["ok"]:
                return f"is damaged (SQLite's check: {'; '.join(map(str, rows[:3]))})", Held(0, 0)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if not {"games", "records", "boards"} <= tables:
                return "has lost its tables", Held(0, 0)
            return "", count(db)
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return f"cannot be read ({exc})", Held(0, 0)


def backups(folder: Path) -> list[Path]:
    """The backups, newest first."""
    found = [p for p in (folder / BACKUPS).glob("hub-*.sqlite") if p.is_file()]
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def check(folder: Path) -> Held:
    """What the store holds, or StoreDamaged with the recovery."""
    path = folder / FILENAME
    want = expected(folder)
    problem, held = inspect(path)
    kept = backups(folder)
    new = ("is missing", "is empty (0 bytes)", "has lost its tables")
    if problem in new and not want.records and not kept:
        return held  # a new event (or one whose first start was cut short)
    if not problem and held.records >= want.records:
        return held
    if not problem:
        problem = (
            f"lost what it had: it held {want.records} records of {want.games} games at "
            f"{_stamp(want.at)}, it holds {held.records} records of {held.games} games now"
        )
    elif want.records:
        problem += f" (it held {want.records} records of {want.games} games at {_stamp(want.at)})"
    raise StoreDamaged(recovery(folder, problem, kept))


def recovery(folder: Path, problem: str, kept: list[Path]) -> str:
    backup = (
        f"the last good backup ({kept[0].name}, {_stamp(kept[0].stat().st_mtime)})"
        if kept
        else "an empty store (there is no backup)"
    )
    return (
        f"the store {folder / FILENAME} {problem}; the hub does not serve it.\n"
        "Nothing is lost for good: every board keeps its games in its own journal.\n"
        "To recover, stop nothing else and run:\n"
        f"  damath-board hub --dir {folder} --rebuild [your other options]\n"
        f"It moves the damaged files to {folder / DAMAGED}/, starts from {backup}, and asks "
        "every board to send all its games again from the start; they come back as the "
        'boards reconnect (the board list shows it). See docs/hall.md, "A damaged store".'
    )


def prepare_rebuild(folder: Path) -> str:
    """Before the store opens for ``--rebuild``: a damaged or lost store moved aside and the
    last good backup put in its place. Returns what was done, for the organiser."""
    path = folder / FILENAME
    problem, held = inspect(path)
    want = expected(folder)
    done = []
    if problem or held.records < want.records:
        aside = private_folder(folder / DAMAGED / time.strftime("%Y%m%d-%H%M%S"))
        for f in sqlite_files(path):
            if f.exists():
                shutil.move(str(f), aside / f.name)
        done.append(f"the store moved to {aside}")
        for backup in backups(folder):
            if not inspect(backup)[0]:
                restore(backup, path)
                done.append(f"started from the backup {backup.name}")
                break
        else:
            done.append("started from an empty store")
    write_marker(
        folder,
        inspect(path)[1],
        rebuild={"at": time.time(), "until": time.time() + REBUILD_HOURS * 3600,
                 "expected": {"games": want.games, "records": want.records}},
    )  # fmt: skip
    return "; ".join(done) or "the store is sound: the boards are asked for their games again"


def restore(backup: Path, path: Path) -> None:
    tmp = path.with_name(path.name + ".restoring")
    shutil.copyfile(backup, tmp)
    tmp.chmod(0o600)
    os.replace(tmp, path)


def rebuilding_until(folder: Path) -> float:
    info = read_marker(folder).get("rebuild")
    try:
        return float(info["until"]) if isinstance(info, dict) else 0.0
    except (KeyError, TypeError, ValueError):
        return 0.0


# ---------------------------------------------------------------------------- the boards' keys


def save_key(folder: Path, board: str, key_hex: str) -> None:
    """Keep a board's key beside the store (the store's loss must not lose the keys that check
    what the boards send again)."""
    keys = load_keys(folder)
    keys[board] = key_hex
    _write(folder / KEYS, {"v": 1, "keys": keys})


def load_keys(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / KEYS).read_text(encoding="utf-8"))
        keys = data.get("keys", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {k: v for k, v in keys.items() if isinstance(k, str) and isinstance(v, str)}


# ---------------------------------------------------------------------------- backups


class Backups:
    """SQLite's online backup of the store into ``DIR/backups/``, in a thread of its own and on
    a connection of its own (it reads a snapshot: the hub goes on writing meanwhile)."""

    def __init__(self, folder: Path, every: float = BACKUP_EVERY) -> None:
        self.folder = folder
        self.every = every
        self.problem = ""
        self.last: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="hub-backups", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.backup(LATEST)

    def round(self, number: int) -> None:
        """Round ``number`` is being sent to the boards: keep the store as it is before it."""
        threading.Thread(
            target=self.backup, args=(f"hub-round-{number}.sqlite",), daemon=True
        ).start()

    def backup(self, name: str) -> Path | None:
        target = private_folder(self.folder / BACKUPS) / name
        tmp = target.with_name(target.name + ".tmp")
        with self._lock:
            try:
                src = sqlite3.connect(self.folder / FILENAME)
                try:
                    tmp.unlink(missing_ok=True)
                    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT, 0o600)
                    os.close(fd)
                    dst = sqlite3.connect(tmp)
                    try:
                        src.backup(dst)  # all pages in one step: one consistent snapshot
                        dst.execute("PRAGMA journal_mode=DELETE")
                        held = count(dst)
                    finally:
                        dst.close()
                finally:
                    src.close()
                os.replace(tmp, target)
            except (OSError, sqlite3.Error) as exc:
                with contextlib.suppress(OSError):
                    tmp.unlink(missing_ok=True)
                if not self.problem:  # one line when backups start failing, not one each
                    log.error("hub: cannot back up the store into %s: %s", target.parent, exc)
                self.problem = f"backup failed: {exc}"
                return None
        if self.problem:
            log.warning("hub: the store is backed up again (%s)", target.name)
        self.problem = ""
        self.last = {"file": str(target), "at": time.time(), "records": held.records}
        return target
