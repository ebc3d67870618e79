"""What the progress pages read of a child's puzzles (issue 29, part 2): totals, the weeks,
and forgetting a child. Every function tolerates a missing store (a class that has not
solved any puzzle yet): zero, or empty, never an error."""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from controller.ratings import glicko2

from .store import connect, present, puzzle_db_path

__all__ = [
    "SolverAttempt",
    "SolverSummary",
    "WeekPuzzles",
    "forget_attempts",
    "forget_solver",
    "held",
    "present",
    "puzzle_db_path",
    "rename_attempts",
    "rename_solver",
    "solver_attempts",
    "solver_summary",
    "solver_weeks",
]


@dataclass(frozen=True)
class SolverSummary:
    solved: int
    """Puzzles the child solved (at the first or the second try)."""
    tried: int
    """Puzzles the child tried."""
    rating: float
    deviation: float


@dataclass(frozen=True)
class WeekPuzzles:
    week: str
    """The ISO week, ``2026-W48``."""
    solved: int
    tried: int
    rating: float
    """The child's puzzle rating at the week's end."""


def _has_store(db: Path) -> bool:
    if not present(db):
        return False
    with connect(db, create=False) as conn:
        return (
            conn.execute("SELECT 1 FROM sqlite_master WHERE name='attempts'").fetchone() is not None
        )


def solver_summary(db: Path, child: str) -> SolverSummary:
    """The child's puzzles so far and the rating now (a newcomer's, 1500 ± 350, before any)."""
    if not _has_store(db):
        return SolverSummary(0, 0, glicko2.START_RATING, glicko2.START_RD)
    with connect(db) as conn:
        tried, solved = conn.execute(
            "SELECT COUNT(DISTINCT puzzle), COUNT(DISTINCT CASE WHEN correct THEN puzzle END) "
            "FROM attempts WHERE child = ?",
            (child,),
        ).fetchone()
        row = conn.execute("SELECT rating, rd FROM solvers WHERE child = ?", (child,)).fetchone()
    rating, rd = row if row else (glicko2.START_RATING, glicko2.START_RD)
    return SolverSummary(int(solved), int(tried), float(rating), float(rd))


def _week(at: float) -> str:
    year, week, _day = datetime.datetime.fromtimestamp(at, datetime.UTC).isocalendar()
    return f"{year}-W{week:02d}"


def solver_weeks(db: Path, child: str) -> list[WeekPuzzles]:
    """The weeks the child tried puzzles, oldest first: the puzzles tried and solved that
    week (a puzzle counts once a week) and the rating after the week's last answer."""
    if not _has_store(db):
        return []
    with connect(db) as conn:
        rows = conn.execute(
            "SELECT puzzle, correct, at, child_rating FROM attempts WHERE child = ? "
            "ORDER BY at, id",
            (child,),
        ).fetchall()
    weeks: dict[str, tuple[set[str], set[str], float]] = {}
    for puzzle, correct, at, rating in rows:
        tried, solved, _ = weeks.get(_week(at), (set(), set(), 0.0))
        tried.add(puzzle)
        if correct:
            solved.add(puzzle)
        weeks[_week(at)] = (tried, solved, float(rating))
    return [WeekPuzzles(w, len(s), len(t), r) for w, (t, s, r) in weeks.items()]


@contextmanager
def held(db: Path) -> Iterator[sqlite3.Connection | None]:
    """The store in one write transaction, committed when the block ends and rolled back if it
    raises (the teacher's acts change it and the progress store together or not at all); None
    for a class with no answers yet. Anything else in its place (a folder, a damaged file, a
    newer board's store) is a StoreError before anything changes."""
    if not present(db):
        yield None
        return
    with connect(db, create=False) as conn:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name='attempts'").fetchone() is None:
            yield None
            return
        conn.execute("BEGIN IMMEDIATE")
        yield conn


def forget_attempts(conn: sqlite3.Connection | None, child: str) -> int:
    """Every attempt and the rating of one child deleted in ``held``'s transaction (the Data
    Privacy Act's erasure); how many rows went. The puzzles keep the ratings the child's
    answers gave them."""
    if conn is None:
        return 0
    gone = conn.execute("DELETE FROM attempts WHERE child = ?", (child,)).rowcount
    gone += conn.execute("DELETE FROM solvers WHERE child = ?", (child,)).rowcount
    return int(gone)


def forget_solver(db: Path, child: str) -> int:
    """``forget_attempts`` in a transaction of its own."""
    with held(db) as conn:
        return forget_attempts(conn, child)


@dataclass(frozen=True)
class SolverAttempt:
    """One answer of a child, as the export carries it (the Data Privacy Act's access)."""

    puzzle: str
    at: str
    """When, in UTC, ISO 8601 to the second."""
    answer: str
    """The move, as the store keeps it (the squares' digits, ``"21 32"``)."""
    correct: bool
    first_try: bool
    rating_after: float
    """The child's puzzle rating after the answer (a second try moves nothing)."""
    puzzle_rating_after: float


def solver_attempts(db: Path, child: str) -> list[SolverAttempt]:
    """Every answer the child gave, oldest first."""
    if not _has_store(db):
        return []
    with connect(db) as conn:
        rows = conn.execute(
            "SELECT puzzle, at, answer, correct, first_try, child_rating, puzzle_rating "
            "FROM attempts WHERE child = ? ORDER BY at, id",
            (child,),
        ).fetchall()
    return [
        SolverAttempt(
            str(puzzle),
            datetime.datetime.fromtimestamp(at, datetime.UTC).isoformat(timespec="seconds"),
            str(answer),
            bool(correct),
            bool(first),
            float(rating),
            float(p_rating),
        )
        for puzzle, at, answer, correct, first, rating, p_rating in rows
    ]


def rename_attempts(conn: sqlite3.Connection | None, old: str, new: str) -> int:
    """The child's attempts and rating under the new name (the teacher corrected a spelling),
    in ``held``'s transaction; how many rows moved. Attempts already under the new name (a
    child removed from the list earlier) stay and join; the rating is the renamed child's, the
    one on the list now."""
    if conn is None or old == new:
        return 0
    moved = conn.execute("UPDATE attempts SET child = ? WHERE child = ?", (new, old)).rowcount
    if conn.execute("SELECT 1 FROM solvers WHERE child = ?", (old,)).fetchone():
        conn.execute("DELETE FROM solvers WHERE child = ?", (new,))
        moved += conn.execute("UPDATE solvers SET child = ? WHERE child = ?", (new, old)).rowcount
    return int(moved)


def rename_solver(db: Path, old: str, new: str) -> int:
    """``rename_attempts`` in a transaction of its own."""
    with held(db) as conn:
        return rename_attempts(conn, old, new)
