"""The class's puzzle store on a real SQLite file: Glicko-2 moves both ratings on a first try
only, the next puzzle is the untried one nearest the child's rating, a damaged or foreign or
newer file is refused in one line; and the reading API the progress pages use."""

from __future__ import annotations

import datetime
import sqlite3
from pathlib import Path

import pytest

from controller.puzzles.model import Puzzle
from controller.puzzles.progress import (
    SolverSummary,
    WeekPuzzles,
    forget_solver,
    puzzle_db_path,
    solver_summary,
    solver_weeks,
)
from controller.puzzles.store import (
    StoreError,
    add_puzzles,
    connect,
    next_puzzle,
    puzzle,
    puzzles,
    record_attempt,
    solver_rating,
)
from controller.ratings import glicko2


def stamp(year: int, month: int, day: int) -> float:
    return datetime.datetime(year, month, day, 10, tzinfo=datetime.UTC).timestamp()


def test_a_first_try_moves_both_ratings_by_glicko2_and_a_second_moves_none(
    tmp_path: Path, engine_puzzles: list[Puzzle]
) -> None:
    db = puzzle_db_path(tmp_path)
    assert db == tmp_path / "puzzles.sqlite"
    assert add_puzzles(db, engine_puzzles) == len(engine_puzzles)
    assert add_puzzles(db, engine_puzzles) == 0  # each once
    a, b = engine_puzzles[0].id, engine_puzzles[1].id

    right = record_attempt(db, "Ana", a, "x", True, 12.0)
    assert right.first_try and right.correct
    expected = glicko2.update(glicko2.Rating(), [glicko2.Game(glicko2.Rating(), 1.0)])
    assert right.child_after == expected
    assert right.child_after.rating > 1500 > right.puzzle_after.rating
    assert right.child_after.rd < 350
    assert solver_rating(db, "Ana") == right.child_after
    found = puzzle(db, a)
    assert found is not None and found[1] == right.puzzle_after

    wrong = record_attempt(db, "Ana", b, "y", False, 30.0)
    assert wrong.child_after.rating < wrong.child_before.rating
    assert wrong.puzzle_after.rating > 1500
    again = record_attempt(db, "Ana", b, "z", True, 10.0)
    assert not again.first_try
    assert again.child_after == again.child_before == wrong.child_after
    with connect(db) as conn:
        rows = conn.execute("SELECT correct, first_try FROM attempts ORDER BY id").fetchall()
    assert rows == [(1, 1), (0, 1), (1, 0)]


def test_the_next_puzzle_is_untried_and_nearest_the_child_s_rating(
    tmp_path: Path, engine_puzzles: list[Puzzle]
) -> None:
    db = tmp_path / "puzzles.sqlite"
    add_puzzles(db, engine_puzzles)
    with connect(db) as conn:  # spread the ratings: puzzle i at 1200 + 100 i
        for i, p in enumerate(engine_puzzles):
            conn.execute("UPDATE puzzles SET rating = ? WHERE id = ?", (1200 + 100 * i, p.id))
    first = next_puzzle(db, "Ben")
    assert first is not None
    assert (
        first[1].rating
        == min((abs(1200 + 100 * i - 1500), 1200 + 100 * i) for i in range(len(engine_puzzles)))[1]
    )
    record_attempt(db, "Ben", first[0].id, "x", True, 5.0)
    second = next_puzzle(db, "Ben")
    assert second is not None and second[0].id != first[0].id
    listed = puzzles(db)  # easiest first
    assert {p.id for p, _r in listed} == {p.id for p in engine_puzzles}
    assert [r.rating for _p, r in listed] == sorted(r.rating for _p, r in listed)


def test_a_damaged_foreign_or_newer_file_is_refused_in_one_line(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="damaged") as info:
        next_puzzle(damaged, "Ana")
    assert "\n" not in str(info.value)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE games (x)")
    with pytest.raises(StoreError, match="not a puzzle store"):
        next_puzzle(foreign, "Ana")
    newer = tmp_path / "newer.sqlite"
    with connect(newer):
        pass
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="newer board"):
        next_puzzle(newer, "Ana")


def test_the_progress_pages_read_totals_and_weeks_and_forget_a_child(
    tmp_path: Path, engine_puzzles: list[Puzzle]
) -> None:
    db = tmp_path / "puzzles.sqlite"
    missing = tmp_path / "none.sqlite"
    assert solver_summary(missing, "Ana") == SolverSummary(0, 0, 1500.0, 350.0)
    assert solver_weeks(missing, "Ana") == []
    assert forget_solver(missing, "Ana") == 0
    assert not missing.exists()

    add_puzzles(db, engine_puzzles)
    a, b, c = (p.id for p in engine_puzzles[:3])
    record_attempt(db, "Ana", a, "x", False, 9, at=stamp(2026, 11, 23))  # Monday, W48
    record_attempt(db, "Ana", a, "x", True, 9, at=stamp(2026, 11, 24))
    last48 = record_attempt(db, "Ana", b, "x", True, 9, at=stamp(2026, 11, 27))
    last49 = record_attempt(db, "Ana", c, "x", False, 9, at=stamp(2026, 12, 1))  # W49
    record_attempt(db, "Ben", c, "x", True, 9, at=stamp(2026, 12, 1))

    summary = solver_summary(db, "Ana")
    assert (summary.solved, summary.tried) == (2, 3)
    assert summary.rating == pytest.approx(last49.child_after.rating)
    assert summary.deviation == pytest.approx(last49.child_after.rd)
    assert solver_weeks(db, "Ana") == [
        WeekPuzzles("2026-W48", 2, 2, last48.child_after.rating),
        WeekPuzzles("2026-W49", 0, 1, last49.child_after.rating),
    ]
    assert forget_solver(db, "Ana") == 5  # four attempts and the rating
    assert solver_summary(db, "Ana") == SolverSummary(0, 0, 1500.0, 350.0)
    assert solver_summary(db, "Ben").solved == 1  # nobody else is touched
