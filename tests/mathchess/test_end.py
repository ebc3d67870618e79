"""C-11: the end of a game and its score (2 an operator taken, 1 a digit)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.rules.mathchess import Done, IllegalAction, Pass, Phase, Stop

from .helpers import after_move, col, position, remove, row


def test_c11_taking_the_last_operator_wins_at_once():
    pos = position({**row(3, "b5 w9 b+ .", 1), **col(4, "w4", 1)}, row(0, "w÷"), fill=False)
    pos = after_move(pos, (4, 1), (4, 3))
    over = remove(pos, (1, 3), (3, 3))
    assert over.phase is Phase.OVER
    ending = over.ending()
    assert ending.winner == 0 and ending.reason == "no-operators"
    assert ending.result() == "1-0"
    assert "black has lost all their operators" in ending.describe()
    with pytest.raises(IllegalAction) as late:
        over.apply(Done())
    assert late.value.rule == "C-11"


def test_c11_losing_all_digits_loses():
    pos = position({**row(4, "w1 w6 b9 . b5"), **col(3, "w+", 1)}, row(8, "b+", 0), fill=False)
    pos = after_move(pos, (3, 1), (3, 4))
    ending = remove(pos, (2, 4), (4, 4)).ending()
    assert ending.winner == 0 and ending.reason == "no-digits"


def test_c11_both_at_once_is_a_draw():
    pos = position(row(4, "w+ b+", 3), fill=False)
    ending = pos.ending()
    assert ending.winner is None and ending.reason == "both-lost" and ending.result() == "1/2-1/2"


def test_c11_scores_two_an_operator_one_a_digit_and_the_higher_wins_when_stopped():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    before = pos.score()
    pos = remove(after_move(pos, (3, 1), (3, 4)), (2, 4), (4, 4)).apply(Done())
    white, black = pos.score()
    assert (white - before[0], black - before[1]) == (2, 0)  # two digits taken by White
    stopped = pos.apply(Stop("time"))
    ending = stopped.ending()
    assert ending.reason == "time" and ending.scores == (white, black)
    assert ending.winner == (0 if white > black else 1 if black > white else None)
    with pytest.raises(IllegalAction):
        pos.apply(Stop("boredom"))


def test_c11_the_score_counts_taken_operators_twice():
    pos = position({**row(3, "b5 w9 b+ .", 1), **col(4, "w4", 1)})
    pos = after_move(pos, (4, 1), (4, 3))
    before = pos.score()[0]
    after = remove(pos, (1, 3), (3, 3))
    assert after.score()[0] - before == 3  # the black 5 and the black +


def test_c11_equal_scores_draw_when_stopped():
    pos = position({**row(1, "w+ w1", 1), **row(7, "b+ b1", 1)}, fill=False)
    assert pos.score()[0] == pos.score()[1]
    ending = pos.apply(Stop("arbiter")).ending()
    assert ending.winner is None and ending.reason == "arbiter"


def test_c3_c11_a_second_pass_in_a_row_ends_the_game_on_the_score():
    blocked = position({**row(0, "w+ w1 b2"), **row(1, "b+ b1")}, fill=False)
    once = blocked.apply(Pass())
    assert once.phase is Phase.PLAY and once.passes == 1
    twice = replace(blocked, passes=1).apply(Pass())
    ending = twice.ending()
    assert ending.reason == "blocked" and "neither player could move" in ending.describe()
    moved = once.apply(once.legal_moves()[0]).apply(Done())
    assert moved.passes == 0  # a turn played resets the count
