"""Scoring cases found by mutation testing (docs/testing.md): each pins a behaviour that a
one-word slip in controller/rules/scoring.py changed without any other test noticing."""

from fractions import Fraction

import pytest

from controller.rules.move import BLUE, RED, Chip, Taking
from controller.rules.scoring import (
    board_operator,
    dama_factor,
    format_decimal,
    kind_of,
    move_json,
    remaining_chips_score,
    round_half_away,
    score_game,
    score_move,
    score_remaining_chip,
    score_taking,
    sign,
)
from controller.rules.values import Sqrt2

from .helpers import chip, take_move, taking

PLUS, MINUS, TIMES, DIVIDE = (2, 1), (0, 1), (4, 1), (6, 1)


def test_d6_a_result_between_a_half_and_one_rounds_up_to_one():
    assert [round_half_away(Fraction(n, 10)) for n in (5, 6, 9, 10, -5, -6)] == [1, 1, 1, 1, -1, -1]
    assert [round_half_away(Fraction(n, 10)) for n in (0, 4, -4)] == [0, 0, 0]
    s = score_taking(taking("integer", "-7", "-9", DIVIDE), "integer")
    assert (s.text, s.score) == ("1", 1)


def test_exact_intermediate_results_are_written_exactly():
    """The decimal before "≈" is the exact quotient (-5 ÷ 8 = -0.625), not a rounded one, and
    a quotient that does not end is written as a fraction."""
    cases = {
        ("-5", "8"): "-5 ÷ 8 = -0.625 ≈ -1 x 2 = -2",
        ("8", "-5"): "8 ÷ (-5) = -1.6 ≈ -2 x 2 = -4",
        ("-11", "4"): "-11 ÷ 4 = -2.75 ≈ -3 x 2 = -6",
        ("-11", "3"): "-11 ÷ 3 = -11/3 ≈ -4 x 2 = -8",
    }
    for (a, b), expression in cases.items():
        s = score_taking(taking("integer", a, b, DIVIDE, taker_dama=True), "integer")
        assert s.expression == expression


def test_two_decimals_keep_a_leading_zero_after_the_point():
    """-22.05, not -22.5: the hundredths are padded before trailing zeros go."""
    assert format_decimal(Fraction(-2205, 100)) == "-22.05"
    assert format_decimal(Fraction(101, 100)) == "1.01"
    assert format_decimal(Fraction(-1, 2)) == "-0.5"
    assert format_decimal(Fraction(2, 3)) == "0.67"  # two places unless told otherwise
    assert format_decimal(Fraction(-17, 8), places=3) == "-2.125"


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0, 0, 0), (1, 0, 1), (Fraction(1, 2), 0, 1), (-1, 0, -1), (Fraction(-1, 2), 0, -1),
        (0, 1, 1), (0, -1, -1), (1, 1, 1), (-1, -1, -1),
        (Fraction(3, 2), -1, 1),  # 1.5 - 1.414…
        (1, -1, -1), (-1, 1, 1), (3, -2, 1), (-3, 2, -1), (24, -17, -1), (25, -17, 1),
    ],
)  # fmt: skip
def test_sign_of_a_plus_b_root_two(a, b, expected):
    assert sign(Sqrt2(Fraction(a), Fraction(b))) == expected
    assert (float(Sqrt2(Fraction(a), Fraction(b))) > 0) - (
        float(Sqrt2(Fraction(a), Fraction(b))) < 0
    ) == expected


@pytest.mark.parametrize("value", [0, 1, Fraction(1, 2), Fraction(3, 4), -1, Fraction(-1, 3), 7])
def test_sign_of_a_fraction(value):
    assert sign(Fraction(value)) == (value > 0) - (value < 0)


def test_red_wins_with_the_higher_grand_total_and_gets_the_point():
    t = taking("integer", "10", "6", TIMES, side=RED)
    played = [(RED, take_move("integer", RED, [t], (3, 0)))]
    chips = {(1, 0): chip("-5", "integer", BLUE), (6, 7): chip("2", "integer", RED)}
    game = score_game(played, chips, "integer", "official")
    blue, red = game.sides
    assert (blue.grand_text, red.grand_text) == ("-5", "62")
    assert (game.winner, blue.points, red.points) == (RED, 0, 1)
    assert (game.variant, game.profile) == ("integer", "official")


def test_equal_whole_number_totals_are_a_draw_not_a_win_for_blue():
    chips = {(1, 0): chip("4", "integer", BLUE), (6, 7): chip("4", "integer", RED)}
    game = score_game([], chips, "integer")
    assert game.winner is None
    assert [s.points for s in game.sides] == [Fraction(1, 2), Fraction(1, 2)]


def test_the_official_profile_is_the_default_for_remaining_damas():
    chips = {(1, 0): chip("-5", "integer", BLUE, dama=True)}
    assert remaining_chips_score(chips, BLUE, "integer").text == "-10"
    assert score_game([], chips, "integer").sides[BLUE].grand_text == "-10"


def test_remaining_chips_are_listed_row_by_row_then_column_by_column():
    chips = {
        (6, 1): chip("-7", "integer"),
        (0, 1): chip("0", "integer"),
        (3, 0): chip("8", "integer"),
        (2, 1): chip("-3", "integer"),
    }
    rc = remaining_chips_score(chips, BLUE, "integer", "official")
    assert [r.square for r in rc.chips] == [(3, 0), (0, 1), (2, 1), (6, 1)]
    assert (rc.side, rc.text, rc.value) == (BLUE, "-2", -2.0)


def test_remaining_chip_records_square_and_value():
    r = score_remaining_chip((1, 2), Chip(BLUE, chip("78xy²", "polynomial").value, True),
                             "polynomial", "official")  # fmt: skip
    assert (r.square, r.multiplier, r.text, r.value) == ((1, 2), 2, "624", 624.0)
    rc = remaining_chips_score({(1, 2): r.chip}, BLUE, "polynomial", "online")
    assert (rc.text, rc.value) == ("312", 312.0)


def test_remaining_chip_without_a_value_is_refused_by_name():
    with pytest.raises(ValueError, match=r"the chip on \(1, 2\) has no value"):
        score_remaining_chip((1, 2), Chip(BLUE), "integer", "official")


def test_a_taking_with_a_chip_without_a_value_is_refused_by_name():
    good = taking("integer", "-9", "-1", PLUS)
    for taker, taken in ((good.taker, Chip(RED)), (Chip(BLUE), good.taken)):
        bad = Taking(taker, taken, (0, 0), PLUS, "+", 1)
        with pytest.raises(ValueError, match=r"a taking at \(2, 1\) has a chip without a value"):
            score_taking(bad, "integer")


def test_scored_taking_keeps_its_kind_the_exact_result_and_division_by_zero():
    s = score_taking(taking("polynomial", "78xy²", "-55x", (2, 3)), "polynomial")
    assert (s.kind, s.exact, s.score, s.text) == (
        "polynomial", Fraction(78 * 2 * 9, -110), Fraction(-1276, 100), "-12.76"
    )  # fmt: skip
    assert s.division_by_zero is False
    z = score_taking(taking("integer", "4", "0", DIVIDE), "integer")
    assert (z.division_by_zero, z.score) == (True, 0)


def test_move_score_of_a_polynomial_capture_is_written_in_decimals():
    t1 = taking("polynomial", "78xy²", "-55x", (2, 3))
    t2 = taking("polynomial", "78xy²", "6x", (2, 3))
    ms = score_move(take_move("polynomial", BLUE, [t1, t2], (0, 1)), "polynomial")
    assert (ms.kind, ms.text, ms.value) == ("polynomial", "104.24", 104.24)  # -12.76 + 117


def test_move_json_of_a_capture():
    t = taking("integer", "-9", "-1", PLUS)
    data = move_json(take_move("integer", BLUE, [t], (0, 0)), "integer")
    assert (data["score"], data["value"]) == ("-10", -10.0)
    assert [x["expression"] for x in data["takings"]] == ["-9 + (-1)"]


def test_unknown_names_are_refused_with_what_exists():
    with pytest.raises(ValueError, match=r"unknown operator '%': expected \+ - x ÷"):
        board_operator("%")
    with pytest.raises(
        ValueError, match="unknown profile 'casual': expected one of official, online"
    ):
        dama_factor("casual")
    with pytest.raises(
        ValueError, match="unknown variant 'decimal': expected one of counting, whole"
    ):
        kind_of("decimal")
