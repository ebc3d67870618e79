"""Bounds on what a chip may carry (docs/scoring.md, "Bounds"): the game's own chips pass, a
value outside them is refused with a sentence, and nothing inside them overflows a float."""

from __future__ import annotations

import sys
import time
from fractions import Fraction

import pytest

from controller.rules.damath_data import OPERATORS, PLACEMENTS
from controller.rules.game import Game, damath_rules
from controller.rules.move import BLUE, RED, Chip
from controller.rules.notation import NotationError, game_from_json
from controller.rules.profiles import RulesProfileError, get_profile
from controller.rules.scoring import display_float, score_game, score_move, score_taking
from controller.rules.values import (
    MAX_EXPONENT,
    MAX_PART,
    MAX_TEXT,
    Monomial,
    Radical,
    Rational,
    Sqrt2,
    check_chip,
    parse_value,
)
from controller.rules.variants import placement_values

from .helpers import taking


@pytest.mark.parametrize("variant", list(PLACEMENTS))
def test_every_chip_of_the_game_is_inside_the_bounds(variant):
    for value in placement_values(variant):
        assert check_chip(value) is value
        assert len(value.label) <= MAX_TEXT


def test_the_bounds_leave_room_above_the_largest_chip_of_the_game():
    parts = []
    for variant in PLACEMENTS:
        for v in placement_values(variant):
            if isinstance(v, Rational):
                parts += [v.number.numerator, v.number.denominator]
            elif isinstance(v, Radical):
                parts += [v.number.b.numerator, v.number.b.denominator]
            else:
                parts += [v.coefficient.numerator]
                assert max(v.x_exp, v.y_exp) <= 2 < MAX_EXPONENT
    assert max(abs(p) for p in parts) == 363 < MAX_PART  # -121√18 = -363√2


@pytest.mark.parametrize(
    ("text", "kind", "says"),
    [
        ("x^10000000", "polynomial", "power 3 at most"),
        ("x^440", "polynomial", "power 3 at most"),
        ("999x^4", "polynomial", "power 3 at most"),
        ("1" * 400, "integer", "400 characters long"),
        ("9" * 400, "fraction", "400 characters long"),
        ("1000", "integer", "at most three digits"),
        ("-1000", "integer", "at most three digits"),
        ("1/1000", "fraction", "at most three digits"),
        ("0.0001", "fraction", "at most three digits"),
        ("1000√2", "radical", "at most three digits"),
        ("500√8", "radical", "at most three digits"),  # 1000√2 once simplified
        ("1000xy", "polynomial", "at most three digits"),
        ("٣", "integer", "bad integer value"),
        ("٣/10", "fraction", "bad fraction value"),
        ("٣x", "polynomial", "bad polynomial value"),
        ("٣√2", "radical", "bad radical value"),
    ],
)
def test_a_value_outside_the_bounds_is_refused_with_a_sentence(text, kind, says):
    began = time.perf_counter()
    with pytest.raises(ValueError, match=says):
        parse_value(text, kind)
    assert time.perf_counter() - began < 0.5  # refused before any arithmetic on it


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("999", "integer"),
        ("-999/998", "fraction"),
        ("-333√18", "radical"),
        ("999x³y³", "polynomial"),
    ],
)
def test_the_largest_values_inside_the_bounds_are_read(text, kind):
    parse_value(text, kind)


def test_a_written_total_may_be_larger_than_a_chip_but_not_longer():
    assert parse_value("1452√2", "radical", chip=False).number == Sqrt2(Fraction(0), Fraction(1452))
    with pytest.raises(ValueError, match="characters long"):
        parse_value("1" * 41 + "√2", "radical", chip=False)


def test_the_largest_chips_score_to_finite_floats_in_every_kind():
    """The worst taking the bounds allow: two damas (x4), the largest numbers, every operator."""
    worst = {
        "integer": ("-999", "999"),
        "fraction": ("-999", "1/999"),
        "radical": ("-999√2", "999√2"),
        "polynomial": ("-999x³y³", "999x³y³"),
    }
    for variant, (a, b) in worst.items():
        for square in OPERATORS:
            for taker, taken in ((a, b), (b, a)):
                t = taking(variant, taker, taken, square, taker_dama=True, taken_dama=True)
                scored = score_taking(t, variant)
                assert abs(scored.value) < 1e18


def test_a_whole_game_of_the_largest_chips_tallies_without_overflow():
    """Twelve takings a side of the largest polynomial chips, and every chip left a dama."""
    chips = {}
    squares = sorted(OPERATORS)
    for i, sq in enumerate(squares):
        chips[sq] = Chip(BLUE if i % 2 else RED, parse_value("999x³y³", "polynomial"), True)
    game = Game(damath_rules(get_profile("official")), chips, BLUE, variant="polynomial",
                profile=get_profile("official"))  # fmt: skip
    played = []
    for _ in range(40):
        moves = game.legal_moves()
        if not moves:
            break
        move = max(moves, key=lambda m: len(m.takings))
        played.append((game.side_to_move, move))
        assert abs(score_move(move, "polynomial").value) < 1e20
        game.push(move)
    result = score_game(played, game.chips(), "polynomial")
    for side in result.sides:
        assert abs(display_float(side.grand)) < 1e20


def test_display_float_never_raises_overflow():
    huge = Fraction(10**400)
    assert display_float(huge) == sys.float_info.max
    assert display_float(-huge) == -sys.float_info.max
    assert display_float(Sqrt2(Fraction(0), -huge)) == -sys.float_info.max
    assert display_float(10**400) == sys.float_info.max  # a plain int (a tally, a count)
    assert display_float(-(10**400)) == -sys.float_info.max
    assert display_float(Fraction(1, 3)) == pytest.approx(1 / 3)


def test_a_monomial_built_outside_the_parser_is_still_checked():
    with pytest.raises(ValueError, match="power"):
        check_chip(Monomial("x⁴⁴⁰", Fraction(1), 440, 0))


def test_a_position_with_a_chip_outside_the_bounds_names_the_piece():
    position = {
        "variant": "polynomial",
        "pieces": [
            {"square": [3, 4], "side": "blue", "value": "x^440"},
            {"square": [4, 5], "side": "red", "value": "6x"},
        ],
    }
    with pytest.raises(NotationError, match=r"pieces\[0\]\.value: .*power 3 at most"):
        game_from_json(position)
    position["variant"] = "integer"
    position["pieces"][0]["value"] = "1" + "0" * 399
    with pytest.raises(NotationError, match=r"pieces\[0\]\.value: .*characters long"):
        game_from_json(position)


@pytest.mark.parametrize("seconds", [10**400, 24 * 3600 + 1, -1])
def test_a_profile_setting_in_seconds_is_bounded_to_a_day(seconds):
    with pytest.raises(RulesProfileError, match="from 0 to 86400"):
        get_profile("official").with_settings({"game_seconds": seconds})
    assert get_profile("official").with_settings({"game_seconds": 86400}).game_seconds == 86400
