"""The progress store: one SQLite file (``progress.sqlite`` in the simulator's state folder).

Why SQLite: one file a teacher can copy, transactions (an indexer stopped half-way leaves the
file as it was), and queries per child and per week without loading the term. A file this code
cannot read (damaged, another program's, a newer schema) is never rewritten: ``open_store``
raises ``ProgressError`` with one sentence, and the file stays for the teacher to keep or move.

Tables: ``games`` (one row per kept game file read, by its SHA-256: what makes indexing
idempotent; no names), ``plays`` (one row per child per game: the figures), ``meta`` (the
schema version).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from controller.i18n import _
from controller.rules import damath_data

STORE_FILE = "progress.sqlite"
SCHEMA_VERSION = 2
"""2: each play's best moves of its moves with a choice (the review's figure); 1 had none."""
OPERATIONS = (damath_data.PLUS, damath_data.MINUS, damath_data.TIMES, damath_data.DIVIDE)
"""The four operations as the rules engine names them: + − × ÷ (the minus sign, U+2212)."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    hash TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    board TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL  -- indexed, unfinished, no-roster, unreadable
);
CREATE INDEX games_identity ON games (identity);
CREATE TABLE plays (
    hash TEXT NOT NULL REFERENCES games (hash),
    child TEXT NOT NULL,
    side INTEGER NOT NULL,
    played TEXT NOT NULL,   -- ISO date
    week TEXT NOT NULL,     -- ISO week, 2026-W48
    variant TEXT NOT NULL,
    result TEXT NOT NULL,   -- win, loss, draw
    score TEXT NOT NULL,    -- the child's grand total as the sheet writes it
    opponent_score TEXT NOT NULL,
    reviewed INTEGER NOT NULL,
    lost TEXT,              -- points lost, an exact Fraction ("7/2"), NULL: not reviewed
    moves INTEGER NOT NULL,
    add_all INTEGER NOT NULL, add_best INTEGER NOT NULL,
    sub_all INTEGER NOT NULL, sub_best INTEGER NOT NULL,
    mul_all INTEGER NOT NULL, mul_best INTEGER NOT NULL,
    div_all INTEGER NOT NULL, div_best INTEGER NOT NULL,
    choices INTEGER,        -- moves with more than one legal move (NULL: a first-schema row)
    best_moves INTEGER,     -- of those, as good as the engine's best (the review's figure)
    PRIMARY KEY (hash, side)
);
CREATE INDEX plays_child ON plays (child, week);
"""
_OP_COLUMNS = (("add_all", "add_best"), ("sub_all", "sub_best"), ("mul_all", "mul_best"),
               ("div_all", "div_best"))  # fmt: skip


class ProgressError(Exception):
    """The store cannot be used; the message says why and what to do, in one sentence."""


@dataclass(frozen=True)
class Play:
    """One child's side of one game, as stored."""

    child: str
    side: int
    played: str
    week: str
    variant: str
    result: str
    score: str
    opponent_score: str
    reviewed: bool
    lost: Fraction | None
    moves: int
    operations: tuple[tuple[int, int], ...]
    """Per operation (``OPERATIONS`` order): (takings, best takings) of the moves with a choice."""
    choices: int | None = None
    """The moves with a choice (None: a first-schema row not read again yet)."""
    best_moves: int | None = None
    hash: str = ""

    def json(self) -> dict[str, object]:
        return {
            "child": self.child,
            "side": "blue" if self.side == 0 else "red",
            "date": self.played,
            "week": self.week,
            "variant": self.variant,
            "result": self.result,
            "score": self.score,
            "opponent_score": self.opponent_score,
            "reviewed": self.reviewed,
            "points_lost": None if self.lost is None else str(self.lost),
            "moves": self.moves,
            "choices": self.choices,
            "best_moves": self.best_moves,
            "operations": {
                op: {"takings": n, "best": best}
                for op, (n, best) in zip(OPERATIONS, self.operations, strict=True)
            },
            "game": self.hash,
        }


class Store:
    """The open store. Each method is one transaction."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        try:
            with self.db:
                yield self.db
        except sqlite3.DatabaseError as exc:
            raise ProgressError(_damaged(self.path, exc)) from None

    def known(self, digest: str) -> bool:
        row = self.db.execute("SELECT 1 FROM games WHERE hash = ?", (digest,)).fetchone()
        return row is not None

    def hashes(self) -> set[str]:
        """Every file read so far (one query: a scan of the boards stays cheap)."""
        return {row[0] for row in self.db.execute("SELECT hash FROM games")}

    def identity_known(self, identity: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM games WHERE identity = ? AND status = 'indexed'", (identity,)
        ).fetchone()
        return row is not None

    def add_game(
        self, digest: str, identity: str, board: str, name: str, status: str, plays: Sequence[Play]
    ) -> None:
        """One game file read: its row and its children's figures, together or not at all."""
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                (digest, identity, board, name, status),
            )
            for p in plays:
                ops = [v for pair in p.operations for v in pair]
                db.execute(
                    "INSERT OR REPLACE INTO plays VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (digest, p.child, p.side, p.played, p.week, p.variant, p.result, p.score,
                     p.opponent_score, int(p.reviewed), None if p.lost is None else str(p.lost),
                     p.moves, *ops, p.choices, p.best_moves),
                )  # fmt: skip

    def stale(self) -> dict[str, set[int]]:
        """The games whose figures a first-schema store kept (no best moves): file hash -> the
        sides still kept (a deleted child's side is gone and stays gone)."""
        out: dict[str, set[int]] = {}
        rows = self.db.execute("SELECT hash, side FROM plays WHERE choices IS NULL AND reviewed")
        for digest, side in rows:
            out.setdefault(digest, set()).add(int(side))
        return out

    def refresh(self, digest: str, plays: Sequence[Play]) -> None:
        """A first-schema game read again: each kept side's figures replaced, its child's name
        (perhaps renamed since) and everything else kept."""
        with self._write() as db:
            for p in plays:
                ops = [v for pair in p.operations for v in pair]
                db.execute(
                    "UPDATE plays SET add_all = ?, add_best = ?, sub_all = ?, sub_best = ?, "
                    "mul_all = ?, mul_best = ?, div_all = ?, div_best = ?, choices = ?, "
                    "best_moves = ?, lost = ? WHERE hash = ? AND side = ?",
                    (*ops, p.choices, p.best_moves, None if p.lost is None else str(p.lost),
                     digest, p.side),
                )  # fmt: skip

    def forget_status(self, status: str) -> int:
        """Forget the files skipped for ``status`` (the class list changed: read them again)."""
        with self._write() as db:
            return db.execute("DELETE FROM games WHERE status = ?", (status,)).rowcount

    def plays(self, child: str | None = None) -> list[Play]:
        """Every stored play (of one child), oldest first."""
        sql = "SELECT * FROM plays"
        args: tuple[str, ...] = ()
        if child is not None:
            sql += " WHERE child = ?"
            args = (child,)
        rows = self.db.execute(sql + " ORDER BY played, hash", args).fetchall()
        return [_play(r) for r in rows]

    def children(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT child FROM plays ORDER BY child")]

    @contextmanager
    def held(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed when the block ends and rolled back if it raises:
        the teacher's acts change this store and the puzzles' together or not at all."""
        with self._write() as db:
            db.execute("BEGIN IMMEDIATE")
            yield db

    def rename(self, old: str, new: str) -> int:
        with self._write() as db:
            return rename_plays(db, old, new)

    def forget_child(self, child: str) -> int:
        with self._write() as db:
            return forget_plays(db, child)

    def counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall()
        return {status: n for status, n in rows}


def rename_plays(db: sqlite3.Connection, old: str, new: str) -> int:
    """One child's figures under the new name, in the caller's transaction."""
    return db.execute("UPDATE plays SET child = ? WHERE child = ?", (new, old)).rowcount


def forget_plays(db: sqlite3.Connection, child: str) -> int:
    """Delete one child's figures, in the caller's transaction. The games stay known by hash
    (their files are the boards' records), so the indexer never counts them again."""
    return db.execute("DELETE FROM plays WHERE child = ?", (child,)).rowcount


def _play(row: sqlite3.Row) -> Play:
    ops = tuple((int(row[a]), int(row[b])) for a, b in _OP_COLUMNS)
    return Play(
        child=row["child"],
        side=int(row["side"]),
        played=row["played"],
        week=row["week"],
        variant=row["variant"],
        result=row["result"],
        score=row["score"],
        opponent_score=row["opponent_score"],
        reviewed=bool(row["reviewed"]),
        lost=None if row["lost"] is None else Fraction(row["lost"]),
        moves=int(row["moves"]),
        operations=ops,
        choices=None if row["choices"] is None else int(row["choices"]),
        best_moves=None if row["best_moves"] is None else int(row["best_moves"]),
        hash=row["hash"],
    )


def _damaged(path: Path, exc: BaseException) -> str:
    return _(
        "{path}: the progress file cannot be read ({why}); it was left as it is: move it "
        "aside to start a new one (the games themselves are kept on the boards)"
    ).format(path=path, why=str(exc)[:80])


def _create(db: sqlite3.Connection) -> None:
    """The schema, in an empty file only (never in another program's database), under the
    write lock: two connections opening a new file at once create it once."""
    db.isolation_level = None
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.isolation_level = "DEFERRED"


def _migrate_from_1(db: sqlite3.Connection, path: Path) -> tuple[str]:
    """Schema 1 -> 2: the best-moves columns, empty; the indexer reads those games again
    (``Store.stale``). One transaction: a file is of one schema or the other."""
    db.isolation_level = None
    try:
        db.execute("BEGIN IMMEDIATE")  # two pages opening the file at once migrate it once
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is not None and row[0] == "1":
                db.execute("ALTER TABLE plays ADD COLUMN choices INTEGER")
                db.execute("ALTER TABLE plays ADD COLUMN best_moves INTEGER")
                db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    except sqlite3.DatabaseError as exc:
        db.close()
        raise ProgressError(_damaged(path, exc)) from None
    finally:
        db.isolation_level = "DEFERRED"
    return (str(SCHEMA_VERSION),)


def store_path(state_dir: Path) -> Path:
    return Path(state_dir) / STORE_FILE


def open_store(path: Path) -> Store:
    """Open (or create) the store at ``path``; ``ProgressError`` if it cannot be used."""
    path = Path(path)
    try:
        db = sqlite3.connect(path, check_same_thread=False, timeout=10)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")  # pages read while the indexer writes
        _create(db)
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        db.execute("SELECT hash FROM plays LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise ProgressError(_damaged(path, exc)) from None
    except OSError as exc:
        raise ProgressError(
            _("{path}: the progress file cannot be opened ({why})").format(
                path=path, why=exc.strerror or exc
            )
        ) from None
    if row is not None and row[0] == "1":
        row = _migrate_from_1(db, path)
    if row is None or row[0] != str(SCHEMA_VERSION):
        db.close()
        raise ProgressError(
            _(
                "{path}: the progress file has schema {found}, this board reads {expected}; it "
                "was left as it is"
            ).format(path=path, found=row[0] if row else "?", expected=SCHEMA_VERSION)
        )
    return Store(db, path)
