"""The one adapter to the puzzles' figures of a child (solved, tried, rating, per week, every
attempt) and the teacher's acts on them (rename, delete).

The puzzles are another package's (``controller.puzzles.progress``); this package asks here,
never the puzzles directly, so the figures the pages show have one shape whatever the puzzle
store keeps. A class that has not generated puzzles yet has no ``puzzles.sqlite``: its children
have solved none and have no rating yet.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from controller.puzzles import progress as store


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
    return db if db.is_file() else None


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


def rename(state_dir: Path, old: str, new: str) -> int:
    """The child's puzzle data under the new name; how many rows moved."""
    db = _db(state_dir)
    return store.rename_solver(db, old, new) if db is not None else 0


def forget(state_dir: Path, child: str) -> int:
    """Delete the child's puzzle attempts and rating; how many rows there were."""
    db = _db(state_dir)
    return store.forget_solver(db, child) if db is not None else 0
