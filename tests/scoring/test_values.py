"""Exact chip values (RULES.md §2): every printed label, ASCII forms, and clear errors."""

from fractions import Fraction

import pytest

from controller.rules.damath_data import PLACEMENTS, VALUE_KINDS
from controller.rules.values import (
    Monomial,
    Radical,
    Rational,
    Sqrt2,
    parse_value,
)
from controller.rules.variants import placement_values


@pytest.mark.parametrize("variant", list(PLACEMENTS))
def test_every_printed_label_parses_and_keeps_its_label(variant):
    for label, value in zip(PLACEMENTS[variant], placement_values(variant), strict=True):
        assert value.label == label
        assert str(value) == label
        assert value.kind == VALUE_KINDS[variant]
        hash(value)


def test_fraction_label_is_kept_unreduced_but_the_number_is_exact():
    v = parse_value("10/10", "fraction")
    assert (v.label, v.number) == ("10/10", Fraction(1))
    assert parse_value("–9/10", "fraction") == Rational("-9/10", "fraction", Fraction(-9, 10))


def test_radicals_are_exact_multiples_of_root_two():
    assert parse_value("4√18", "radical").number == Sqrt2(Fraction(0), Fraction(12))
    assert parse_value("-√8", "radical").coefficient == -2
    assert parse_value("-121√18", "radical").coefficient == -363
    expected = Radical("4√18", Sqrt2(Fraction(0), Fraction(12)))
    for ascii_form in ("4*sqrt(18)", "4sqrt18", "4 √18", "4sqrt(18)"):
        assert parse_value(ascii_form, "radical") == expected
    assert str(parse_value("24 + 12√2", "radical")) == "24 + 12√2"
    assert parse_value("-7/6", "radical").number == Sqrt2(Fraction(-7, 6), Fraction(0))


def test_monomials_in_every_written_form():
    expected = Monomial("-3x²y", Fraction(-3), 2, 1)
    for text in ("-3x²y", "-3*x^2*y", "-3x^2y", "−3x²y", "-3 x² y"):
        assert parse_value(text, "polynomial") == expected
    v = parse_value("-xy²", "polynomial")
    assert (v.coefficient, v.x_exp, v.y_exp) == (-1, 1, 2)
    assert v.at((4, 5)) == -100  # the manual's (4,5): -xy² = -4·25


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("3/2", "integer", "'3/2'"),
        ("abc", "fraction", "'abc'"),
        ("1/0", "fraction", "denominator is 0"),
        ("√3", "radical", "√3 is not a whole multiple of √2"),
        ("x+y", "polynomial", "'x+y'"),
        ("", "integer", "empty"),
        ("5", "decimal", "unknown value kind"),
    ],
)
def test_bad_text_raises_value_error_naming_it(text, kind, message):
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        parse_value(text, kind)
