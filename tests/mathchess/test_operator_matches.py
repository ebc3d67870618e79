"""R06 and R07 (C-7): a moved operator whose two sides hold matching partial values removes the
opponent's digits in them, several pairs at once. Each of the seed's examples is a test; the
seed's figures are lost, so each line is laid out as its words describe
(docs/rules-mathchess.md)."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import IllegalAction, Remove

from .helpers import after_move, col, position, removable, remove, row, symbols, texts


def test_r06_example1_sum_and_single_digit_remove_two_black_digits():
    # left of the white +: 1, 6, 9; right: 5. The + comes up its column.
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    assert texts(pos) == {"6 + 9 = 15 and 5: last digits 5 = 5"}
    assert symbols(pos, removable(pos)) == ["b5", "b9"]
    (match,) = pos.removal_options()
    assert match.rule == "R06" and match.first.digits == (6, 9) and match.second.digits == (5,)
    after = remove(pos, (2, 4), (4, 4))
    assert after.board.at((2, 4)) is None and after.board.at((4, 4)) is None
    assert pos.step_rule(frozenset({(2, 4), (4, 4)})) == "R06"


def test_r06_example2_black_addition_removes_three_white_digits():
    pos = position(row(5, "w2 b6 b1 . w5 w3"), col(3, "b+", 7), to_move="black")
    pos = after_move(pos, (3, 7), (3, 5))
    assert texts(pos) == {"2 + 6 = 8 and 5 + 3 = 8: last digits 8 = 8"}
    assert symbols(pos, removable(pos)) == ["w2", "w3", "w5"]


def test_r06_example3_subtraction_adds_ten_to_the_smaller_first_digit():
    # The seed names the removed digits "5 and 3"; its partial values use 6, 5 and 9, so the
    # opposing digits removable are those among them: white 6 and 5 (black 9 stays).
    pos = position(row(3, "w6 . w5 b9", 1), col(2, "b−", 7), to_move="black")
    pos = after_move(pos, (2, 7), (2, 3))
    assert "6 and (10 + 5) − 9 = 6: last digits 6 = 6" in texts(pos)
    assert symbols(pos, removable(pos)) == ["w5", "w6"]


def test_r06_example4_product_pairs_share_a_last_digit():
    pos = position(row(2, "b2 b8 w7 . b6 w9", 1), col(4, "b×", 7), to_move="black")
    pos = after_move(pos, (4, 7), (4, 2))
    assert texts(pos) == {"2 × 7 = 14 and 6 × 9 = 54: last digits 4 = 4"}
    assert symbols(pos, removable(pos)) == ["w7", "w9"]


def test_r06_example5_a_move_of_the_operator_makes_the_match():
    # black +: left white 6 alone, right black 2 + 4 = 6
    pos = position(row(2, "w6 . b2 b4", 2), col(3, "b+", 6), to_move="black")
    assert pos.removal_options() == []
    pos = after_move(pos, (3, 6), (3, 2))
    assert symbols(pos, removable(pos)) == ["w6"]
    # white ×: left 7 alone, right 3 × 9 = 27
    pos = position(row(5, "w7 . b3 b9", 2), col(3, "w×", 1))
    pos = after_move(pos, (3, 1), (3, 5))
    assert texts(pos) == {"7 and 3 × 9 = 27: last digits 7 = 7"}
    assert symbols(pos, removable(pos)) == ["b3", "b9"]


def test_r06_example6_quotients():
    pos = position(row(4, "w8 w2 b3 . b4 w9", 1), col(4, "w÷", 1))
    pos = after_move(pos, (4, 1), (4, 4))
    assert texts(pos) == {"(10 + 8) ÷ 3 = 6 and (50 + 4) ÷ 9 = 6: last digits 6 = 6"}
    assert symbols(pos, removable(pos)) == ["b3", "b4"]


def test_r06_example7_powers():
    pos = position(row(4, "b2 w3 . b4 w6", 2), col(4, "wP", 1))
    pos = after_move(pos, (4, 1), (4, 4))
    assert texts(pos) == {"2² = 4 and 4³ = 64: last digits 4 = 4"}
    assert symbols(pos, removable(pos)) == ["b2", "b4"]


def test_r06_example8_powers_of_single_digits_both_ways():
    pos = position(row(5, "w2 . b8", 3), col(4, "bP", 7), to_move="black")
    pos = after_move(pos, (4, 7), (4, 5))
    assert texts(pos) == {"2² = 4 and 8² = 64: last digits 4 = 4"}
    assert symbols(pos, removable(pos)) == ["w2"]
    pos = position(row(3, "w9 . b3", 3), col(4, "wP", 1))
    pos = after_move(pos, (4, 1), (4, 3))
    assert texts(pos) == {"9³ = 729 and 3² = 9: last digits 9 = 9"}
    assert symbols(pos, removable(pos)) == ["b3"]


def test_r06_an_operator_removes_only_opposing_digits_never_an_operator_or_own_digit():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    with pytest.raises(IllegalAction) as own:
        remove(pos, (1, 4))
    assert own.value.rule == "C-3"
    with pytest.raises(IllegalAction) as other:
        remove(pos, (0, 8))  # the black operator in the corner
    assert other.value.rule == "R06" and "digits only" in other.value.text


def test_r06_no_match_no_removal_and_the_refusal_names_the_rule():
    pos = position(row(4, "w1 b2 . b4"), col(2, "w+", 1))
    pos = after_move(pos, (2, 1), (2, 4))
    assert pos.removal_options() == []
    with pytest.raises(IllegalAction) as refused:
        pos.apply(Remove(frozenset({(1, 4)})))
    assert refused.value.rule == "R06" and "no matching pair" in refused.value.text


def test_r07_example1_two_pairs_of_sums_remove_three_digits_at_once():
    pos = position(row(4, "b1 w2 b5 . w3 w4 b6", 1), col(4, "w+", 1))
    pos = after_move(pos, (4, 1), (4, 4))
    assert {"1 + 2 = 3 and 3 + 4 + 6 = 13: last digits 3 = 3",
            "2 + 5 = 7 and 3 + 4 = 7: last digits 7 = 7"} <= texts(pos)  # fmt: skip
    assert symbols(pos, removable(pos)) == ["b1", "b5", "b6"]
    every = frozenset(removable(pos))
    assert pos.step_rule(every) == "R07"
    assert pos.step_rule(frozenset({(1, 4), (7, 4)})) == "R06"  # one pair: 1 and 6
    after = pos.apply(Remove(every))
    assert all(after.board.at(p) is None for p in every)


def test_r07_example2_two_pairs_of_powers():
    pos = position(row(4, "b2 b3 . b4 w9", 2), col(4, "wP", 1))
    pos = after_move(pos, (4, 1), (4, 4))
    assert {"2² = 4 and 4³ = 64: last digits 4 = 4",
            "3² = 9 and 9³ = 729: last digits 9 = 9"} <= texts(pos)  # fmt: skip
    assert symbols(pos, removable(pos)) == ["b2", "b3", "b4"]
    assert pos.step_rule(frozenset(removable(pos))) == "R07"


def test_c7_matches_on_the_operators_column_count_too():
    pos = position(col(4, "w1 w6 b9 . b5", 1), row(4, "w+", 7))
    pos = after_move(pos, (7, 4), (4, 4))
    (match,) = pos.removal_options()
    assert match.line == "column" and symbols(pos, set(match.removable)) == ["b5", "b9"]


def test_c7_attached_digits_stop_at_the_next_operator():
    # 3 is beyond the black − and so not attached to the white +
    pos = position(row(4, "w3 b− b2 . b5 w4", 1), col(4, "w+", 1))
    pos = after_move(pos, (4, 1), (4, 4))
    assert pos.board.attached((4, 4), "row") == (((3, 4),), ((5, 4), (6, 4)))
