"""The hub's store: one SQLite file per event directory, a copy of every board's journal.

WAL with ``synchronous=FULL``: a transaction the hub has committed (and only then acknowledged
to the board) survives a SIGKILL or a power cut of the laptop. Records are keyed on
(board, game, seq), so a record sent twice is stored once. Events, rounds, boards and
assignments are tables of their own, ready for the tournament (pairings, players, results) to
build on; ``SCHEMA`` grows by appending migrations, never by editing one that has run.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .folder import private_file, private_folder, sqlite_files

FILENAME = "hub.sqlite"
KEEP_REJECTS = 2000

SCHEMA = (
    # 1: the hub of issue 14
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        UNIQUE (event_id, number)
    );
    CREATE TABLE boards (
        id TEXT PRIMARY KEY,
        hmac_key TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        created REAL NOT NULL,
        last_contact REAL,
        online INTEGER NOT NULL DEFAULT 0,
        software TEXT,
        firmware TEXT,
        problems TEXT NOT NULL DEFAULT '[]',
        state TEXT
    );
    CREATE TABLE assignments (
        id TEXT PRIMARY KEY,
        board_id TEXT NOT NULL REFERENCES boards(id),
        round_id INTEGER REFERENCES rounds(id),
        payload TEXT NOT NULL,
        created REAL NOT NULL,
        cleared REAL
    );
    CREATE TABLE games (
        board_id TEXT NOT NULL REFERENCES boards(id),
        game_id TEXT NOT NULL,
        round_id INTEGER REFERENCES rounds(id),
        assignment_id TEXT,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL,
        last_seq INTEGER NOT NULL,
        head TEXT NOT NULL,
        supersedes TEXT,
        summary TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (board_id, game_id)
    );
    CREATE TABLE records (
        board_id TEXT NOT NULL,
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        hash TEXT NOT NULL,
        prev TEXT NOT NULL,
        record TEXT NOT NULL,
        info TEXT NOT NULL,
        envelope TEXT NOT NULL,
        received REAL NOT NULL,
        PRIMARY KEY (board_id, game_id, seq),
        FOREIGN KEY (board_id, game_id) REFERENCES games(board_id, game_id)
    ) WITHOUT ROWID;
    CREATE TABLE rejects (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        board_id TEXT,
        topic TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        size INTEGER NOT NULL,
        sample TEXT NOT NULL
    );
    CREATE TABLE counters (
        board_id TEXT NOT NULL,
        name TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (board_id, name)
    ) WITHOUT ROWID;
    CREATE INDEX games_round ON games(round_id);
    """,
    # 2: a board retired (``hub board-remove``): its credential revoked, its games kept
    """
    ALTER TABLE boards ADD COLUMN removed REAL;
    """,
    # 3: the game a board says it plays (its presence's ``plays``): no table of another is sent
    """
    ALTER TABLE boards ADD COLUMN plays TEXT;
    """,
)


class Store:
    """One writing connection, used under a lock (the ingest thread, and the few writes of the
    web's organiser actions), and a reading connection per thread for everything else: in WAL
    mode a reader sees the last commit and never waits for a writer, so the web's pages
    (the organiser's board list under load) do not wait for an ingest transaction."""

    def __init__(self, path: str | Path, event_name: str = "") -> None:
        self.path = Path(path)
        private_folder(self.path.parent)
        private_file(self.path)  # 0600 before SQLite opens it: its -wal and -shm follow
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        self._owner: int | None = None
        """The thread inside a transaction: its queries see what it wrote."""
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=10000")
        for extra in sqlite_files(self.path)[1:]:  # a store made by an earlier version
            if extra.exists():
                extra.chmod(0o600)
        self._migrate()
        with self.transaction():
            if self.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0:
                self.db.execute(
                    "INSERT INTO events (name, created) VALUES (?, ?)",
                    (event_name or self.path.parent.name, time.time()),
                )
        self.event_id = self.db.execute("SELECT MIN(id) FROM events").fetchone()[0]
        if event_name and event_name != self.event_name:
            with self.transaction() as db:
                db.execute("UPDATE events SET name = ? WHERE id = ?", (event_name, self.event_id))

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for n, script in enumerate(SCHEMA[version:], start=version + 1):
            with self.transaction():
                for statement in script.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version={n}")

    @contextmanager
    def transaction(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction. ``durable=False`` (nothing in it is acknowledged to anyone) skips
        the fsync of its commit: it reaches the disk with the next durable commit, and a
        crash before that loses only it, never the order of what is stored."""
        with self.lock:
            outer, self._owner = self._owner, threading.get_ident()
            try:
                if not durable:
                    self.db.execute("PRAGMA synchronous=NORMAL")
                try:
                    self.db.execute("BEGIN IMMEDIATE")
                    try:
                        yield self.db
                    except BaseException:
                        if self.db.in_transaction:
                            self.db.execute("ROLLBACK")
                        raise
                    try:
                        self.db.execute("COMMIT")
                    except BaseException:
                        if self.db.in_transaction:  # the commit failed (a full disk)
                            self.db.execute("ROLLBACK")
                        raise
                finally:
                    if not durable:
                        self.db.execute("PRAGMA synchronous=FULL")
            finally:
                self._owner = outer

    def close(self) -> None:
        with self.lock, self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self.db.close()

    def _reader(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA query_only=ON")
            db.execute("PRAGMA busy_timeout=10000")
            self._local.db = db
            with self._readers_lock:
                self._readers.append(db)
        return db

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Rows of a read: inside this thread's transaction on its connection (it sees its
        own writes), else on the thread's reading connection (never waiting for a writer)."""
        if self._owner == threading.get_ident():
            return self.db.execute(sql, args).fetchall()
        return self._reader().execute(sql, args).fetchall()

    # ------------------------------------------------------------------ event and rounds

    @property
    def event_name(self) -> str:
        return str(self.query("SELECT name FROM events WHERE id = ?", (self.event_id,))[0]["name"])

    def round_id(self, db: sqlite3.Connection, number: int) -> int:
        """Inside a transaction: the round's row, made on first use."""
        db.execute(
            "INSERT OR IGNORE INTO rounds (event_id, number, name) VALUES (?, ?, ?)",
            (self.event_id, number, f"Round {number}"),
        )
        return int(
            db.execute(
                "SELECT id FROM rounds WHERE event_id = ? AND number = ?", (self.event_id, number)
            ).fetchone()[0]
        )

    def rounds(self) -> list[dict[str, Any]]:
        """Every round with its number of games; round 0 holds games played without an
        assignment (free play)."""
        rows = self.query(
            "SELECT COALESCE(r.number, 0) AS number, COALESCE(r.name, 'Free play') AS name, "
            "COUNT(*) AS games FROM games g LEFT JOIN rounds r ON r.id = g.round_id "
            "GROUP BY COALESCE(r.number, 0) ORDER BY 1"
        )
        return [dict(r) for r in rows]

    # ------------------------------------------------------------------ boards

    def add_board(self, board: str, key_hex: str, label: str = "") -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO boards (id, hmac_key, label, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET hmac_key = excluded.hmac_key, removed = NULL",
                (board, key_hex, label, time.time()),
            )

    def remove_board(self, board: str) -> None:
        """The board is retired: no longer listed or shown; its key and games stay (its
        stored games are the event's), its assignment is cleared."""
        with self.transaction() as db:
            db.execute(
                "UPDATE boards SET removed = ?, online = 0 WHERE id = ?", (time.time(), board)
            )
            db.execute(
                "UPDATE assignments SET cleared = ? WHERE board_id = ? AND cleared IS NULL",
                (time.time(), board),
            )

    def removed_boards(self) -> set[str]:
        rows = self.query("SELECT id FROM boards WHERE removed IS NOT NULL")
        return {r["id"] for r in rows}

    def board_key(self, board: str) -> bytes | None:
        rows = self.query("SELECT hmac_key FROM boards WHERE id = ?", (board,))
        return bytes.fromhex(rows[0]["hmac_key"]) if rows else None

    def boards(self, removed: bool = False) -> list[dict[str, Any]]:
        """The boards in service (``removed``: the retired ones too)."""
        rows = self.query(
            "SELECT id, label, created, last_contact, online, software, firmware, problems, state, "
            "plays "
            "FROM boards " + ("" if removed else "WHERE removed IS NULL ") + "ORDER BY id"
        )
        out = []
        for r in rows:
            d = dict(r)
            d["problems"] = json.loads(d["problems"] or "[]")
            d["state"] = json.loads(d["state"]) if d["state"] else None
            out.append(d)
        return out

    def touch_board(self, db: sqlite3.Connection, board: str, at: float, **fields: Any) -> None:
        """Inside a transaction: last contact, and whichever of online/software/... is given."""
        sets: list[str] = ["last_contact = ?"]
        args: list[Any] = [at]
        for name in ("online", "software", "firmware", "plays"):
            if name in fields:
                sets.append(f"{name} = ?")
                args.append(fields[name])
        for name in ("problems", "state"):
            if name in fields:
                sets.append(f"{name} = ?")
                args.append(json.dumps(fields[name]))
        db.execute(f"UPDATE boards SET {', '.join(sets)} WHERE id = ?", (*args, board))

    # ------------------------------------------------------------------ games and records

    def heads(self) -> dict[tuple[str, str], tuple[int, str]]:
        rows = self.query("SELECT board_id, game_id, last_seq, head FROM games")
        return {(r["board_id"], r["game_id"]): (r["last_seq"], r["head"]) for r in rows}

    def record_hash(self, board: str, game: str, seq: int) -> str | None:
        rows = self.query(
            "SELECT hash FROM records WHERE board_id = ? AND game_id = ? AND seq = ?",
            (board, game, seq),
        )
        return rows[0]["hash"] if rows else None

    def records(self, board: str, game: str) -> list[dict[str, Any]]:
        rows = self.query(
            "SELECT record FROM records WHERE board_id = ? AND game_id = ? ORDER BY seq",
            (board, game),
        )
        return [json.loads(r["record"]) for r in rows]

    def record_rows(
        self, board: str, game: str, kinds: tuple[str, ...] | None = None
    ) -> list[dict[str, Any]]:
        """A game's records in order; with ``kinds``, only records of those kinds."""
        only = f" AND kind IN ({', '.join('?' * len(kinds))})" if kinds else ""
        rows = self.query(
            "SELECT seq, kind, hash, record, info, received FROM records "
            f"WHERE board_id = ? AND game_id = ?{only} ORDER BY seq",
            (board, game, *(kinds or ())),
        )
        out = []
        for r in rows:
            d = dict(r)
            d["record"], d["info"] = json.loads(d["record"]), json.loads(d["info"])
            out.append(d)
        return out

    def games(
        self, round_number: int | None = None, board: str | None = None
    ) -> list[dict[str, Any]]:
        sql = (
            "SELECT g.board_id, g.game_id, COALESCE(r.number, 0) AS round, g.assignment_id, "
            "g.first_seen, g.last_seen, g.last_seq, g.supersedes, g.summary FROM games g "
            "LEFT JOIN rounds r ON r.id = g.round_id WHERE 1 = 1"
        )
        args: list[Any] = []
        if round_number is not None:
            sql += " AND COALESCE(r.number, 0) = ?"
            args.append(round_number)
        if board is not None:
            sql += " AND g.board_id = ?"
            args.append(board)
        sql += " ORDER BY g.board_id, g.first_seen"
        out = []
        for r in self.query(sql, tuple(args)):
            d = dict(r)
            d["summary"] = json.loads(d["summary"])
            out.append(d)
        return out

    def game(self, board: str, game: str) -> dict[str, Any] | None:
        rows = [g for g in self.games(board=board) if g["game_id"] == game]
        return rows[0] if rows else None

    def insert_record(self, db: sqlite3.Connection, env: Any, received: float) -> None:
        """Inside a transaction: one verified record (the caller checked seq and chain)."""
        db.execute(
            "INSERT INTO records (board_id, game_id, seq, kind, hash, prev, record, info, "
            "envelope, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                env.board,
                env.game,
                env.seq,
                env.kind,
                env.hash,
                env.prev,
                json.dumps(env.record, sort_keys=True, separators=(",", ":")),
                json.dumps(env.info, sort_keys=True, separators=(",", ":")),
                env.payload().decode("ascii"),
                received,
            ),
        )

    def upsert_game(
        self,
        db: sqlite3.Connection,
        board: str,
        game: str,
        seq: int,
        head: str,
        at: float,
        summary: dict[str, Any],
        round_id: int | None,
        assignment: str | None,
        supersedes: str | None = None,
    ) -> None:
        db.execute(
            "INSERT INTO games (board_id, game_id, round_id, assignment_id, first_seen, last_seen, "
            "last_seq, head, supersedes, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (board_id, game_id) DO UPDATE SET last_seen = excluded.last_seen, "
            "last_seq = excluded.last_seq, head = excluded.head, summary = excluded.summary, "
            "round_id = COALESCE(excluded.round_id, games.round_id), "
            "assignment_id = COALESCE(excluded.assignment_id, games.assignment_id)",
            (board, game, round_id, assignment, at, at, seq, head, supersedes, json.dumps(summary)),
        )

    # ------------------------------------------------------------------ assignments

    def assignment(self, ident: str) -> dict[str, Any] | None:
        rows = self.query("SELECT payload FROM assignments WHERE id = ?", (ident,))
        return json.loads(rows[0]["payload"]) if rows else None

    def current_assignments(self) -> dict[str, dict[str, Any]]:
        rows = self.query(
            "SELECT board_id, payload FROM assignments WHERE cleared IS NULL ORDER BY created"
        )
        return {r["board_id"]: json.loads(r["payload"]) for r in rows}

    def add_assignment(
        self, ident: str, board: str, round_id: int, payload: dict[str, Any]
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE assignments SET cleared = ? WHERE board_id = ? AND cleared IS NULL",
                (time.time(), board),
            )
            db.execute(
                "INSERT INTO assignments (id, board_id, round_id, payload, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (ident, board, round_id, json.dumps(payload), time.time()),
            )

    def clear_assignment(self, board: str) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE assignments SET cleared = ? WHERE board_id = ? AND cleared IS NULL",
                (time.time(), board),
            )

    # ------------------------------------------------------------------ rejects and counters

    def count(self, db: sqlite3.Connection, board: str | None, name: str, n: int = 1) -> None:
        db.execute(
            "INSERT INTO counters (board_id, name, n) VALUES (?, ?, ?) "
            "ON CONFLICT (board_id, name) DO UPDATE SET n = n + excluded.n",
            (board or "", name, n),
        )

    def reject(
        self,
        db: sqlite3.Connection,
        at: float,
        board: str | None,
        topic: str,
        reason: str,
        detail: str,
        payload: bytes,
        count: int = 1,
    ) -> None:
        """Inside a transaction: one refused message in the problems list (the last
        ``KEEP_REJECTS``), and ``count`` more under the board's ``rejected:<reason>``."""
        sample = payload[:200].decode("utf-8", "replace")
        db.execute(
            "INSERT INTO rejects (at, board_id, topic, reason, detail, size, sample) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (at, board, topic[:200], reason, detail[:500], len(payload), sample),
        )
        if count:
            self.count(db, board, f"rejected:{reason}", count)
        db.execute(
            "DELETE FROM rejects WHERE id <= (SELECT MAX(id) FROM rejects) - ?", (KEEP_REJECTS,)
        )

    def counters(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for r in self.query("SELECT board_id, name, n FROM counters"):
            out.setdefault(r["board_id"], {})[r["name"]] = r["n"]
        return out

    def rejects(self, limit: int = 100) -> list[dict[str, Any]]:
        rows = self.query(
            "SELECT at, board_id, topic, reason, detail, size, sample FROM rejects "
            "ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return [dict(r) for r in rows]
