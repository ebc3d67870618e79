"""Hand-computed scores for every variant (RULES.md §4, §5, D-6, D-7, D-8).

Squares by operator (RULES.md §1): + (1,0) (2,1); − (3,0) (0,1); × (7,0) (4,1) (0,3) (4,5);
÷ (5,0) (6,1) (5,4) (6,5).
"""

from fractions import Fraction

import pytest

from controller.rules.move import BLUE, RED
from controller.rules.scoring import (
    compare,
    move_json,
    remaining_chips_score,
    round_2dp,
    round_half_away,
    score_game,
    score_move,
    score_taking,
    taking_json,
)
from controller.rules.values import Sqrt2

from .helpers import chip, plain_move, take_move, taking

PLUS, MINUS, TIMES, DIVIDE = (2, 1), (0, 1), (4, 1), (6, 1)


def scored(variant, taker, taken, square, taker_dama=False, taken_dama=False):
    s = score_taking(taking(variant, taker, taken, square, taker_dama, taken_dama), variant)
    return s.expression, s.text


@pytest.mark.parametrize(
    ("square", "expression", "text"),
    [
        (PLUS, "-9 + (-1)", "-10"),
        (MINUS, "-9 - (-1)", "-8"),
        (TIMES, "-9 x (-1)", "9"),
        (DIVIDE, "-9 ÷ (-1)", "9"),
    ],
)
def test_integer_each_operator_taker_first(square, expression, text):
    assert scored("integer", "-9", "-1", square) == (expression, text)


def test_d6_halves_round_away_from_zero_both_ways():
    assert scored("integer", "-7", "2", DIVIDE) == ("-7 ÷ 2 = -3.5 ≈ -4", "-4")
    assert scored("integer", "-7", "-2", DIVIDE) == ("-7 ÷ (-2) = 3.5 ≈ 4", "4")
    assert scored("whole", "10", "4", DIVIDE) == ("10 ÷ 4 = 2.5 ≈ 3", "3")
    assert scored("whole", "7", "3", DIVIDE) == ("7 ÷ 3 = 7/3 ≈ 2", "2")
    assert round_half_away(Fraction(-5, 2)) == -3 and round_half_away(Fraction(5, 2)) == 3


def test_d6_halves_round_away_from_zero_then_multiplier():
    assert scored("integer", "-7", "2", DIVIDE, taker_dama=True) == (
        "-7 ÷ 2 = -3.5 ≈ -4 x 2 = -8",
        "-8",
    )


def test_dama_doubles_and_dama_taking_dama_quadruples():
    # the manual's integer sheet: -5 x 10 = -50 x 2 = -100; 6 + 4 = 10 x 4 = 40
    assert scored("integer", "-5", "10", TIMES, taker_dama=True) == (
        "-5 x 10 = -50 x 2 = -100",
        "-100",
    )
    assert scored("integer", "10", "6", PLUS, taken_dama=True) == ("10 + 6 = 16 x 2 = 32", "32")
    assert scored("integer", "6", "4", PLUS, True, True) == ("6 + 4 = 10 x 4 = 40", "40")


def test_d8_division_by_zero_scores_zero_in_every_kind():
    assert scored("integer", "-9", "0", DIVIDE) == ("-9 ÷ 0 = 0", "0")
    assert scored("rational", "-9/10", "0", DIVIDE, taker_dama=True) == (
        "-9/10 ÷ 0 = 0 x 2 = 0",
        "0",
    )
    # polynomial: -15x is 0 in column 0 (no ÷ square there), so 6x ÷ -15x at… use x = 0 rows:
    # (5,0) is ÷ and y = 0, so 10y is 0 there
    assert scored("polynomial", "6x", "10y", (5, 0)) == ("6x ÷ 10y = 0", "0")


def test_fractions_in_lowest_terms():
    assert scored("rational", "-7/10", "-9/10", MINUS) == ("-7/10 - (-9/10)", "1/5")
    assert scored("rational", "-7/10", "6/10", DIVIDE) == ("-7/10 ÷ 6/10", "-7/6")
    assert scored("rational", "-3/10", "-7/10", TIMES) == ("-3/10 x (-7/10)", "21/100")
    assert scored("fraction", "10/10", "2/10", PLUS) == ("10/10 + 2/10", "6/5")
    assert scored("rational", "-9/10", "-1/10", PLUS) == ("-9/10 + (-1/10)", "-1")


def test_radicals_exact_each_operator():
    assert scored("radical", "4√18", "-√8", PLUS) == ("4√18 + (-√8)", "10√2")
    assert scored("radical", "4√18", "-√8", MINUS) == ("4√18 - (-√8)", "14√2")
    assert scored("radical", "4√18", "-√8", TIMES) == ("4√18 x (-√8)", "-48")
    assert scored("radical", "4√18", "-√8", DIVIDE) == ("4√18 ÷ (-√8)", "-6")
    assert scored("radical", "-9√2", "64√2", DIVIDE, taker_dama=True) == (
        "-9√2 ÷ 64√2 = -9/64 x 2 = -9/32",
        "-9/32",
    )


def test_radical_move_total_is_a_plus_b_root_two():
    t1 = taking("radical", "4√18", "-√8", TIMES)  # -48
    t2 = taking("radical", "4√18", "64√2", PLUS)  # 76√2
    ms = score_move(take_move("radical", BLUE, [t1, t2], (2, 1)), "radical")
    assert ms.score == Sqrt2(Fraction(-48), Fraction(76))
    assert ms.text == "-48 + 76√2"
    assert ms.value == pytest.approx(-48 + 76 * 2**0.5)
    t3 = taking("radical", "4√18", "-121√18", MINUS)  # 12√2 + 363√2
    assert score_move(take_move("radical", BLUE, [t1, t3], (2, 1)), "radical").text == (
        "-48 + 375√2"
    )


def test_d7_polynomials_evaluated_at_the_landing_square():
    # the manual: (-3x²y)(-xy²) = 24000 is (4,5), a × square: -240 × -100
    assert scored("polynomial", "-3x²y", "-xy²", (4, 5)) == ("(-3x²y)(-xy²) = 24000", "24000")
    # 78xy² ÷ (-55x) on (5,4): 6240 / -275 = -22.6909… → -22.69
    s = score_taking(taking("polynomial", "78xy²", "-55x", (5, 4)), "polynomial")
    assert (s.expression, s.text, s.score, s.value) == (
        "78xy² ÷ (-55x) = -22.69",
        "-22.69",
        Fraction(-2269, 100),
        -22.69,
    )
    assert scored("polynomial", "-15x", "-3x²y", (3, 4)) == ("-15x - (-3x²y) = 63", "63")


def test_d7_two_decimals_halves_away_from_zero_then_multiplier():
    assert round_2dp(Fraction(-1, 8)) == Fraction(-13, 100)  # -0.125 → -0.13
    assert round_2dp(Fraction(1, 8)) == Fraction(13, 100)
    # 6x ÷ 28y at (5,4) = 30/112 = 0.267857… → 0.27, dama x 2 → 0.54
    assert scored("polynomial", "6x", "28y", (5, 4), taker_dama=True) == (
        "6x ÷ 28y = 0.27 x 2 = 0.54",
        "0.54",
    )


def test_taking_json_shape():
    s = score_taking(taking("integer", "-9", "-1", (2, 5)), "integer")
    assert taking_json(s) == {
        "taker": "-9",
        "taken": "-1",
        "square": [2, 5],
        "operator": "+",
        "multiplier": 1,
        "expression": "-9 + (-1)",
        "text": "-10",
        "value": -10.0,
    }


def test_plain_move_scores_nothing():
    ms = score_move(plain_move("integer", "-9", (1, 2), (0, 3)), "integer")
    assert (ms.text, ms.value, ms.takings) == ("0", 0.0, ())
    assert move_json(plain_move("integer", "-9", (1, 2), (0, 3)), "integer")["takings"] == []


def test_rc_dama_counts_double_official_once_online():
    chips = {(1, 0): chip("-5", "integer"), (3, 4): chip("-11", "integer", dama=True)}
    official = remaining_chips_score(chips, BLUE, "integer", "official")
    assert [r.expression for r in official.chips] == ["-5", "-11 x 2 = -22"]
    assert official.text == "-27"
    assert remaining_chips_score(chips, BLUE, "integer", "online").text == "-16"
    assert remaining_chips_score(chips, RED, "integer", "official").text == "0"


def test_rc_polynomial_chip_in_column_zero_is_worth_zero():
    chips = {(0, 3): chip("-55x", "polynomial"), (1, 2): chip("78xy²", "polynomial", dama=True)}
    rc = remaining_chips_score(chips, BLUE, "polynomial", "official")
    assert [r.expression for r in rc.chips] == ["78xy² (1,2) = 312 x 2 = 624", "-55x (0,3) = 0"]
    assert rc.text == "624"


def test_manual_integer_game_grand_totals_and_tally():
    # the manual's integer sheet: Blue 102 + RC(-5, -11 dama x 2) = 75; Red -83 + 11 = -72
    v = "integer"
    blue = [("-9", "-1", PLUS, False, False), ("-1", "-9", MINUS, False, False),
            ("-11", "-5", MINUS, False, False), ("10", "6", TIMES, False, False),
            ("10", "0", PLUS, False, False), ("6", "4", PLUS, True, True)]  # fmt: skip
    red = [("10", "-9", PLUS, False, False), ("-7", "2", DIVIDE, False, False),
           ("-3", "4", TIMES, False, False), ("-5", "10", TIMES, True, False),
           ("10", "6", PLUS, False, True)]  # fmt: skip
    played = []
    for i in range(len(blue)):
        for side, seq in ((BLUE, blue), (RED, red)):
            if i < len(seq):
                a, b, sq, da, db = seq[i]
                t = taking(v, a, b, sq, da, db, side=side)
                played.append((side, take_move(v, side, [t], (0, 0))))
    chips = {
        (1, 0): chip("-5", v, BLUE),
        (3, 4): chip("-11", v, BLUE, dama=True),
        (6, 7): chip("-11", v, RED),
        (0, 7): chip("2", v, RED),
        (4, 3): chip("10", v, RED, dama=True),
    }
    game = score_game(played, chips, v, "official")
    b, r = game.sides
    assert (b.total_text, b.remaining.text, b.grand_text) == ("102", "-27", "75")
    assert (r.total_text, r.remaining.text, r.grand_text) == ("-83", "11", "-72")
    assert (game.winner, b.points, r.points) == (BLUE, 1, 0)


def test_equal_grand_totals_are_half_a_point_each():
    game = score_game([], {}, "radical", "official")
    assert game.winner is None
    assert [s.points for s in game.sides] == [Fraction(1, 2), Fraction(1, 2)]


def test_radical_grand_totals_compare_exactly():
    zero = Sqrt2(Fraction(0), Fraction(0))
    assert compare(Sqrt2(Fraction(24), Fraction(-17)), zero) == -1  # 17√2 = 24.04…
    assert compare(Sqrt2(Fraction(25), Fraction(-17)), zero) == 1
    assert compare(Sqrt2(Fraction(-25), Fraction(17)), zero) == -1
    assert compare(Sqrt2(Fraction(0), Fraction(1)), Sqrt2(Fraction(1), Fraction(0))) == 1
