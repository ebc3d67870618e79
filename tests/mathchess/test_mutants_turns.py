"""Whole turns of Mathematical Chess, where mutation testing found slips the first tests let
through (bench/mutation.sh mathchess): a turn that can only pass, a record of a turn that names
the wrong rule, perft counted turn by turn."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import (
    IllegalAction,
    Move,
    Position,
    Stop,
    Turn,
    perft,
    play_turn,
    turns,
)

from .helpers import col, position, row


def blocked():
    """White can neither move nor remove: its + and 1 are walled in the corner."""
    return position({**row(0, "w+ w1 b2"), **row(1, "b+ b1")}, fill=False)


def test_a_player_who_can_do_nothing_has_one_turn_a_pass():
    pos = blocked()
    assert turns(pos) == [Turn(passes=True)]
    after = play_turn(pos, Turn(passes=True))
    assert (after.to_move, after.passes) == (1, 1)


def test_a_turn_that_names_the_wrong_rule_is_refused_with_the_right_one():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    wrong = Turn(move=Move((3, 1), (3, 4)), steps=(("R08", frozenset({(2, 4), (4, 4)})),))
    with pytest.raises(IllegalAction) as info:
        play_turn(pos, wrong)
    assert str(info.value) == "R06: this removal is R06, not R08"
    right = Turn(move=Move((3, 1), (3, 4)), steps=(("R06", frozenset({(2, 4), (4, 4)})),))
    after = play_turn(pos, right)
    assert after.to_move == 1 and after.board.at((2, 4)) is None and after.board.at((4, 4)) is None


def test_perft_counts_the_turns_of_each_turn():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    assert perft(pos, 0) == 1
    first = turns(pos)
    assert perft(pos, 1) == len(first)
    assert perft(pos, 2) == sum(len(turns(play_turn(pos, t))) for t in first)


def test_a_turn_can_be_ended_once_it_has_begun_and_only_in_play():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    assert not pos.can_end_turn()  # nothing done yet
    moved = pos.apply(Move((3, 1), (3, 4)))
    assert moved.can_end_turn()
    assert not Position.start().can_end_turn()  # Prepare now!
    assert not moved.apply(Stop("arbiter")).can_end_turn()  # over
