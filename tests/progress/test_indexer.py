"""The indexer over games really kept by the simulator's boards: a child's figures counted once,
per operation, hand-worked on a known game; a damaged store reported and left alone; a game whose
players are not on the class list skipped until they are."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from controller.progress.service import Progress
from controller.progress.store import ProgressError, open_store, store_path
from controller.sim.engine import SimBoard
from tests.sim.conftest import ManualClock

from .kept import SETTLE, keep, new_board, play_game

CHOICE = {
    "variant": "integer",
    "to_move": "blue",
    "pieces": [
        {"square": [5, 4], "side": "blue", "value": "9", "dama": False},
        {"square": [2, 1], "side": "blue", "value": "2", "dama": False},
        {"square": [6, 5], "side": "red", "value": "8", "dama": False},
        {"square": [4, 5], "side": "red", "value": "5", "dama": False},
    ],
}
"""Blue's 9 must take: red's 5, landing on the × square (3, 6): 9 × 5 = 45; or red's 8, landing
on the − square (7, 6): 9 − 8 = 1. The two takings are the only legal moves."""
BEST = ((5, 4), (3, 6), (4, 5))
WORSE = ((5, 4), (7, 6), (6, 5))
DEPTH = 4


def one_move_game(board: SimBoard, clock: ManualClock, blue: str, red: str, clicks) -> None:
    """Blue plays ``clicks`` from CHOICE, then Red's clock runs out (the game ends on time)."""
    board.act({"type": "new_game", "position": CHOICE, "confirm": True})
    board.act({"type": "info", "info": {"blue": blue, "red": red, "date": "2026-09-07"}})
    clock.advance(SETTLE)
    board.tick()
    for sq in clicks:
        board.act({"type": "click", "square": list(sq)})
    clock.advance(SETTLE)
    board.tick()
    assert board.session.game.ply == 1
    clock.advance(24 * 3600)
    board.tick()
    assert board.session.outcome is not None and board.session.outcome.reason == "time"


@pytest.fixture
def state(tmp_path: Path) -> Path:
    (tmp_path / "players.txt").write_text("# Grade 8\nAna Cruz\nBen Reyes\n")
    return tmp_path


def test_accuracy_per_operation_hand_worked_on_a_known_game(state: Path) -> None:
    clock = ManualClock()
    board = new_board(state, "b1", clock)
    one_move_game(board, clock, "Ana Cruz", "Tito", BEST)  # Ana takes 9 × 5 = 45
    keep(board)
    one_move_game(board, clock, "Ben Reyes", "Tito", WORSE)  # Ben takes 9 − 8 = 1
    keep(board)
    progress = Progress(state, depth=DEPTH)
    assert progress.index_now().counted == 2
    ana = progress.child_json("Ana Cruz")
    ben = progress.child_json("Ben Reyes")
    assert ana["games"] == ben["games"] == 1
    assert ana["operations"]["×"] == {"takings": 1, "best": 1, "percent": 100.0}
    assert ana["operations"]["−"] == {"takings": 0, "best": 0, "percent": None}
    assert ben["operations"]["−"] == {"takings": 1, "best": 0, "percent": 0.0}
    assert ben["operations"]["×"] == {"takings": 0, "best": 0, "percent": None}
    assert ana["lost_per_game"] == 0.0 and ben["lost_per_game"] > 0
    # the exact figure is stored as a fraction (text), the float is only for display
    store = progress.store()
    assert store is not None
    (play,) = store.plays("Ben Reyes")
    assert isinstance(play.lost, Fraction) and play.lost > 0
    assert round(float(play.lost), 2) == ben["lost_per_game"]
    assert play.result == "win" and play.score.startswith("1")  # 9 − 8 = 1, Red lost on time
    assert play.week == "2026-W37" and play.variant == "integer"
    # Tito is not on the class list: nothing of his is kept
    assert store.plays("Tito") == []
    progress.stop()


def test_a_game_is_counted_once_from_the_journal_and_again_kept(state: Path) -> None:
    clock = ManualClock()
    board = new_board(state, "b1", clock)
    play_game(board, clock, "Ana Cruz", "Ben Reyes", levels=(2, 1), seed=4, date="2026-10-05")
    assert board.session.outcome is not None
    progress = Progress(state, depth=2)
    first = progress.index_now()
    assert first.counted == 1  # the finished game, still in the board's journal
    assert progress.index_now().read == 0  # nothing new: read once
    keep(board)  # put away in games/: the same game, another file
    progress.index_now()
    store = progress.store()
    assert store is not None
    assert len(store.plays("Ana Cruz")) == 1 and len(store.plays("Ben Reyes")) == 1
    assert progress.index_now().read == 0
    progress.stop()
    again = Progress(state, depth=2)  # a restart reads nothing again either
    assert again.index_now().read == 0
    again.stop()


def test_a_game_of_players_not_on_the_list_counts_once_a_name_is_added(state: Path) -> None:
    clock = ManualClock()
    board = new_board(state, "b1", clock)
    one_move_game(board, clock, "Cara Lim", "Dan Uy", BEST)
    keep(board)
    progress = Progress(state, depth=DEPTH)
    progress.index_now()
    assert progress.class_json()["games_read"].get("indexed", 0) == 0
    assert [c["name"] for c in progress.class_json()["children"]] == ["Ana Cruz", "Ben Reyes"]
    progress.add("Cara Lim")
    progress.index_now()
    cara = progress.child_json("Cara Lim")
    assert cara["games"] == 1 and cara["operations"]["×"]["best"] == 1
    progress.stop()


def test_a_damaged_store_is_reported_and_left_as_it_is(state: Path) -> None:
    damaged = b"this is not a database, but the teacher's file" * 20
    store_path(state).write_bytes(damaged)
    with pytest.raises(ProgressError, match=r"cannot be read.*left as it is"):
        open_store(store_path(state))
    progress = Progress(state, depth=2)
    progress.index_now()
    page = progress.class_json()
    assert "progress.sqlite" in page["problem"] and "move it aside" in page["problem"]
    assert [c["name"] for c in page["children"]] == ["Ana Cruz", "Ben Reyes"]
    assert store_path(state).read_bytes() == damaged  # nothing lost, nothing overwritten
    progress.stop()


def test_a_store_of_another_schema_is_refused(state: Path) -> None:
    store = open_store(store_path(state))
    with store.db:
        store.db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    store.close()
    with pytest.raises(ProgressError, match="schema 99, this board reads 2"):
        open_store(store_path(state))


def test_the_simulator_counts_a_finished_game_by_itself(state: Path) -> None:
    """At start-up the simulator's progress thread finds the finished game on a board and has
    it reviewed in its worker process; the page shows it when it is done, never waiting."""
    import time

    from starlette.testclient import TestClient

    from controller.sim.server import create_app

    clock = ManualClock()
    board = new_board(state, "b1", clock)
    one_move_game(board, clock, "Ana Cruz", "Tito", BEST)  # over, still on the board
    board.close()
    app = create_app(clock=ManualClock(), state_dir=state)
    app.state.progress.depth = DEPTH
    with TestClient(app) as client:
        deadline = time.monotonic() + 20
        while True:
            ana = client.get("/api/progress/child?name=Ana%20Cruz").json()
            if ana["games"] or time.monotonic() > deadline:
                break
            app.state.progress.poke()
            time.sleep(0.05)  # waiting for the worker's answer, not for a clock
        assert ana["games"] == 1, (app.state.progress.last, app.state.progress.problem)
        assert ana["operations"]["×"]["best"] == 1
