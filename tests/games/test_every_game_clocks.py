"""The board's clocks in every game that keeps them at its table (``games.clocks``): each
kind of the registry whose check gives its clocks (``Timed``), never a list of names. They run
for the side to move, a flag ends the game by its rule and is journaled, a pause stops them, a
restart resumes the time left, ``clocks=off`` has none, a bad setting is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.games import GAMES
from controller.games.desk import TableDesk
from controller.games.timed import Timed
from controller.record.journal_file import read as read_journal

from .players import PLAYERS, Board

TIMED = sorted(name for name, kind in GAMES.items() if isinstance(kind.check({}, None), Timed))


def open_board(name: str, folder: Path, show: bool = True, **clocks: object) -> Board:
    player = PLAYERS[name].long
    host = BoardHost(folder, sync=True, wall=lambda: 1_700_000_000.0)
    settings = {**player.settings, **clocks}
    game = host.open(GAMES[name], settings, 0.0, position=player.position)
    board = Board(game)
    if show:
        board.show()
    return board


def desk(board: Board) -> TableDesk:
    linked = board.game.linked()
    assert isinstance(linked, TableDesk) and linked.clocks is not None
    return linked


def used(board: Board) -> list[int]:
    clocks = desk(board).clocks
    assert clocks is not None
    return list(clocks.state(board.t)["used"])


def test_every_game_but_damath_keeps_its_clocks_at_its_table() -> None:
    assert set(TIMED) == set(GAMES) - {"damath"}  # Damath's session keeps its own


@pytest.mark.parametrize("name", TIMED)
def test_the_clocks_run_for_the_side_to_move_and_a_flag_ends_the_game(name, tmp_path) -> None:
    board = open_board(name, tmp_path, game_seconds=8, move_seconds=0)
    side = desk(board).clocks.side  # type: ignore[union-attr]
    start = used(board)
    board.settle(3)
    now = used(board)
    assert now[side] - start[side] >= 2900 and now[1 - side] == start[1 - side]
    assert board.game.outputs(board.t, 40, 8).clocks is not None
    board.settle(8)
    assert board.game.finished() is not None  # the flag ended it
    assert "time is over" in " ".join(board.game.outputs(board.t, 40, 8).page)
    records = read_journal(tmp_path / "journal.jsonl").records
    flags = [r for r in records if r.get("act") == "clock" and "flag" in r]
    assert [r["flag"] for r in flags] == [side]
    table = desk(board).table
    if desk(board).arbiter.rule == "points":  # the points decide (its own stop)
        assert table.ending is None
    else:  # the side that flagged loses
        assert table.ending is not None and table.ending.reason == "time"
        assert table.ending.winner() == 1 - side


@pytest.mark.parametrize("name", TIMED)
def test_a_pause_stops_the_clocks(name, tmp_path) -> None:
    board = open_board(name, tmp_path, game_seconds=5)
    assert desk(board).desk_pause(board.t, True)
    board.settle(0.2)
    before = used(board)
    board.settle(20)
    assert used(board) == before and board.game.finished() is None
    assert desk(board).desk_pause(board.t, False)
    board.settle(1)
    assert sum(used(board)) > sum(before)


@pytest.mark.parametrize("name", TIMED)
def test_a_restart_resumes_the_time_left(name, tmp_path) -> None:
    board = open_board(name, tmp_path, game_seconds=60)
    board.settle(4)
    left = used(board)
    board.game.close(board.t)
    again = open_board(name, tmp_path, show=False, game_seconds=60)
    again.t = board.t + 30  # the board was off: that time is nobody's
    again.game.tick(again.t)
    assert used(again) == left
    again.show()  # the board shows the game again (a draughts game waits for it): time goes on
    assert used(again)[desk(again).clocks.side] > left[desk(again).clocks.side]  # type: ignore[union-attr]


@pytest.mark.parametrize("name", TIMED)
def test_clocks_off_has_none(name, tmp_path) -> None:
    board = open_board(name, tmp_path, clocks="off")
    linked = board.game.linked()
    assert isinstance(linked, TableDesk) and linked.clocks is None
    board.settle(2)
    assert board.game.outputs(board.t, 40, 8).clocks is None


@pytest.mark.parametrize("name", TIMED)
@pytest.mark.parametrize(
    ("setting", "value"), [("clocks", "maybe"), ("game_seconds", "ten"), ("move_seconds", -1)]
)
def test_a_bad_clocks_setting_is_refused_in_one_line(name, setting, value) -> None:
    with pytest.raises(ValueError) as refused:
        GAMES[name].check({setting: value}, None)
    assert setting in str(refused.value) and "\n" not in str(refused.value)
