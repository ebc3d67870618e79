"""The one adapter to the puzzles' figures of a child (solved, tried, rating, per week).

The puzzles are another package's (``controller.puzzles.progress``: ``solver_summary``,
``solver_weeks``, ``forget_solver``, ``puzzle_db_path``). It is looked up when first used; where
it is missing (a board without the puzzles), a child has solved none and has no rating yet, and
nothing else changes. Everything else of this package asks here, never the puzzles directly.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

MODULE = "controller.puzzles.progress"


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


@functools.cache
def _module() -> ModuleType | None:
    """The puzzles' module, looked up once (it is there or not for the process's life)."""
    try:
        return importlib.import_module(MODULE)
    except ImportError:
        return None


def _db(module: ModuleType, state_dir: Path) -> Path | None:
    db: Path = module.puzzle_db_path(Path(state_dir))
    return db if db.exists() else None


def summary(state_dir: Path, child: str) -> Puzzles:
    module = _module()
    db = _db(module, state_dir) if module is not None else None
    if module is None or db is None:
        return Puzzles()
    found: Any = module.solver_summary(db, child)
    if not found.tried:
        return Puzzles()
    return Puzzles(int(found.solved), int(found.tried), float(found.rating), float(found.deviation))


def weeks(state_dir: Path, child: str) -> list[PuzzleWeek]:
    module = _module()
    db = _db(module, state_dir) if module is not None else None
    if module is None or db is None:
        return []
    return [
        PuzzleWeek(str(w.week), int(w.solved), int(w.tried), float(w.rating))
        for w in module.solver_weeks(db, child)
    ]


def forget(state_dir: Path, child: str) -> int:
    """Delete the child's puzzle attempts; how many there were (0 without the puzzles)."""
    module = _module()
    db = _db(module, state_dir) if module is not None else None
    if module is None or db is None:
        return 0
    return int(module.forget_solver(db, child))


def available() -> bool:
    return _module() is not None
