"""The one adapter to the puzzles' figures of a child (solved, tried, rating, per week, every
attempt) and the teacher's acts on them (rename, delete), in one transaction with the progress
store's.

The puzzles are another package's (``controller.puzzles.progress``); this package asks here,
never the puzzles directly, so the figures the pages show have one shape whatever the puzzle
store keeps. A class that has not generated puzzles yet has no ``puzzles.sqlite``: its children
have solved none and have no rating yet.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from pathlib import Path
from sqlite3 import Connection
from typing import Any

from controller.puzzles import progress as store
from controller.puzzles.store import StoreError

__all__ = ["StoreError", "attempts", "check", "forget_in", "held", "rename_in", "summary", "weeks"]


@dataclass(frozen=True)
class Puzzles:
    solved: int = 0
    tried: int = 0
    rating: float | None = None
    deviation: float | None = None


@dataclass(frozen=True)
class PuzzleWeek:
    week: str
    solved: int
    tried: int
    rating: float


def _db(state_dir: Path) -> Path | None:
    db = store.puzzle_db_path(Path(state_dir))
    return db if store.present(db) else None


def summary(state_dir: Path, child: str) -> Puzzles:
    db = _db(state_dir)
    if db is None:
        return Puzzles()
    found = store.solver_summary(db, child)
    if not found.tried:
        return Puzzles()
    return Puzzles(found.solved, found.tried, found.rating, found.deviation)


def weeks(state_dir: Path, child: str) -> list[PuzzleWeek]:
    db = _db(state_dir)
    if db is None:
        return []
    return [PuzzleWeek(w.week, w.solved, w.tried, w.rating) for w in store.solver_weeks(db, child)]


def attempts(state_dir: Path, child: str) -> list[dict[str, Any]]:
    """Every answer the child gave, oldest first, as the export writes it."""
    db = _db(state_dir)
    if db is None:
        return []
    return [asdict(a) for a in store.solver_attempts(db, child)]


def held(state_dir: Path) -> AbstractContextManager[Connection | None]:
    """The class's puzzle store in one write transaction (``store.held``): None when it has
    none; a StoreError, before anything changes, when something else is in its place."""
    return store.held(store.puzzle_db_path(Path(state_dir)))


def check(state_dir: Path) -> None:
    """StoreError when the class's puzzle store cannot be read (damaged, a folder in its place,
    a newer board's): an export must not pass an unreadable store for an empty one."""
    with held(state_dir):
        pass


forget_in = store.forget_attempts
"""The child's puzzle attempts and rating deleted in ``held``'s transaction; how many rows."""
rename_in = store.rename_attempts
"""The child's puzzle data under the new name in ``held``'s transaction; how many rows."""
