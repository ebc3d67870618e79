"""Arbiter actions through the buttons: takeback with guided restore, resign, odd sequences."""

from __future__ import annotations

from controller.rules.game import Game
from controller.rules.move import BLUE, RED

from .helpers import new_session, snapshot_at

OPENING = Game.new("integer").occupied()
AFTER_FIRST = (OPENING - {(1, 2)}) | {(0, 3)}


def _one_move():
    s = new_session()
    s.feed_frame(0.0, OPENING)
    s.advance(1.0)
    s.feed_frame(5.0, AFTER_FIRST)
    s.advance(6.0)
    assert s.game.ply == 1
    return s


def test_takeback_restores_the_position_scoresheet_and_guides_the_board_back():
    s = _one_move()
    s.press(10.0, "takeback")
    assert s.game.ply == 0 and s.rows == [] and s.phase == "restore"
    assert not s.clocks.running  # the takeback does not race the clock
    snap = snapshot_at(s, 10.0)
    fix = {tuple(x["square"]): x["meaning"] for x in snap["leds"] if x["meaning"]}
    assert fix == {(1, 2): "missing", (0, 3): "extra"}
    s.feed_frame(12.0, OPENING)
    s.advance(13.0)
    assert s.phase == "play" and s.clocks.running
    assert s.clocks.reading(13.0).move_left == 60 - 0.75  # a fresh minute from 12.25


def test_resign_through_the_menu_gives_the_point_to_the_other_side():
    s = _one_move()
    s.press(7.0, "pause", "hold")
    assert snapshot_at(s, 7.0)["menu"]["options"][0] == "Cancel"
    for _ in range(3):  # Cancel -> Stop -> BLUE resigns -> RED resigns
        s.press(7.1, "next")
    s.press(7.2, "confirm")
    assert s.phase == "over" and s.outcome.reason == "resign" and s.outcome.side == RED
    assert s.outcome.winner == BLUE


def test_odd_button_sequences_change_nothing_and_say_why():
    s = new_session()
    s.press(0.5, "pause")
    s.press(0.6, "takeback")
    assert s.phase == "setup" and not s.paused and s.message
    s = _one_move()
    s.press(7.0, "new_game")
    s.press(7.1, "confirm")  # Cancel is selected first: the game is not thrown away
    assert s.phase == "play" and s.game.ply == 1 and s.clocks.running


def test_variant_and_rules_chosen_with_the_buttons_in_setup():
    s = new_session()
    s.feed_frame(0.0, OPENING)
    s.press(0.1, "next")
    assert s.game.variant == "fraction"
    s.press(0.2, "next", "hold")
    assert s.config.rules == "online" and s.game.profile.move_seconds == 20
    s.advance(1.0)
    assert s.phase == "play"
