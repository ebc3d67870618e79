"""The scoresheet and the game record of a game being played, and the players and event on
them: a sheet downloaded mid-game says the game is in progress, like its PDN (``*``)."""

from __future__ import annotations

import csv
import io

import pytest

from controller.record.info import InfoError
from controller.record.play import PlayError
from controller.rules.game import Game
from controller.session import SessionConfig
from tests.session.helpers import open_session

from .helpers import new_session


def _play(session, paths, t0=0.0) -> float:
    """Set up the opening, then play ``paths`` as the sensors would see them."""
    game = Game.new(session.variant)
    session.feed_frame(t0, game.occupied())
    t = t0 + 1.0
    session.advance(t)
    for path in paths:
        move = game.find_move(path)
        game.push(move)
        t += 1.0
        session.feed_frame(t, game.occupied())
        t += 1.0
        session.advance(t)
    return t


OPENING = [[(1, 2), (0, 3)], [(2, 5), (1, 4)], [(0, 3), (2, 5)]]


def test_a_sheet_downloaded_mid_game_announces_no_winner():
    s = new_session()
    _play(s, OPENING)
    assert s.phase == "play" and s.game.ply == 3 and s.outcome is None
    sheet = s.sheet()
    assert sheet.finished is False
    page = s.export_html()
    assert '<p class="result">Game in progress after 3 moves: BLUE −10, RED 0.' in page
    assert "wins: 1 point" not in page and "Grand total" not in page
    kinds = {row[1] for row in csv.reader(io.StringIO(s.export_csv()))}
    assert kinds == {"kind", "move", "take"}  # no remaining chips, totals or grand totals yet
    assert '[Result "*"]' in s.export_pdn() and s.export_pdn().rstrip().endswith("*")


def test_players_and_event_go_on_the_sheet_the_pdn_and_through_a_restart(tmp_path):
    from controller.board import BoardHost
    from controller.session import SessionConfig

    s = open_session(BoardHost.of_board(tmp_path, "t1"), SessionConfig(), 0.0)
    s.set_info(0.5, {"blue": "Ana Cruz", "blue_school": "Rizal HS", "red": "Ben Reyes"})
    s.set_info(0.6, {"event": "Grade 8 practice", "round": "2", "table": "4", "date": "2026-11-23"})
    _play(s, OPENING)
    pdn = s.export_pdn()
    for tag in ('[Blue "Ana Cruz"]', '[Red "Ben Reyes"]', '[BlueSchool "Rizal HS"]',
                '[Event "Grade 8 practice"]', '[Round "2"]', '[Board "4"]',
                '[Date "2026.11.23"]'):  # fmt: skip
        assert tag in pdn
    page = s.export_html()
    for text in ("Ana Cruz", "Rizal HS", "Ben Reyes", "Grade 8 practice", "2026-11-23"):
        assert text in page
    s.journal.close()
    again = open_session(BoardHost.of_board(tmp_path, "t1"), SessionConfig(), 10.0)
    assert again.info["blue"] == "Ana Cruz" and again.info["round"] == "2"
    assert '[Blue "Ana Cruz"]' in again.export_pdn()


def test_the_names_stay_on_the_sheet_of_a_finished_game():
    s = new_session()
    _play(s, OPENING)
    s.press(20.0, "pause", "hold")
    s.press(20.1, "next")
    s.press(20.2, "confirm")  # Stop, tally now
    assert s.phase == "over"
    s.set_info(21.0, {"red": "Ben"})
    assert s.sheet().players[1].name == "Ben" and "Ben" in s.export_html()


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"nickname": "x"}, "unknown field 'nickname'"),
        ({"blue": "a" * 61}, "at most 60 characters"),
        ({"blue": 'Ana "the fox"'}, "cannot be used here"),
        ({"red": "Ben\nReyes"}, None),  # a line break is folded into a space, not refused
    ],
)
def test_names_that_cannot_be_written_on_a_sheet_are_refused_clearly(changes, words):
    s = new_session()
    if words is None:
        s.set_info(1.0, changes)
        assert s.info["red"] == "Ben Reyes"
        return
    with pytest.raises(InfoError, match=words):
        s.set_info(1.0, changes)


def test_run_set_carries_players_event_and_practice_beside_the_rules():
    config = SessionConfig(
        rule_settings={"move_seconds": 120, "blue": "Ana", "round": 3, "practice": True,
                       "clocks": "off"},
    )  # fmt: skip
    assert config.rule_settings == {"move_seconds": 120}
    assert config.info == {"blue": "Ana", "round": "3"}
    assert config.play_settings().timed is False


def test_practice_helps_are_refused_outside_practice():
    with pytest.raises(PlayError, match="capture_preview=true: practice help"):
        SessionConfig(play={"capture_preview": True})
    s = new_session(play={"practice": True})
    s.set_play(1.0, {"capture_preview": True})
    assert s.play.preview
    with pytest.raises(PlayError, match="chosen when a new game starts"):
        s.set_play(2.0, {"clocks": "off"})


def test_the_boards_buttons_choose_the_names_from_the_class_list(tmp_path):
    from controller.board import BoardHost
    from controller.session import SessionConfig
    from controller.view.compose import compose

    (tmp_path / "boards" / "t2").mkdir(parents=True)
    (tmp_path / "boards" / "t2" / "players.txt").write_text("# class 8-A\nAna Cruz\nBen Reyes\n")
    s = open_session(BoardHost.of_board(tmp_path, "t2"), SessionConfig(), 0.0)
    assert s.roster == ("Ana Cruz", "Ben Reyes")

    def page(t):
        return list(compose(s.view_input(t), t).page)

    s.press(1.0, "pause", "hold")  # setting up: hold Pause opens the game settings
    assert page(1.0) == ["Game settings", "> Close", "  Blue: (no name)", "  Red: (no name)"]
    s.press(1.1, "next")
    s.press(1.2, "confirm")  # Blue: choose from the list
    assert page(1.2)[0] == "Blue player?"
    s.press(1.3, "next")
    s.press(1.4, "confirm")  # Ana Cruz
    assert s.info["blue"] == "Ana Cruz"
    assert page(1.4)[2:] == ["  Blue: Ana Cruz", "> Red: (no name)"]
    s.press(1.6, "confirm")  # Red
    s.press(1.7, "next")
    s.press(1.8, "next")
    s.press(1.9, "confirm")  # Ben Reyes
    s.press(2.0, "confirm")  # Close
    assert s.menu is None and s.info == {"blue": "Ana Cruz", "red": "Ben Reyes"}
    assert page(2.0)[-1] == "Ana v Ben"  # the setup page names the players
    s.feed_frame(3.0, Game.new("integer").occupied())
    s.advance(4.0)
    assert page(4.0)[1].startswith("Ana 20:00")  # whose turn, by name
