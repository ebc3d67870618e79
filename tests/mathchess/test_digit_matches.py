"""R09 and R10 (C-8): a digit's move that makes a match around any operator removes the
opponent's pieces among the digits of the two partial values, and the operator itself when it
is the opponent's; one move may match several operators."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import IllegalAction

from .helpers import after_move, col, position, removable, remove, row, symbols, texts


def test_r09_example1_white_4_removes_a_black_digit_and_the_black_plus():
    pos = position(row(3, "b5 w9 b+ .", 1), col(4, "w4", 1))
    assert pos.removal_options() == []
    pos = after_move(pos, (4, 1), (4, 3))
    assert texts(pos) == {"5 + 9 = 14 and 4: last digits 4 = 4"}
    assert symbols(pos, removable(pos)) == ["b+", "b5"]
    assert pos.removal_options()[0].rule == "R09"


def test_r09_example2_black_9_removes_two_white_digits_and_the_white_times():
    pos = position(row(5, ". w4 w× w3 b2", 1), col(1, "b9", 7), to_move="black")
    pos = after_move(pos, (1, 7), (1, 5))
    assert texts(pos) == {"9 × 4 = 36 and 3 × 2 = 6: last digits 6 = 6"}
    assert symbols(pos, removable(pos)) == ["w3", "w4", "w×"]


def test_r09_example3_white_7_removes_through_quotients():
    pos = position(row(4, "w4 b9 b÷ w5 b2 .", 1), col(6, "w7", 1))
    pos = after_move(pos, (6, 1), (6, 4))
    assert "(50 + 4) ÷ 9 = 6 and (40 + 2) ÷ 7 = 6: last digits 6 = 6" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b2", "b9", "b÷"]


def test_r09_example4_white_3_removes_through_powers():
    pos = position(row(3, "b9 bP .", 2), col(4, "w3", 1))
    pos = after_move(pos, (4, 1), (4, 3))
    assert texts(pos) == {"9³ = 729 and 3² = 9: last digits 9 = 9"}
    assert symbols(pos, removable(pos)) == ["b9", "bP"]


def test_r09_example5_black_9_removes_through_roots():
    pos = position(row(5, ". wR w7", 2), col(2, "b9", 7), to_move="black")
    pos = after_move(pos, (2, 7), (2, 5))
    assert texts(pos) == {"√9 = 3 and ∛(20 + 7) = 3: last digits 3 = 3"}
    assert symbols(pos, removable(pos)) == ["w7", "wR"]


def test_r10_example1_the_pair_with_the_moved_3_by_the_rules_default():
    pos = position(row(4, "w2 . wP b4 w9", 1), col(2, "b3", 7), to_move="black")
    pos = after_move(pos, (2, 7), (2, 4))
    assert "3² = 9 and 9³ = 729: last digits 9 = 9" in texts(pos)
    assert symbols(pos, removable(pos)) == ["w9", "wP"]  # 2² and 4³ do not use the 3 (C-8)


def test_r10_example1_both_pairs_with_the_seeds_reading():
    pos = position(
        row(4, "w2 . wP b4 w9", 1), col(2, "b3", 7), to_move="black", digit_matches="its-operators"
    )
    pos = after_move(pos, (2, 7), (2, 4))
    assert {"2² = 4 and 4³ = 64: last digits 4 = 4",
            "3² = 9 and 9³ = 729: last digits 9 = 9"} <= texts(pos)  # fmt: skip
    every = frozenset(removable(pos))
    assert symbols(pos, every) == ["w2", "w9", "wP"]
    assert pos.step_rule(every) == "R10"  # two pairs at once
    assert pos.step_rule(frozenset({(1, 4), (3, 4)})) == "R09"  # the 2 and the P: one pair


def test_r10_example2_one_digit_matches_two_operators():
    pos = position(row(4, "b8 b+ w2 . b− w9 b5", 1), col(4, "w6", 1))
    pos = after_move(pos, (4, 1), (4, 4))
    assert {"8 and 2 + 6 = 8: last digits 8 = 8",
            "6 − 2 = 4 and 9 − 5 = 4: last digits 4 = 4"} <= texts(pos)  # fmt: skip
    every = frozenset(removable(pos))
    assert symbols(pos, every) == ["b+", "b5", "b8", "b−"]
    assert pos.step_rule(every) == "R10"
    after = remove(pos, *every)
    assert all(after.board.at(p) is None for p in every)


def test_c8_a_match_must_use_the_moved_digit():
    # the black + already matches 5 + 9 = 14 and 4 with white's 4; a white digit moved
    # elsewhere on the row, not attached, makes no removal
    pos = position(row(3, "b5 w9 b+ w4 . . .", 1), col(7, "w1", 1))
    pos = after_move(pos, (7, 1), (7, 3))
    assert pos.board.attached((3, 3), "row")[1] == ((4, 3), (7, 3))
    assert pos.removal_options() == []  # 4 + 1 = 5 against 14: no match with the 1
    with pytest.raises(IllegalAction) as refused:
        remove(pos, (1, 3))
    assert refused.value.rule == "R09"


def test_c8_around_an_own_operator_a_digit_removes_only_opposing_digits():
    pos = position(row(3, "b5 w9 w+ .", 1), col(4, "w4", 1))
    pos = after_move(pos, (4, 1), (4, 3))
    assert symbols(pos, removable(pos)) == ["b5"]
