"""The seed's section on the digit 0: what 0 does to the partial values of each operator, and
the removals of its examples."""

from __future__ import annotations

from controller.rules.mathchess import Op

from .helpers import after_move, col, position, removable, row, symbols, texts


def test_zero_c_multiplication_black_times_removes_white_3_0_and_5():
    pos = position(row(4, "w3 w0 b9 . b0 w5", 1), col(4, "b×", 7), to_move="black")
    pos = after_move(pos, (4, 7), (4, 4))
    assert "3 × 0 = 0 and 0 × 5 = 0: last digits 0 = 0" in texts(pos)
    assert symbols(pos, removable(pos)) == ["w0", "w3", "w5"]


def test_zero_d_division_black_divide_removes_white_0_6_and_5():
    pos = position(row(4, "w0 w6 b8 . b0 w5", 1), col(4, "b÷", 7), to_move="black")
    pos = after_move(pos, (4, 7), (4, 4))
    assert "0 ÷ 6 = 0 and 0 ÷ 5 = 0: last digits 0 = 0" in texts(pos)
    assert symbols(pos, removable(pos)) == ["w0", "w5", "w6"]
    divisors = [v.digits[1] for m in pos.removal_options() for v in (m.first, m.second)
                if v.op is Op.DIV and len(v.digits) == 2]  # fmt: skip
    assert divisors and 0 not in divisors  # never ÷ 0


def test_zero_e_power_white_power_removes_the_black_0():
    pos = position(row(4, "b0 w3 . w0 w5", 1), col(3, "wP", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    assert "0² = 0 and 0² = 0: last digits 0 = 0" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b0"]


def test_zero_f_root_zero_is_a_partial_root():
    pos = position(row(4, "b0 . w0", 2), col(3, "wR", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    assert "√0 = 0 and √0 = 0: last digits 0 = 0" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b0"]


def test_zero_a_b_a_single_right_zero_is_a_partial_value_of_plus_and_minus():
    pos = after_move(position(row(4, "b4 b6 . w0", 1), col(3, "w+", 1)), (3, 1), (3, 4))
    assert texts(pos) == {"4 + 6 = 10 and 0: last digits 0 = 0"}
    assert symbols(pos, removable(pos)) == ["b4", "b6"]
    pos = after_move(position(row(4, "b5 w5 . b0", 1), col(3, "w−", 1)), (3, 1), (3, 4))
    assert "5 − 5 = 0 and 0: last digits 0 = 0" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b0", "b5"]
