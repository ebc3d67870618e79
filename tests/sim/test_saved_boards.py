"""Boards kept in a state folder: stopping the simulator loses nothing. A board opened again
resumes its game (moves, scores, chips on the table, taken chips in the trays, the clocks as
they stood), a new game keeps the old one in ``games/``, and a damaged journal is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.cli.sim import state_folder
from controller.sim.engine import SimBoard, SimError
from controller.sim.registry import Boards

from .conftest import ManualClock
from .test_board import SETTLE, play, ready

OPENING = [((1, 2), (2, 3)), ((2, 5), (1, 4)), ((5, 2), (4, 3)), ((6, 5), (5, 4))]
TAKING = ((4, 3), (6, 5), (5, 4))  # blue -1 takes red -9 and lands on a ÷ square


def chips(snap: dict) -> dict:
    return {tuple(c["square"]): c["chip"]["label"] for c in snap["squares"] if c["chip"]}


def played_board(clock: ManualClock, state_dir: Path) -> SimBoard:
    board = SimBoard("class-1", clock, state_dir=state_dir)
    clock.advance(SETTLE)
    board.tick()
    for move in OPENING:
        play(board, clock, *move)
    play(board, clock, *TAKING)
    clock.advance(5.0)
    board.tick()
    return board


def test_a_board_opened_again_resumes_its_game(clock: ManualClock, tmp_path: Path) -> None:
    board = played_board(clock, tmp_path)
    before = board.snapshot()
    assert before["ply"] == 5
    board.close()  # the simulator is stopped (Ctrl+C) ...
    clock.advance(3600.0)  # ... for an hour

    again = SimBoard("class-1", clock, state_dir=tmp_path)
    assert "resumed" in again.notice
    clock.advance(SETTLE)
    again.tick()
    after = again.snapshot()
    assert after["phase"] == "play" and after["ply"] == 5 and after["to_move"] == "red"
    assert after["sheet"] == before["sheet"]
    assert after["board"] == before["board"]
    assert chips(after) == chips(before)
    assert [c["label"] for c in after["trays"]["red"]] == ["-9"]  # the taken chip, beside it
    assert after["clocks"] == before["clocks"]  # time while it was stopped is not counted

    move = again.session.game.legal_moves()[0]  # and play goes on
    play(again, clock, move.start, move.end, *move.captures)
    assert again.snapshot()["ply"] == 6


def test_a_new_game_keeps_the_last_one_and_starts_from_the_opening(
    clock: ManualClock, tmp_path: Path
) -> None:
    board = played_board(clock, tmp_path)
    # one click never wipes a game being played: the page must confirm
    with pytest.raises(SimError, match="a new game needs to be confirmed"):
        board.act({"type": "new_game", "variant": "fraction", "profile": "online"})
    assert board.snapshot()["ply"] == 5 and board.snapshot()["variant"] == "integer"
    board.act({"type": "new_game", "variant": "fraction", "profile": "online", "confirm": True})
    kept = list((tmp_path / "boards" / "class-1" / "games").glob("game-*.jsonl"))
    assert len(kept) == 1 and '"path"' in kept[0].read_text()
    board.close()

    again = SimBoard("class-1", clock, state_dir=tmp_path)  # the new game is the one resumed
    snap = again.snapshot()
    assert snap["variant"] == "fraction" and snap["ply"] == 0


def test_a_new_game_before_any_move_keeps_nothing(clock: ManualClock, tmp_path: Path) -> None:
    board = ready_in(clock, tmp_path)
    board.act({"type": "new_game", "variant": "radical", "profile": "official"})
    assert not (tmp_path / "boards" / "class-1" / "games").exists()
    assert SimBoard("class-1", clock, state_dir=tmp_path).snapshot()["variant"] == "radical"


def ready_in(clock: ManualClock, state_dir: Path) -> SimBoard:
    board = SimBoard("class-1", clock, state_dir=state_dir)
    clock.advance(SETTLE)
    board.tick()
    return board


def test_a_damaged_journal_is_reported_and_what_was_good_is_resumed(
    clock: ManualClock, tmp_path: Path
) -> None:
    played_board(clock, tmp_path).close()
    path = BoardHost.of_board(tmp_path, "class-1").journal_path
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # torn at the end

    again = SimBoard("class-1", clock, state_dir=tmp_path)
    clock.advance(SETTLE)
    again.tick()
    snap = again.snapshot()
    assert snap["phase"] == "play" and snap["ply"] >= 4
    assert again.notice and "resumed where it stood" not in again.notice


def test_the_boards_in_the_folder_are_listed(clock: ManualClock, tmp_path: Path) -> None:
    ready_in(clock, tmp_path).close()
    boards = Boards(clock, state_dir=tmp_path)
    assert boards.ids() == ["class-1"]
    boards.open("pair-2")
    assert boards.ids() == ["class-1", "pair-2"]
    assert Boards(clock).ids() == []  # without a folder only open boards count


def test_without_a_folder_nothing_is_written(clock: ManualClock, tmp_path: Path) -> None:
    board = ready(clock)
    play(board, clock, (1, 2), (2, 3))
    assert board.session.journal is None


class Args:
    def __init__(self, state_dir: str | None, no_save: bool = False) -> None:
        self.state_dir, self.no_save = state_dir, no_save


def test_the_state_folder_is_created_or_refused_clearly(tmp_path: Path) -> None:
    assert state_folder(Args(str(tmp_path / "new" / "sim"))) == tmp_path / "new" / "sim"
    assert (tmp_path / "new" / "sim").is_dir()
    assert state_folder(Args(None, no_save=True)) is None
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ValueError, match=r"cannot keep games in .*--no-save"):
        state_folder(Args(str(blocker / "sim")))


def test_the_kept_games_are_listed_and_their_sheets_and_records_downloaded(
    clock: ManualClock, tmp_path: Path
) -> None:
    from controller.session.archive import kept_game, kept_games

    board = played_board(clock, tmp_path)
    board.act({"type": "info", "info": {"blue": "Ana", "red": "Ben"}})
    board.act({"type": "new_game", "confirm": True})
    games = kept_games(board.games_folder())
    assert len(games) == 1
    game = games[0]
    assert (game.moves, game.blue, game.red, game.variant) == (5, "Ana", "Ben", "integer")
    assert game.result.startswith("Game in progress after 5 moves")
    kept = kept_game(board.games_folder(), game.name)
    assert '[Blue "Ana"]' in kept.export_pdn() and kept.game.ply == 5
    assert "Ana" in kept.export_html()
    with pytest.raises(ValueError, match="is not the name of a kept game"):
        kept_game(board.games_folder(), "../journal")
    assert board.snapshot()["ply"] == 0 and board.session.info["blue"] == "Ana"  # names stay
