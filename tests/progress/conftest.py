"""A small term of a class, made once per module: games played by the engine through the
simulator's boards, kept, and indexed into the progress store."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.progress.service import Progress
from tests.sim.conftest import ManualClock

from .kept import keep, new_board, play_game

CHILDREN = ("Ana Cruz", "Ben Reyes", "Cara Lim")
WEEKS = (("2026-09-07", "Ana Cruz", "Ben Reyes"), ("2026-09-14", "Ben Reyes", "Cara Lim"),
         ("2026-09-21", "Cara Lim", "Ana Cruz"))  # fmt: skip


def make_term(state: Path, games: tuple[tuple[str, str, str], ...] = WEEKS) -> Path:
    (state / "players.txt").write_text("# Grade 8 - Rizal\n" + "\n".join(CHILDREN) + "\n")
    clock = ManualClock()
    board = new_board(state, "b1", clock)
    for n, (date, blue, red) in enumerate(games):
        play_game(board, clock, blue, red, levels=(2 + n % 2, 2), seed=n, date=date)
        keep(board)
    board.close()
    progress = Progress(state, depth=2)
    assert progress.index_now(limit=1000).counted == len(games)
    progress.stop()
    return state


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three games between Ana, Ben and Cara, a week apart."""
    return make_term(tmp_path_factory.mktemp("term"))
