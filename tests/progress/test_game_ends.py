"""The simulator wakes the progress indexer when a board's game ends (``GameEnds``), so the game
is counted at once rather than at the next scan: here the scan is an hour away, and the test
waits for the count itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.progress import service
from controller.progress.service import Progress
from controller.sim.progress import GameEnds
from tests.sim.conftest import ManualClock

from .kept import SETTLE, keep, new_board
from .test_indexer import BEST, CHOICE

COUNTED = 120.0  # seconds at most (a review in a worker process on a loaded machine)


def test_a_game_that_ends_is_counted_without_waiting_for_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "POLL_SECONDS", 3600.0)
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\n")
    clock = ManualClock()
    board = new_board(tmp_path, "b1", clock)
    progress = Progress(tmp_path, depth=2)
    ends = GameEnds(progress)
    boards = [("b1", board)]
    try:
        progress.start()
        assert progress.wait_indexed(lambda: progress.last is not None, COUNTED)  # first scan
        board.act({"type": "new_game", "position": CHOICE, "confirm": True})
        board.act({"type": "info", "info": {"blue": "Ana Cruz", "red": "Ben Reyes"}})
        clock.advance(SETTLE)
        board.tick()
        for sq in BEST:
            board.act({"type": "click", "square": list(sq)})
        clock.advance(SETTLE)
        board.tick()
        assert not ends.check(boards)  # a move, the game goes on
        clock.advance(24 * 3600)  # Ben's clock runs out
        board.tick()
        assert ends.check(boards)  # the end, told once
        assert not ends.check(boards)
        assert progress.wait_indexed(lambda: progress.child_json("Ana Cruz")["games"] == 1, COUNTED)
        assert progress.child_json("Ben Reyes")["games"] == 1
        keep(board)  # a new game on the board: nothing ended
        assert not ends.check(boards)
    finally:
        board.close()
        progress.stop()
