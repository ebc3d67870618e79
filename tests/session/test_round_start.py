"""A tournament game's clocks wait for the round's start (issue 26, item 1): held at full time
while the board waits for the round, for the desk's start or for the table's confirmation; a
move before the start is not played; clocks that ran before the board knew are put back; the
start (the desk's, the table's confirmation, the board arbiter's held Confirm) is journaled,
and a board that loses its power before it resumes with its clocks still full."""

from __future__ import annotations

from controller.record.journal_file import read
from controller.rules.game import Game
from controller.session import Session, SessionConfig

from .helpers import new_session

OPENING = Game.new("integer").occupied()
AFTER_FIRST = (OPENING - {(1, 2)}) | {(0, 3)}
ASG = "a-0123456789ab"


def set_up(s: Session, t: float = 0.0) -> None:
    s.feed_frame(t, OPENING)
    s.advance(t + 1.0)


def full(s: Session, t: float) -> bool:
    r = s.clocks.reading(t)
    return r.game_left == 20 * 60 and r.move_left == 60 and not r.running


def test_held_for_the_desk_the_clocks_stay_full_and_a_move_does_not_count():
    s = new_session()
    assert s.hold_clocks(0.0, "desk", ASG)
    set_up(s)
    assert s.phase == "play" and s.state.held == "desk"
    assert full(s, 600.0)  # ten minutes later: nothing ran
    s.advance(600.0)
    assert full(s, 600.0) and "arbiter's start" in s.message
    s.feed_frame(601.0, AFTER_FIRST)  # Blue moves before the start
    s.advance(602.0)
    assert s.game.ply == 0 and s.phase == "restore" and "has not started" in s.message
    s.feed_frame(603.0, OPENING)  # the chip goes back
    s.advance(604.0)
    assert s.phase == "play" and full(s, 604.0) and "arbiter's start" in s.message
    assert not s.desk_start(605.0, "a-another-table")  # another table's start
    assert s.desk_start(605.0, ASG)
    assert s.clocks.running and s.message == "The round has started: the clocks run."
    s.feed_frame(610.0, AFTER_FIRST)
    s.advance(611.0)
    assert s.game.ply == 1
    assert s.state.started_by == "desk" and s.state.started_asg == ASG


def test_clocks_that_ran_before_the_board_knew_are_put_back_to_full_time():
    s = new_session()
    set_up(s)
    s.advance(70.0)  # past the move's minute: the board said Blue is out of time
    assert s.clocks.reading(70.0).move_left == 0 and s.message
    assert s.hold_clocks(70.0, "round")
    assert full(s, 70.0) and not s.proxy
    assert s.message.startswith("Waiting for the round")
    assert s.hold_clocks(71.0, "desk", ASG)  # the round's assignment arrives: its rule now
    assert not s.hold_clocks(72.0, "desk", ASG)  # said once
    assert s.desk_start(80.0, ASG) and s.clocks.running
    assert not s.hold_clocks(81.0, "round")  # a game that started is never held again


def test_the_table_rule_starts_the_clocks_at_the_confirmation():
    s = new_session()
    s.hold_clocks(0.0, "table", ASG)
    s.expect_assignment(ASG)
    set_up(s)
    assert full(s, 30.0) and "Confirm" in s.message
    s.press(30.0, "blue")
    assert full(s, 31.0) and "waiting for Red" in s.message
    s.press(31.0, "red")
    assert s.clocks.running and s.state.started_by == "table"
    assert s.message == "The round has started: the clocks run."


def test_at_the_desk_rule_a_confirmation_waits_for_the_start_and_the_arbiter_may_start_here():
    s = new_session()
    s.hold_clocks(0.0, "desk", ASG)
    s.expect_assignment(ASG)
    set_up(s)
    s.press(5.0, "confirm")
    assert s.signing.is_confirmed(ASG) and full(s, 6.0)
    assert s.message == "Table confirmed: the clocks start at the arbiter's start."
    s.press(7.0, "confirm", "hold")  # the board's own arbiter starts this table
    assert s.clocks.running and s.state.started_by == "arbiter"


def test_practice_is_never_held():
    s = new_session(play={"practice": True})
    assert not s.hold_clocks(0.0, "desk", ASG)
    set_up(s)
    assert s.clocks.running


def test_a_power_cut_before_the_start_keeps_the_clocks_full(tmp_path):
    journal = tmp_path / "journal.jsonl"
    s = Session.open(SessionConfig(checkpoint_seconds=5), str(journal), 0.0)
    s.hold_clocks(0.0, "desk", ASG)
    set_up(s)
    s.advance(300.0)
    del s  # the power goes: nothing closed, nothing checkpointed
    s = Session.open(SessionConfig(checkpoint_seconds=5), str(journal), 0.0)
    assert s.state.held == "desk" and s.state.held_asg == ASG
    s.feed_frame(1.0, OPENING)  # the chips stand as they stood
    s.advance(2.0)
    assert s.phase == "play" and full(s, 500.0)
    assert s.desk_start(3.0, ASG) and s.clocks.running
    kinds = [r["k"] for r in read(journal).records]
    assert kinds == ["start", "hold", "ready", "go"], kinds
