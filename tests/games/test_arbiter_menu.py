"""The arbiter's Pause and menu on a board of every game of the registry, through the board's one
interface of a game (``BoardGame``), as on a Damath board (docs/arbiter.md): Pause pauses the
game and resumes it; Pause held opens the menu, whose stop, resignation and no-show end the
game. Each act is journaled; a board reopened from its journal (a power cut) keeps the result,
and the hub's reading of the same records gives it (a no-show: the other side's forfeit). A
12 × 12 Dam game that never ends by itself (420 plies of two kings) is stopped by the arbiter
with the result the arbiter chose, under the game's ``stop`` setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.board import BoardHost
from controller.games import GAMES
from controller.hub.board_results import _other_finished
from controller.link.gamestate import rebuild
from controller.record.journal_file import read as read_journal
from controller.rules.dam_notation import dam_from_json

from .players import PLAYERS, Board, play_on

PAUSED = {"damath": "paused", "mathchess": "paused by the arbiter"}
MENU = {"stop": 1, "resign": 3, "no-show": 4}
"""Cancel, Stop, the first side resigns, the second resigns, the first no-show, the second."""


def open_board(name: str, folder: Path, settings: dict[str, Any] | None = None,
               position: dict[str, Any] | None = None) -> Board:  # fmt: skip
    player = PLAYERS[name].long
    host = BoardHost(folder, sync=False, wall=lambda: 1_700_000_000.0)
    given = {**player.settings, **(settings or {})}
    game = host.open(GAMES[name], given, 0.0, position=position or player.position)
    board = Board(game)
    board.show()
    return board


def display(board: Board) -> str:
    return " ".join(board.game.outputs(board.t, 40, 12).page)


def hold_pause(board: Board) -> None:
    board.game.press(board.t, "pause", "hold")
    board.settle()


def choose(board: Board, line: int) -> None:
    """The menu's line ``line`` (0: Cancel), with Next, then Confirm."""
    assert board.game.menu_open()
    for _ in range(line):
        board.do(("press", "next"))
    board.do(("press", "confirm"))
    assert not board.game.menu_open()


def records(folder: Path) -> list[dict[str, Any]]:
    return read_journal(folder / "journal.jsonl").records


def hub_result(folder: Path) -> str | None:
    """The result the hub reads from the board's records (``link.gamestate``)."""
    result = rebuild(records(folder)).summary()["result"]
    return None if result is None else str(result["result"])


def turns(board: Board, name: str, count: int) -> None:
    game = PLAYERS[name].long
    play_on(board, type(game)(game.settings, game.position, game.next_turn, game.played, count))


@pytest.mark.parametrize("name", list(GAMES))
def test_the_arbiter_pauses_and_ends_every_game_from_the_menu(name: str, tmp_path: Path) -> None:
    played = PLAYERS[name].long.played
    # Pause: a move refused, said, journaled; Pause again goes on
    board = open_board(name, tmp_path / "pause")
    turns(board, name, 1)
    before = played(board)
    board.do(("press", "pause"))
    assert PAUSED.get(name, "paused by the arbiter") in display(board).lower(), display(board)
    if not GAMES[name].clocks:  # Damath's pause stops its clocks; the others' refuse a move
        for step in PLAYERS[name].long.next_turn(board) or []:
            board.do(step)
        assert played(board) == before, "a move while the arbiter's pause"
        board.show()  # the refused move put back
    board.do(("press", "pause"))
    kinds = {(r["k"], r.get("act"), r.get("by")) for r in records(tmp_path / "pause")}
    table = {("table", "pause", "arbiter"), ("table", "resume", "arbiter")}
    assert table <= kinds or {("pause", None, None), ("resume", None, None)} <= kinds, kinds
    turns(board, name, 2)
    assert played(board) > before, "the game goes on after the pause"

    # the menu's three endings, each on its own board; Cancel changes nothing
    for act, line in MENU.items():
        folder = tmp_path / act
        board = open_board(name, folder)
        turns(board, name, 1)
        hold_pause(board)
        assert "Arbiter: end the game?" in display(board), display(board)
        choose(board, 0)
        assert board.game.finished() is None
        hold_pause(board)
        choose(board, line)
        assert board.game.finished() is not None, (act, display(board))
        result = hub_result(folder)
        expected = {"resign": "1-0", "no-show": "0-1"}.get(act)
        if expected is None:  # the stop: a draw, or what the scores or points give
            assert result in ("1-0", "0-1", "1/2-1/2"), result
            if not GAMES[name].stops or GAMES[name].stops[0] == "draw":
                assert result == "1/2-1/2"
        else:  # the second side resigns; the first did not show
            assert result == expected, (act, result)
        if act == "no-show" and name != "damath":
            found = _other_finished("b1", "g1", rebuild(records(folder)).other.summary())
            assert found is not None and found.outcome == "red-forfeit", found
        shown = board.game.page(board.t)
        # a power cut: the board reopened from its journal keeps the result
        again = open_board(name, folder)
        assert again.game.finished() is not None, (act, again.game.problems)
        assert hub_result(folder) == result
        assert again.game.page(again.t).get("record") == shown.get("record")
        steps = PLAYERS[name].long.next_turn(again) or []
        count = played(again)
        for step in steps:
            again.do(step)
        assert played(again) == count, "a move after the arbiter's end"


def _kings_safe_move(game: Any) -> Any:
    """A move of two lone kings after which neither may take: the game never ends."""
    for move in game.legal_moves():
        after = game.copy()
        after.push(move)
        if not move.captures and not any(m.captures for m in after.legal_moves()):
            return move
    raise AssertionError("no quiet move: choose other squares for the kings")


def test_a_dam_game_that_never_ends_is_stopped_with_the_arbiters_result(tmp_path: Path) -> None:
    settings = {"quiet_move_limit": 0, "repetition": "off", "stop": "adjudicate"}
    position = {"game": "dam", "to_move": "black", "pieces": [
        {"square": [1, 0], "side": "black", "king": True},
        {"square": [10, 11], "side": "white", "king": True}]}  # fmt: skip
    board = open_board("dam", tmp_path, settings, position)
    game = board.game.session.game  # type: ignore[attr-defined]
    assert dam_from_json({**position, "settings": {}})  # the position as the rules read it
    for _ in range(420):
        move = _kings_safe_move(game)
        board.do(("lift", move.path[0]))
        board.do(("place", move.path[-1]))
    assert game.ply == 420 and board.game.finished() is None
    hold_pause(board)
    assert "Stop: WHITE wins" in display(board), display(board)
    choose(board, 3)  # Cancel, Stop: draw, Stop: BLACK wins, Stop: WHITE wins
    pdn = board.game.files()["pdn"]
    assert '[Result "0-1"]' in pdn and '[Termination "stop"]' in pdn, pdn[:400]
    assert "Game over (0-1)" in display(board), display(board)
    assert hub_result(tmp_path) == "0-1"
    found = _other_finished("b1", "g1", rebuild(records(tmp_path)).other.summary())
    assert found is not None and found.outcome == "red", found
    again = open_board("dam", tmp_path, settings)
    assert again.game.finished() is not None
    assert again.game.session.game.ply == 420  # type: ignore[attr-defined]
    assert again.game.files()["pdn"] == pdn
