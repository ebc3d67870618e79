"""The board's host: one folder layout, one name for a kept game, one board-id rule; and the
series of games a board plays one after the other."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from controller.board import (
    BoardHost,
    BoardIdError,
    Series,
    SeriesError,
    board_folder,
    check_board_id,
)
from controller.games import find_game
from controller.games.keeper import Keeper
from controller.record.journal_file import read
from controller.rules.game import Game
from controller.session import Session, SessionConfig
from controller.session.archive import kept_games
from tests.session.helpers import damath_game, open_session

OPENING = Game.new("integer").occupied()
AFTER_FIRST = (OPENING - {(1, 2)}) | {(0, 3)}
WALL = 1_700_000_000.0


def one_move(session: Session, t: float = 0.0) -> float:
    session.feed_frame(t, OPENING)
    session.advance(t + 1.0)
    session.feed_frame(t + 5.0, AFTER_FIRST)
    session.advance(t + 6.0)
    assert session.game.ply == 1
    return t + 6.0


def stop_game(session: Session, t: float) -> None:
    """The arbiter's menu: hold pause, Next to "Stop, tally now", Confirm."""
    session.press(t, "pause", "hold")
    session.press(t + 0.1, "next")
    session.press(t + 0.2, "confirm")
    assert session.outcome is not None and session.outcome.reason == "stop"


@pytest.mark.parametrize("good", ["a", "class-1", "table_3", "B" * 32, "0"])
def test_a_board_id_is_ascii_letters_digits_dash_and_underscore_up_to_32(good):
    assert check_board_id(good) == good


@pytest.mark.parametrize("bad", ["", "b" * 33, "tábla", "ボード", "a b", "../x", "a/b", "x\n", 7])
def test_any_other_board_id_is_refused_with_the_rule(bad):
    with pytest.raises(BoardIdError, match="use 1 to 32 letters, digits, '-' or '_'"):
        check_board_id(bad)
    with pytest.raises(BoardIdError):
        BoardHost.of_board("/tmp", bad)


def test_one_folder_layout_for_every_board(tmp_path):
    host = BoardHost.of_board(tmp_path, "class-1")
    assert host.folder == board_folder(tmp_path, "class-1") == tmp_path / "boards" / "class-1"
    assert host.journal_path == host.folder / "journal.jsonl"
    assert host.games_folder == host.folder / "games"
    memory = BoardHost.of_board(None, "class-1")
    assert memory.journal_path is None and memory.games_folder is None and not memory.has_game()


def test_the_host_opens_a_new_game_then_resumes_it(tmp_path):
    host = BoardHost(tmp_path, sync=False)
    s = open_session(host, SessionConfig(checkpoint_seconds=0), 0.0)
    assert s.phase == "setup" and host.has_game()
    one_move(s)
    host.close(s, 7.0)
    again = open_session(host, SessionConfig(variant="radical"), 20.0)  # the journal's game wins
    assert again.game.ply == 1 and again.phase == "restore" and again.variant == "integer"


def test_a_game_put_away_is_kept_under_the_one_name_and_an_empty_one_is_dropped(tmp_path):
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL + 0.7)
    game = damath_game(host, SessionConfig(checkpoint_seconds=0), 0.0)
    assert host.put_away(game) is None  # nobody moved: nothing kept
    assert not (tmp_path / "games").exists() and not host.has_game()
    game = damath_game(host, SessionConfig(checkpoint_seconds=0), 0.0)
    one_move(game.session)
    assert host.put_away(game) is None
    kept = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert kept == ["game-1700000000.jsonl"]
    assert [g.moves for g in kept_games(tmp_path / "games")] == [1]
    assert not host.has_game()


def test_the_record_and_sheets_of_a_game_share_its_kept_name(tmp_path):
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL)
    game = damath_game(host, SessionConfig(checkpoint_seconds=0), 0.0)
    s = game.session
    stop_game(s, one_move(s) + 1.0)
    keeper = Keeper.of_board(tmp_path, host.wall)
    written = keeper.step(game)
    assert sorted(p.name for p in written) == [
        "game-1700000000.csv",
        "game-1700000000.html",
        "game-1700000000.pdn",
    ]
    assert keeper.step(game) == []  # kept once
    s.press(9.0, "new_game")  # the board's own button keeps the journal under the same scheme
    assert (tmp_path / "games" / "game-1700000000.jsonl").is_file()
    memory = Keeper.of_board(None)
    stop_game(s, one_move(s, 10.0) + 1.0)
    assert memory.step(game) == []  # in memory: nothing written


def test_a_journal_of_another_game_is_kept_before_the_profiles_game_begins(tmp_path):
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL)
    one_move(open_session(host, SessionConfig(checkpoint_seconds=0), 0.0))
    dam = host.open(find_game("dam"), {}, 5.0)  # the board's profile now says Dam
    assert dam.kind.name == "dam" and host.held() is dam.kind
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["game-1700000000.jsonl"]
    assert any("held a game of Damath" in p for p in dam.problems), dam.problems
    dam.close(6.0)


def test_an_earlier_releases_journal_of_its_own_name_is_taken_over(tmp_path):
    old = BoardHost(tmp_path / "old", sync=False)
    game = old.open(find_game("dam"), {}, 0.0)
    game.close(1.0)
    (tmp_path / "old" / "journal.jsonl").rename(tmp_path / "old" / "dam.jsonl")
    again = BoardHost(tmp_path / "old", sync=False)
    assert again.held() is find_game("dam")
    assert (tmp_path / "old" / "journal.jsonl").is_file()
    assert not (tmp_path / "old" / "dam.jsonl").exists()


def test_a_game_left_by_an_earlier_run_is_put_away_before_a_new_one(tmp_path):
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL)
    one_move(open_session(host, SessionConfig(checkpoint_seconds=0), 0.0))
    assert host.put_away_journal() is None
    assert not host.has_game()
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["game-1700000000.jsonl"]
    assert host.put_away_journal() is None  # nothing left: nothing done


def test_a_series_plays_its_games_one_after_the_other_and_keeps_each(tmp_path):
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL)
    games = [
        SessionConfig(checkpoint_seconds=0, info={"round": "1"}),
        SessionConfig(checkpoint_seconds=0, variant="whole", info={"round": "2"}),
    ]
    series = Series(host, games)
    s = series.start(0.0)
    assert series.number == 1
    with pytest.raises(SeriesError, match="not over"):
        series.next_game(1.0)
    stop_game(s, one_move(s) + 1.0)
    s = series.next_game(10.0)
    assert s is not None and series.number == 2 and s.variant == "whole" and s.phase == "setup"
    assert s.info["round"] == "2"
    stop_game(s, one_move(s, 10.0) + 1.0)
    assert series.next_game(20.0) is None and series.finished
    assert [(r.number, r.reason) for r in series.results] == [(1, "stop"), (2, "stop")]
    assert series.points() == (Fraction(1), Fraction(1))  # two draws
    kept = sorted((tmp_path / "games").glob("game-*.jsonl"))
    assert [p.name for p in kept] == ["game-1700000000-2.jsonl", "game-1700000000.jsonl"]
    variants = sorted(read(p).records[0]["variant"] for p in kept)
    assert variants == ["integer", "whole"]
    assert not host.has_game()


def test_a_series_needs_a_game():
    with pytest.raises(SeriesError):
        Series(BoardHost(None), [])


def test_the_host_is_the_only_path_the_commands_take_to_the_journal():
    """No command or the simulator opens, archives or closes a journal itself."""
    root = Path(__file__).resolve().parents[2] / "controller"
    for path in [*root.glob("cli/*.py"), *root.glob("sim/*.py")]:
        text = path.read_text(encoding="utf-8")
        for reach in (".journal.", "Journal(", "Journal.open", ".begin(t", "build_session"):
            assert reach not in text, f"{path.name} reaches the journal: {reach}"


def test_a_tool_for_one_game_opens_it_as_its_class_or_is_told_which_it_got(tmp_path):
    from controller.games.damath.kind import DamathGame

    host = BoardHost(None)
    damath = host.open_as(find_game("damath"), DamathGame, {}, 0.0)
    assert damath.session.game.ply == 0
    with pytest.raises(TypeError, match=r"^dam opened a \w+, not a DamathGame$"):
        host.open_as(find_game("dam"), DamathGame, {}, 0.0)
