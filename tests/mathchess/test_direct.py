"""R01–R05 (C-4): moves along lines, and the removals a move makes by itself."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import Done, IllegalAction, Move

from .helpers import after_move, col, position, removable, row, symbols


def targets(pos, start):
    return {m.end: m.rule for m in pos.legal_moves() if m.start == start}


def refusal(pos, start, end):
    with pytest.raises(IllegalAction) as refused:
        pos.apply(Move(start, end))
    return refused.value.rule, refused.value.text


def test_r01_a_piece_moves_any_distance_along_its_row_or_column_over_empty_points():
    pos = position(row(4, "w7", 4))
    assert set(targets(pos, (4, 4))) == {(x, 4) for x in range(9) if x != 4} | {
        (4, y) for y in range(9) if y != 4
    }
    assert refusal(pos, (4, 4), (5, 5))[0] == "R01"
    blocked = position(row(4, "w7 . w3", 4))
    assert (7, 4) not in targets(blocked, (4, 4))
    assert refusal(blocked, (4, 4), (7, 4)) == (
        "R01",
        "the way is blocked at (6,4): a move passes over empty points only",
    )
    assert refusal(blocked, (4, 4), (6, 4)) == ("R01", "(6,4) holds your own 3")
    assert refusal(position(row(4, "w7 b+", 4)), (4, 4), (5, 4))[0] == "R03"


def test_r01_one_move_a_turn_and_only_the_player_to_move():
    pos = position(row(4, "w7 . . b2", 2))
    assert refusal(pos, (5, 4), (5, 5)) == ("R01", "the black 2 on (5,4) is not yours")
    moved = after_move(pos, (2, 4), (2, 5))
    assert refusal(moved, (2, 5), (2, 6)) == ("R01", "only one move in a turn")


def test_r02_a_the_white_plus_replaces_the_black_minus_then_black_plus_takes_the_2():
    pos = position(row(2, "w+ . b− b+", 1), col(4, "w2", 5))
    assert targets(pos, (1, 2))[(3, 2)] == "R02"
    pos = after_move(pos, (1, 2), (3, 2)).apply(Done())
    black_plus = targets(pos, (4, 2))
    assert (3, 2) not in black_plus  # the same kind: never
    assert black_plus[(4, 5)] == "R02"
    assert refusal(pos, (4, 2), (3, 2))[0] == "R02"


def test_r02_b_the_black_times_takes_the_first_piece_only_and_is_taken_back():
    pos = position(col(6, "w− w+ . . . b×", 1), to_move="black")
    took = targets(pos, (6, 6))
    assert took[(6, 2)] == "R02" and (6, 1) not in took
    rule, _ = refusal(pos, (6, 6), (6, 1))
    assert rule == "R02"
    pos = after_move(pos, (6, 6), (6, 2)).apply(Done())
    assert targets(pos, (6, 1))[(6, 2)] == "R02"


def test_r02_c_d_an_operator_never_takes_its_own_kind_but_takes_a_digit():
    pos = position(col(2, "w+ . . b+", 3), row(6, "w4", 5), to_move="black")
    black_plus = targets(pos, (2, 6))
    assert (2, 3) not in black_plus and black_plus[(5, 6)] == "R02"
    pos = position(row(4, "w× . . b×", 2), col(2, "b2", 7))
    white_times = targets(pos, (2, 4))
    assert (5, 4) not in white_times and white_times[(2, 7)] == "R02"


def test_r02_e_the_black_minus_takes_the_5_and_the_white_times_takes_it_back():
    pos = position(col(4, "w× w5 . . b−", 2), to_move="black")
    pos = after_move(pos, (4, 6), (4, 3)).apply(Done())
    assert targets(pos, (4, 2))[(4, 3)] == "R02"


def test_r03_two_digits_alone_on_a_line_take_each_other_unless_equal():
    pos = position(row(3, "w1 . . . b8", 2))
    assert targets(pos, (2, 3))[(6, 3)] == "R03"
    assert targets(position(row(3, "w1 . . . b8", 2), to_move="black"), (6, 3))[(2, 3)] == "R03"
    equal = position(row(3, "w7 . . . b7", 2))
    assert (6, 3) not in targets(equal, (2, 3))
    rule, text = refusal(equal, (2, 3), (6, 3))
    assert rule == "R03" and "same value" in text
    crowded = position(row(3, "w1 . . . b8 b5", 2))
    assert (6, 3) not in targets(crowded, (2, 3))
    # an operator is not a digit: a digit never takes one by R03
    assert (6, 3) not in targets(position(row(3, "w1 . . . b+", 2)), (2, 3))


def test_r04_an_operator_jumps_its_partner_to_take_the_first_piece_beyond():
    pos = position(row(1, "w+ w− . . b−", 1))
    move = next(m for m in pos.legal_moves() if m.start == (1, 1) and m.end == (5, 1))
    assert move.rule == "R04" and move.over == (2, 1)
    black = position(row(3, "b+ b− . w− .", 1), to_move="black")
    assert targets(black, (1, 3))[(4, 3)] == "R04"


def test_r04_c_never_its_own_kind_beyond_but_the_partner_may_take_it():
    pos = position(row(4, "w× w+ . . b×", 1))
    assert (5, 4) not in targets(pos, (1, 4))
    rule, text = refusal(pos, (1, 4), (5, 4))
    assert rule == "R04" and "own kind" in text
    assert targets(pos, (2, 4))[(5, 4)] == "R02"


def test_r05_a_digit_jumps_its_partner_to_take_a_piece_beyond():
    pos = position(row(1, "w1 w9 . b−", 1))
    assert targets(pos, (1, 1))[(4, 1)] == "R05"
    pos = position(row(2, "w2 w7 b3 b7", 1), to_move="black")
    assert (2, 2) not in targets(pos, (4, 2))  # the black 7 may not take the white 7
    assert refusal(pos, (4, 2), (2, 2))[0] == "R05"
    white = position(row(2, "w2 w7 b3 b7", 1))
    assert targets(white, (1, 2))[(3, 2)] == "R05"
    pos = position(row(3, "w− . b5 b8", 1), to_move="black")
    assert targets(pos, (4, 3))[(1, 3)] == "R05"
    pos = position(row(4, "b× w3 w6 b4", 1))
    assert targets(pos, (3, 4))[(1, 4)] == "R05" and targets(pos, (2, 4))[(4, 4)] == "R05"


def test_c4_the_moving_piece_replaces_the_taken_piece_and_may_still_match_there():
    # the white + takes the black − on (3, 4) (R02) and lands between 6 + 9 and 5
    pos = position(row(4, "w1 w6 b9 b− b5"), col(3, "w+", 1))
    moved = after_move(pos, (3, 1), (3, 4))
    assert moved.board.at((3, 4)).symbol == "+" and moved.board.at((3, 1)) is None
    assert moved.turn.direct
    assert symbols(moved, removable(moved)) == ["b5", "b9"]
    no_match = after_move(
        position(row(4, "w1 w6 b9 b− b5"), col(3, "w+", 1), match_after_direct=False),
        (3, 1),
        (3, 4),
    )
    assert no_match.removal_options() == []
