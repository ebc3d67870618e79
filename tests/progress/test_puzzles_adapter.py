"""A child's puzzles on the progress pages, from the real puzzle store: a ``puzzles.sqlite``
with the seeded engine game's puzzles, answers kept through ``controller.puzzles.store`` as the
puzzle page keeps them. The class page's and the child's figures are the store's; the export
carries every answer; a rename moves the puzzles with the child and a delete forgets them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from controller.progress import puzzles
from controller.progress.service import Progress
from controller.puzzles import progress as puzzle_progress
from controller.puzzles.model import Puzzle
from controller.puzzles.store import add_puzzles, puzzle_db_path, record_attempt
from tests.puzzles.conftest import engine_puzzles  # noqa: F401 (the seeded puzzles, shared)

MONDAY = dt.datetime(2026, 9, 7, 9, tzinfo=dt.UTC).timestamp()
WEEK = 7 * 86400.0


def _answer(puzzle: Puzzle, right: bool) -> str:
    return " ".join(f"{x}{y}" for x, y in puzzle.solution[0]) if right else "wrong"


@pytest.fixture
def state(tmp_path: Path, engine_puzzles: list[Puzzle]) -> Path:  # noqa: F811
    """Ana solves the first puzzle, misses the second then gets it (week 1), misses the third
    twice (week 2); Ben solves the first. Through the store, as the puzzle page does."""
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\n")
    db = puzzle_db_path(tmp_path)
    add_puzzles(db, engine_puzzles[:3])
    p1, p2, p3 = engine_puzzles[:3]
    for n, (child, puzzle, right, at) in enumerate(
        [
            ("Ana Cruz", p1, True, MONDAY),
            ("Ana Cruz", p2, False, MONDAY + 60),
            ("Ana Cruz", p2, True, MONDAY + 120),
            ("Ana Cruz", p3, False, MONDAY + WEEK),
            ("Ana Cruz", p3, False, MONDAY + WEEK + 60),
            ("Ben Reyes", p1, True, MONDAY + 30),
        ]
    ):
        record_attempt(db, child, puzzle.id, _answer(puzzle, right), right, 10.0 + n, at=at)
    return tmp_path


@pytest.mark.slow
def test_the_pages_figures_are_the_puzzle_stores(state: Path) -> None:
    db = puzzle_db_path(state)
    progress = Progress(state)
    try:
        rows = {c["name"]: c for c in progress.class_json()["children"]}
        ana = progress.child_json("Ana Cruz")
    finally:
        progress.stop()
    for name in ("Ana Cruz", "Ben Reyes"):
        store = puzzle_progress.solver_summary(db, name)
        row = rows[name]
        assert (row["puzzles_solved"], row["puzzles_tried"]) == (store.solved, store.tried)
        assert row["puzzle_rating"] == round(store.rating)
    assert (ana["puzzles_solved"], ana["puzzles_tried"]) == (2, 3)
    assert ana["puzzle_rating"] == round(puzzle_progress.solver_summary(db, "Ana Cruz").rating)
    store_weeks = puzzle_progress.solver_weeks(db, "Ana Cruz")
    assert [w.week for w in store_weeks] == ["2026-W37", "2026-W38"]
    shown = [(w["week"], w["puzzles_solved"], w["puzzle_rating"]) for w in ana["weeks"]]
    assert shown == [(w.week, w.solved, round(w.rating)) for w in store_weeks]


def test_a_child_without_puzzles_or_a_class_without_a_store_shows_none(
    state: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    (state / "players.txt").write_text("Ana Cruz\nBen Reyes\nCara Lim\n")
    progress = Progress(state)
    cara = progress.child_json("Cara Lim")
    progress.stop()
    assert (cara["puzzles_solved"], cara["puzzles_tried"], cara["puzzle_rating"]) == (0, 0, None)
    empty = tmp_path_factory.mktemp("no-puzzles")
    (empty / "players.txt").write_text("Ana Cruz\n")
    progress = Progress(empty)
    ana = progress.child_json("Ana Cruz")
    assert progress.export("Ana Cruz")["puzzles"]["attempts"] == []
    assert progress.delete("Ana Cruz")["puzzles"] == 0
    progress.stop()
    assert ana["puzzles_tried"] == 0 and not puzzle_db_path(empty).exists()


def test_the_export_carries_every_answer(state: Path, engine_puzzles: list[Puzzle]) -> None:  # noqa: F811
    progress = Progress(state)
    exported = progress.export("Ana Cruz")["puzzles"]
    progress.stop()
    attempts = exported["attempts"]
    p1, p2, p3 = (p.id for p in engine_puzzles[:3])
    assert [(a["puzzle"], a["correct"], a["first_try"]) for a in attempts] == [
        (p1, True, True),
        (p2, False, True),
        (p2, True, False),
        (p3, False, True),
        (p3, False, False),
    ]
    assert attempts[0]["at"] == "2026-09-07T09:00:00+00:00"
    assert attempts[0]["answer"] == _answer(engine_puzzles[0], True)
    # a second try moves no rating: the rating after it is the first try's
    assert attempts[2]["rating_after"] == attempts[1]["rating_after"]
    assert attempts[0]["rating_after"] > 1500 > attempts[1]["rating_after"]
    assert exported["rating"] == attempts[-1]["rating_after"]
    assert (exported["solved"], exported["tried"], len(exported["weeks"])) == (2, 3, 2)


def test_the_teachers_rename_moves_the_puzzles_with_the_child(state: Path) -> None:
    db = puzzle_db_path(state)
    before = puzzle_progress.solver_summary(db, "Ana Cruz")
    answers = puzzle_progress.solver_attempts(db, "Ana Cruz")
    progress = Progress(state)
    assert progress.rename("Ana Cruz", "Ana Santos") == "Ana Santos"
    page = progress.child_json("Ana Santos")
    progress.stop()
    assert puzzle_progress.solver_summary(db, "Ana Santos") == before
    assert puzzle_progress.solver_attempts(db, "Ana Santos") == answers
    assert puzzle_progress.solver_summary(db, "Ana Cruz").tried == 0
    assert (page["puzzles_solved"], page["puzzle_rating"]) == (2, round(before.rating))


def test_rename_solver_joins_a_leftover_name_and_keeps_the_renamed_rating(state: Path) -> None:
    db = puzzle_db_path(state)
    ana = puzzle_progress.solver_summary(db, "Ana Cruz")
    # Ben left the list earlier and his puzzles stayed; Ana is renamed to his name
    assert puzzle_progress.rename_solver(db, "Ana Cruz", "Ben Reyes") == 6
    joined = puzzle_progress.solver_summary(db, "Ben Reyes")
    assert (joined.tried, joined.solved, joined.rating) == (3, 2, ana.rating)
    assert len(puzzle_progress.solver_attempts(db, "Ben Reyes")) == 6
    assert puzzle_progress.rename_solver(db, "Nobody", "Someone") == 0
    assert puzzle_progress.rename_solver(state / "none.sqlite", "Ana Cruz", "X") == 0


def test_delete_forgets_the_childs_puzzles_and_only_theirs(state: Path) -> None:
    db = puzzle_db_path(state)
    ben = puzzle_progress.solver_attempts(db, "Ben Reyes")
    progress = Progress(state)
    done = progress.delete("Ana Cruz")
    exported = progress.export("Ana Cruz")["puzzles"]
    progress.stop()
    assert done == {"games": 0, "puzzles": 6, "roster": 1}  # five answers and the rating
    assert puzzle_progress.solver_attempts(db, "Ana Cruz") == []
    assert puzzle_progress.solver_summary(db, "Ana Cruz").tried == 0
    assert (exported["tried"], exported["attempts"], exported["rating"]) == (0, [], None)
    assert puzzle_progress.solver_attempts(db, "Ben Reyes") == ben
    assert puzzles.summary(state, "Ben Reyes").solved == 1
