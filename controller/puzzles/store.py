"""The class's puzzle store: one SQLite file next to the class list (``puzzles.sqlite`` in the
simulator's or the board's state folder) with every puzzle, every child's rating and every
attempt. One file, so the teacher can copy, export or delete it whole; a schema version, so a
newer board reads an older file (and refuses a newer one, or a damaged one, in one line).

Ratings (docs/puzzles.md, "Ratings"): a child's first try at a puzzle is one Glicko-2 game
between the child and the puzzle (solved: the child wins), both ratings move, as lichess rates
its puzzles; a second try is kept but moves nothing (the first answer was the child's own)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from controller.ratings import glicko2
from controller.ratings.glicko2 import Rating

from .model import Puzzle, PuzzleError, from_json

FILE_NAME = "puzzles.sqlite"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY, variant TEXT NOT NULL, themes TEXT NOT NULL, data TEXT NOT NULL,
    rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,
    added REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (variant, rating);
CREATE TABLE IF NOT EXISTS solvers (
    child TEXT PRIMARY KEY, rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, child TEXT NOT NULL, puzzle TEXT NOT NULL,
    answer TEXT NOT NULL, correct INTEGER NOT NULL, first_try INTEGER NOT NULL,
    seconds REAL NOT NULL, at REAL NOT NULL,
    child_rating REAL NOT NULL, child_rd REAL NOT NULL, puzzle_rating REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_child ON attempts (child, at);
"""


class StoreError(RuntimeError):
    """The store cannot be read or written; the text says what to do."""


def puzzle_db_path(state_dir: Path) -> Path:
    """Where the class's puzzles live: beside ``players.txt`` in the state folder."""
    return Path(state_dir) / FILE_NAME


@dataclass(frozen=True)
class Attempt:
    """What one answer did: right or not, first try or not, both ratings after it."""

    correct: bool
    first_try: bool
    child_before: Rating
    child_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


def present(db: Path) -> bool:
    """Whether the class has a puzzle store: False when there is none yet; StoreError when
    something else stands in its place (a folder) or the file is empty (0 bytes: a store is
    never that; it was cut short or damaged), so nothing is taken for "no puzzles yet" and no
    store is made again over it."""
    db = Path(db)
    if not db.exists():
        return False
    if not db.is_file():
        raise StoreError(f"{db}: not a file (something else is in the puzzle store's place)")
    if db.stat().st_size == 0:
        raise StoreError(
            f"{db}: an empty file, not a puzzle store (it may have been damaged); move it away "
            "and generate the puzzles again"
        )
    return True


@contextmanager
def connect(db: Path, *, create: bool = True) -> Iterator[sqlite3.Connection]:
    """The store, opened (and created or migrated when ``create``); StoreError for a file that
    is not a puzzle store, a damaged one, an empty one, a folder in its place, or one written
    by a newer board."""
    db = Path(db)
    present(db)
    try:
        conn = sqlite3.connect(db, timeout=10)
    except sqlite3.Error as exc:
        raise StoreError(f"{db}: cannot open the puzzle store ({exc})") from None
    try:
        try:
            _check(conn, db, create)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{db}: the puzzle store is damaged ({exc}); move it away and generate the "
                "puzzles again"
            ) from None
        with conn:
            yield conn
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{db}: the puzzle store is damaged ({exc})") from None
    finally:
        conn.close()


def _check(conn: sqlite3.Connection, db: Path, create: bool) -> None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "meta" not in tables:
        if tables:
            raise StoreError(f"{db}: not a puzzle store (it has other tables)")
        if not create:
            return
        conn.executescript(SCHEMA)
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        conn.commit()
        return
    row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    version = int(row[0]) if row and str(row[0]).isdigit() else 0
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{db}: written by a newer board (schema {version}, this one reads up to "
            f"{SCHEMA_VERSION}); update this board"
        )
    if version < 1:
        raise StoreError(f"{db}: the puzzle store has no schema version; it is damaged")
    # Migrations from older versions go here, one step each (none yet: version 1 is the first).


def add_puzzles(db: Path, puzzles: list[Puzzle]) -> int:
    """Puzzles into the store (one already there keeps its rating); how many were new."""
    now = time.time()
    new = 0
    with connect(db) as conn:
        for p in puzzles:
            cur = conn.execute(
                "INSERT OR IGNORE INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    p.id,
                    p.variant,
                    " ".join(p.themes),
                    json.dumps(p.json(), ensure_ascii=False),
                    p.rating,
                    glicko2.START_RD,
                    glicko2.START_VOLATILITY,
                    now,
                ),
            )
            new += cur.rowcount
    return new


def _puzzle(data: str, where: str) -> Puzzle:
    try:
        return from_json(json.loads(data), where)
    except (json.JSONDecodeError, PuzzleError) as exc:
        raise StoreError(f"{where}: a damaged puzzle ({exc})") from None


def puzzles(db: Path, variant: str | None = None) -> list[tuple[Puzzle, Rating]]:
    """Every puzzle with its rating now, easiest first."""
    if not present(db):
        return []
    with connect(db, create=False) as conn:
        if not _ready(conn):
            return []
        rows = conn.execute(
            "SELECT id, data, rating, rd, volatility FROM puzzles "
            "WHERE ? IS NULL OR variant = ? ORDER BY rating, id",
            (variant, variant),
        ).fetchall()
    return [(_puzzle(r[1], f"{db}: puzzle {r[0]}"), Rating(r[2], r[3], r[4])) for r in rows]


def puzzle(db: Path, puzzle_id: str) -> tuple[Puzzle, Rating] | None:
    with connect(db) as conn:
        row = conn.execute(
            "SELECT data, rating, rd, volatility FROM puzzles WHERE id = ?", (puzzle_id,)
        ).fetchone()
    if row is None:
        return None
    return _puzzle(row[0], f"{db}: puzzle {puzzle_id}"), Rating(row[1], row[2], row[3])


def _ready(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone() is not None


def solver(conn: sqlite3.Connection, child: str) -> Rating:
    row = conn.execute(
        "SELECT rating, rd, volatility FROM solvers WHERE child = ?", (child,)
    ).fetchone()
    return Rating(*row) if row else Rating()


def solver_rating(db: Path, child: str) -> Rating:
    with connect(db) as conn:
        return solver(conn, child)


def variant_counts(db: Path) -> dict[str, int]:
    """How many puzzles the store holds in each variant (the page offers these)."""
    with connect(db) as conn:
        rows = conn.execute("SELECT variant, COUNT(*) FROM puzzles GROUP BY variant").fetchall()
    return {str(v): int(n) for v, n in rows}


def next_puzzle(db: Path, child: str, variant: str | None = None) -> tuple[Puzzle, Rating] | None:
    """The puzzle nearest the child's rating that the child has not tried yet (then the one
    tried longest ago), so each child climbs at its own pace."""
    with connect(db) as conn:
        me = solver(conn, child)
        row = conn.execute(
            "SELECT p.id, p.data, p.rating, p.rd, p.volatility, "
            "(SELECT MAX(a.at) FROM attempts a WHERE a.child = ? AND a.puzzle = p.id) AS last "
            "FROM puzzles p WHERE ? IS NULL OR p.variant = ? "
            "ORDER BY last IS NOT NULL, last, ABS(p.rating - ?), p.id LIMIT 1",
            (child, variant, variant, me.rating),
        ).fetchone()
    if row is None:
        return None
    return _puzzle(row[1], f"{db}: puzzle {row[0]}"), Rating(row[2], row[3], row[4])


def record_attempt(
    db: Path,
    child: str,
    puzzle_id: str,
    answer: str,
    correct: bool,
    seconds: float,
    at: float | None = None,
) -> Attempt:
    """One answer kept; on the child's first try at this puzzle both ratings move (one
    Glicko-2 game each: the child beat the puzzle, or the puzzle beat the child)."""
    at = time.time() if at is None else at
    with connect(db) as conn:
        row = conn.execute(
            "SELECT rating, rd, volatility FROM puzzles WHERE id = ?", (puzzle_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no puzzle {puzzle_id!r} in {db}")
        p_before = Rating(*row)
        c_before = solver(conn, child)
        tried = conn.execute(
            "SELECT COUNT(*) FROM attempts WHERE child = ? AND puzzle = ?", (child, puzzle_id)
        ).fetchone()[0]
        first = tried == 0
        c_after, p_after = c_before, p_before
        if first:
            score = 1.0 if correct else 0.0
            c_after = glicko2.update(c_before, [glicko2.Game(p_before, score)])
            p_after = glicko2.update(p_before, [glicko2.Game(c_before, 1.0 - score)])
            conn.execute(
                "INSERT OR REPLACE INTO solvers VALUES (?, ?, ?, ?)",
                (child, c_after.rating, c_after.rd, c_after.volatility),
            )
            conn.execute(
                "UPDATE puzzles SET rating = ?, rd = ?, volatility = ? WHERE id = ?",
                (p_after.rating, p_after.rd, p_after.volatility, puzzle_id),
            )
        conn.execute(
            "INSERT INTO attempts (child, puzzle, answer, correct, first_try, seconds, at, "
            "child_rating, child_rd, puzzle_rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                child,
                puzzle_id,
                answer,
                int(correct),
                int(first),
                seconds,
                at,
                c_after.rating,
                c_after.rd,
                p_after.rating,
            ),
        )
    return Attempt(correct, first, c_before, c_after, p_before, p_after)
