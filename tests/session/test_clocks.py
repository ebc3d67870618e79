"""RULES.md §6 with a fake time source: reminder, time-outs per profile, pause, the 20:00 end."""

from __future__ import annotations

import random

import pytest

from controller.rules.game import Game
from controller.rules.move import BLUE, RED
from controller.session import ArbiterClocks, Session, SessionConfig
from controller.session.clocks import clock_text
from controller.view.clockfaces import clock_faces

from .helpers import new_session, snapshot_at


def test_reminder_comes_ten_seconds_before_the_minute_at_its_exact_instant():
    c = ArbiterClocks(1200, 60, 10)
    c.start(100.0)
    assert c.poll(149.9) == []
    events = c.poll(175.0)  # noticed late: still stamped when it fell
    assert [(e.t, e.kind) for e in events] == [(150.0, "warning"), (160.0, "move_timeout")]
    assert c.poll(200.0) == []  # each only once


def test_a_move_gives_the_next_player_a_full_minute_and_a_new_reminder():
    c = ArbiterClocks(1200, 60, 10)
    c.start(0.0)
    c.poll(55.0)
    c.new_move(55.0)
    r = c.reading(56.0)
    assert r.move_left == pytest.approx(59.0) and r.game_left == pytest.approx(1144.0)
    assert not r.warned
    assert [e.kind for e in c.poll(105.0)] == ["warning"]


def test_pause_stops_both_clocks_and_the_time_stopped_is_not_counted():
    c = ArbiterClocks(1200, 60, 10)
    c.start(0.0)
    c.stop(20.0)
    assert c.reading(500.0).move_left == pytest.approx(40.0)
    assert c.poll(500.0) == []
    c.start(500.0)
    assert c.reading(510.0).game_left == pytest.approx(1170.0)


def test_twenty_minutes_of_irregular_ticks_drift_less_than_50_ms():
    """Counted from elapsed time: 200 Hz jitter, pauses and moves change nothing."""
    rng = random.Random(1)
    c = ArbiterClocks(1200, 60, 10)
    t = 1000.0
    c.start(t)
    paused_total = 0.0
    while t < 2400.0:
        t += rng.uniform(0.001, 0.009)
        c.poll(t)
        if rng.random() < 0.0005:
            c.new_move(t)
        if rng.random() < 0.0002:
            c.stop(t)
            pause = rng.uniform(1, 30)
            paused_total += pause
            t += pause
            c.start(t)
    expected_left = max(0.0, 1200.0 - (t - 1000.0 - paused_total))
    assert abs(c.reading(t).game_left - expected_left) < 0.05


def test_game_clock_end_stops_everything_at_20_00():
    c = ArbiterClocks(1200, 60, 10)
    c.start(0.0)
    t = 0.0
    while t < 1300:
        t += 30.0
        c.poll(t)
        c.new_move(t)
    assert c.game_over and not c.running
    assert c.reading(t).game_left == 0.0


def test_clock_text_rounds_up_so_zero_means_time_is_over():
    assert clock_text(1200) == "20:00"
    assert clock_text(59.01) == "1:00"
    assert clock_text(0.2) == "0:01"
    assert clock_text(0.0) == "0:00" and clock_text(-3) == "0:00"
    assert clock_text(10**6) == "99:59"  # four digits at most


def _playing(rules: str) -> tuple[Session, float]:
    s = new_session(rules=rules)
    board = Game.new("integer").occupied()
    s.feed_frame(0.0, board)
    s.advance(1.0)  # settle: the board is ready, the clocks run from 0.25
    assert s.phase == "play" and s.clocks.running
    return s, 0.25


def test_official_time_out_buzzes_and_leaves_the_decision_to_the_arbiter():
    s, t0 = _playing("official")
    s.advance(t0 + 50.0)
    assert [c.name for c in s.take_cues()][-1] == "warning"
    snap = snapshot_at(s, t0 + 50.2)
    row0 = [x for x in snap["leds"] if x["square"][1] == 0]
    assert all(x["meaning"] == "time_warning" for x in row0)  # Blue's home row blinks
    s.advance(t0 + 60.0)
    assert [c.name for c in s.take_cues()] == ["time_up"]
    assert s.phase == "play" and "arbiter" in s.message
    assert clock_faces(s.view_input(t0 + 61.6), t0 + 61.6)[1] == ""  # 0:00 blinks
    assert clock_faces(s.view_input(t0 + 61.2), t0 + 61.2)[1] == "0:00"


def test_online_time_out_lets_the_opponent_move_for_the_player():
    s, t0 = _playing("online")
    s.advance(t0 + 20.0)
    names = [c.name for c in s.take_cues()]
    assert names[-2:] == ["warning", "time_up"]
    assert s.proxy and "RED moves for BLUE" in s.message
    assert s.clocks.reading(t0 + 21.0).move_left == pytest.approx(19.0)  # a fresh 20 s
    assert s.game.side_to_move == BLUE  # the move is still Blue's, played by Red's hand


def test_pause_button_stops_the_clocks_and_resume_restarts_them():
    s, t0 = _playing("official")
    s.press(10.0, "pause")
    assert s.paused and not s.clocks.running
    assert snapshot_at(s, 11.0)["leds"][0]["meaning"] == "paused"
    s.press(300.0, "pause")
    assert s.clocks.reading(301.0).move_left == pytest.approx(60 - (10.0 - t0) - 1.0)


def test_the_twenty_minute_end_tallies_the_grand_totals():
    s, t0 = _playing("official")
    # no one moves; the arbiter keeps the game going past every move time-out
    s.advance(t0 + 1200.0)
    assert s.phase == "over" and s.outcome.reason == "time"
    sides = s.outcome.sheet.game.sides
    # nothing taken: the grand totals are the remaining chips, equal by symmetry: a draw
    assert sides[BLUE].grand == sides[RED].grand
    assert s.outcome.winner is None
    snap = snapshot_at(s, t0 + 1201)
    assert snap["clocks"]["left"] == "0:00" and snap["result"]["points"] == ["1/2", "1/2"]
    assert snap["scoresheet"][3].startswith("GT B ")


def test_a_move_resets_the_move_clock_through_the_session():
    s, _t0 = _playing("official")
    s.feed_frame(5.0, (Game.new("integer").occupied() - {(1, 2)}) | {(0, 3)})
    s.advance(6.0)
    assert s.game.ply == 1 and s.game.side_to_move == RED
    assert s.clocks.reading(6.0).move_left == pytest.approx(60 - (6.0 - 5.25))


def test_config_with_a_bad_rule_setting_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown profile setting"):
        Session(SessionConfig(rule_settings={"nonsense": 1}))
