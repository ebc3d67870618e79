"""The one adapter to the puzzles' figures: without ``controller.puzzles.progress`` a child has
solved none; with it (here a stand-in module of the agreed interface, put where the import
finds it), the figures, the weeks, the export and the delete all go through it."""

from __future__ import annotations

import sys
import types
from collections import namedtuple
from pathlib import Path

import pytest

from controller.progress import puzzles
from controller.progress.service import Progress

Summary = namedtuple("Summary", "solved tried rating deviation")
Week = namedtuple("Week", "week solved tried rating")


@pytest.fixture
def fake_puzzles(tmp_path: Path):
    db = tmp_path / "puzzles.sqlite"
    db.write_text("")
    attempts = {"Ana Cruz": [Week("2026-W37", 2, 3, 1480.0), Week("2026-W38", 4, 5, 1562.5)]}
    module = types.ModuleType(puzzles.MODULE)

    def summary(path: Path, child: str) -> Summary:
        assert path == db
        weeks = attempts.get(child, [])
        return Summary(sum(w.solved for w in weeks), sum(w.tried for w in weeks),
                       weeks[-1].rating if weeks else 1500.0, 80.0)  # fmt: skip

    def forget(path: Path, child: str) -> int:
        return sum(w.tried for w in attempts.pop(child, []))

    module.puzzle_db_path = lambda state_dir: Path(state_dir) / "puzzles.sqlite"  # type: ignore[attr-defined]
    module.solver_summary = summary  # type: ignore[attr-defined]
    module.solver_weeks = lambda path, child: list(attempts.get(child, []))  # type: ignore[attr-defined]
    module.forget_solver = forget  # type: ignore[attr-defined]
    puzzles._module.cache_clear()
    sys.modules[puzzles.MODULE] = module
    yield attempts
    del sys.modules[puzzles.MODULE]
    puzzles._module.cache_clear()


def test_without_the_puzzles_a_child_has_solved_none(tmp_path: Path) -> None:
    puzzles._module.cache_clear()
    if puzzles.available():  # after the merge the real module answers: nothing tried yet
        assert puzzles.summary(tmp_path, "Ana Cruz").solved == 0
    else:
        assert puzzles.summary(tmp_path, "Ana Cruz") == puzzles.Puzzles()
        assert puzzles.weeks(tmp_path, "Ana Cruz") == []
        assert puzzles.forget(tmp_path, "Ana Cruz") == 0


def test_the_puzzles_figures_come_through_the_adapter(fake_puzzles, tmp_path: Path) -> None:
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\n")
    progress = Progress(tmp_path)
    ana = progress.child_json("Ana Cruz")
    assert (ana["puzzles_solved"], ana["puzzles_tried"], ana["puzzle_rating"]) == (6, 8, 1562)
    assert [(w["week"], w["puzzles_solved"], w["puzzle_rating"]) for w in ana["weeks"]] == [
        ("2026-W37", 2, 1480),
        ("2026-W38", 4, 1562),
    ]
    exported = progress.export("Ana Cruz")["puzzles"]
    assert exported["solved"] == 6 and len(exported["weeks"]) == 2
    ben = progress.child_json("Ben Reyes")
    assert ben["puzzles_tried"] == 0 and ben["puzzle_rating"] is None
    assert progress.delete("Ana Cruz") == {"games": 0, "puzzles": 8, "roster": 1}
    assert "Ana Cruz" not in fake_puzzles
    progress.stop()
