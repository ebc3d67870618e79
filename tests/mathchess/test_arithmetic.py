"""C-5 and C-6: partial values from attached digits, and how values compare, with the sums the
seed works out in its chapter of definitions."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import Op, key, partial_values
from controller.rules.mathchess.arithmetic import digit_roots, quotient


def values(op: Op, digits: tuple[int, ...], roots: str = "smallest") -> list[int]:
    points = tuple((i, 0) for i in range(len(digits)))
    return [v.value for v in partial_values(op, points, digits, roots)]


def written(op: Op, digits: tuple[int, ...]) -> list[str]:
    points = tuple((i, 0) for i in range(len(digits)))
    return [v.text() for v in partial_values(op, points, digits)]


def test_c6_partial_sums_are_sums_of_two_or_more_attached_digits():
    assert sorted(values(Op.ADD, (3, 2, 9))) == [5, 11, 12, 14]
    assert values(Op.ADD, (1, 5)) == [6]
    assert "3 + 2 + 9 = 14" in written(Op.ADD, (3, 2, 9))


def test_c6_partial_differences_take_both_orders_adding_ten_to_a_smaller_first():
    assert set(values(Op.SUB, (3, 5, 4))) == {8, 2, 9, 1}
    text = written(Op.SUB, (3, 5, 4))
    for sum_ in ("(10 + 3) − 5 = 8", "5 − 3 = 2", "(10 + 3) − 4 = 9", "4 − 3 = 1", "5 − 4 = 1",
                 "(10 + 4) − 5 = 9"):  # fmt: skip
        assert sum_ in text
    assert sorted(written(Op.SUB, (6, 7))) == ["(10 + 6) − 7 = 9", "7 − 6 = 1"]


def test_c6_partial_products_are_products_of_two_or_more():
    assert sorted(values(Op.MUL, (2, 3, 7))) == [6, 14, 21, 42]
    assert values(Op.MUL, (6, 8)) == [48]


def test_c6_quotients_add_the_smallest_ten_that_divides_exactly():
    assert quotient(4, 8) == (3, 20)  # (20 + 4) ÷ 8 = 3
    assert quotient(8, 4) == (2, 0)
    assert quotient(5, 7) == (5, 30) and quotient(7, 5) is None  # one quotient
    assert quotient(9, 7) == (7, 40) and quotient(7, 9) == (3, 20)
    assert quotient(2, 5) is None and quotient(5, 2) is None  # none
    assert quotient(3, 0) is None and quotient(0, 6) == (0, 0)  # never ÷ 0; 0 ÷ b = 0
    assert set(values(Op.DIV, (2, 4, 7))) == {3, 2, 6}
    assert "(40 + 2) ÷ 7 = 6" in written(Op.DIV, (2, 4, 7))
    assert sorted(written(Op.DIV, (9, 3))) == ["(60 + 3) ÷ 9 = 7", "9 ÷ 3 = 3"]


def test_c6_partial_powers_are_squares_and_cubes():
    assert sorted(values(Op.POW, (4, 6, 7))) == [16, 36, 49, 64, 216, 343]
    assert sorted(values(Op.POW, (9, 8))) == [64, 81, 512, 729]
    assert "4³ = 64" in written(Op.POW, (4, 6, 7))


@pytest.mark.parametrize(
    ("d", "square", "cube"),
    [(0, 0, 0), (1, 1, 1), (2, None, 8), (3, None, 7), (4, 2, 4), (5, 5, 5), (6, 4, 6),
     (7, None, 3), (8, None, 2), (9, 3, 9)],
)  # fmt: skip
def test_c6_roots_of_the_smallest_ten_added_every_digit_has_a_cube_root(d, square, cube):
    found_square = digit_roots(d, 2)
    assert [r for r, _ in found_square] == ([] if square is None else [square])
    assert [r for r, _ in digit_roots(d, 3)] == [cube]


def test_c6_root_text_shows_what_was_added():
    assert "∛(340 + 3) = 7" in written(Op.ROOT, (3,))
    assert "√(10 + 6) = 4" in written(Op.ROOT, (6,))
    assert "√4 = 2" in written(Op.ROOT, (4,))


def test_c6_every_root_setting_adds_any_ten_with_a_root_below_ten():
    assert sorted(values(Op.ROOT, (4,), "every")) == [2, 4, 8]  # √4, ∛64, √64
    assert sorted(values(Op.ROOT, (4,))) == [2, 4]


def test_c6_a_single_attached_digit_is_a_value_of_add_sub_mul_div_never_of_power_or_root():
    for op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV):
        assert values(op, (5,)) == [5]
        assert written(op, (5,)) == ["5"]
    assert values(Op.POW, (5,)) == [25, 125]
    assert values(Op.ROOT, (5,)) == [5, 5]  # √25 and ∛125, not 5 itself
    assert [v.power for v in partial_values(Op.ROOT, ((0, 0),), (5,))] == [2, 3]


def test_c6_several_attached_digits_are_not_partial_values_by_themselves():
    assert 3 not in values(Op.ADD, (3, 2, 9))
    assert 2 not in values(Op.MUL, (2, 3, 7))


def test_c6_seed_sums_quoted_in_the_rules():
    assert "(10 + 3) − 5 = 8" in written(Op.SUB, (3, 5))
    assert "(40 + 2) ÷ 7 = 6" in written(Op.DIV, (2, 7))
    assert "4³ = 64" in written(Op.POW, (4,))


def test_c5_last_digits_compare_modulo_ten():
    assert key(4 + 5 + 8, "last-digit") == key(1 + 6, "last-digit") == 7


def test_c5_digit_sums_compare_repeated_digit_sums():
    assert key(7 * 5, "digit-sum") == key(2 * 13, "digit-sum") == 8
    assert key(9**3, "digit-sum") == key(6**3, "digit-sum") == 9
    assert key(0, "digit-sum") == 0
    assert key(35, "last-digit") != key(26, "last-digit")


@pytest.mark.parametrize(
    ("op", "digits", "expected"),
    [
        (Op.ADD, (3, 0, 9), {3, 12, 9}),  # (a) every digit but 0 is also a partial sum
        (Op.SUB, (3, 0, 9), {3, 7, 4, 6, 1, 9}),  # (b) every digit but 0 and its complement
        (Op.MUL, (3, 0, 9), {0, 27}),  # (c) 0 is a product, and there are fewer products
        (Op.DIV, (0, 6, 8), {0, 2, 3}),  # (d) 0 is a quotient; never ÷ 0
        (Op.POW, (0, 3), {0, 9, 27}),  # (e) 0² = 0³ = 0
        (Op.ROOT, (0,), {0}),  # (f) 0 is a partial root
    ],
)
def test_digit_zero_section_partial_values(op, digits, expected):
    assert set(values(op, digits)) == expected


def test_digit_zero_subtraction_sums_as_the_seed_writes_them():
    text = written(Op.SUB, (3, 0, 9))
    for sum_ in ("3 − 0 = 3", "(10 + 0) − 3 = 7", "(10 + 3) − 9 = 4", "9 − 3 = 6",
                 "(10 + 0) − 9 = 1", "9 − 0 = 9"):  # fmt: skip
        assert sum_ in text
    assert values(Op.SUB, (0,)) == [0]  # the single right digit 0
    assert sorted(written(Op.DIV, (0, 6, 8))) == sorted(
        ["0 ÷ 6 = 0", "0 ÷ 8 = 0", "(10 + 6) ÷ 8 = 2", "(10 + 8) ÷ 6 = 3"]
    )
