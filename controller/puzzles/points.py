"""How many points a puzzle's sentences say, in the variant's own terms a child can read
(docs/puzzles.md, "How the points are said").

The difference itself is exact (the sheet's sums); only its wording changes. Counting, Whole
and Integer Damath score whole numbers, said as they are. Elsewhere the exact figure is said
when it is short as the sheet writes it (``7/2``, ``12√2``, ``12.57``); a long one
(``8712 + 601√2``, ``103773.98``, ``1234/37``) is said as the whole number nearest its value
(the display float, halves away from zero, as D-6 rounds), and beyond four digits in thousands
or millions: "about 9562", "about 104 thousand", "about 8 million"."""

from __future__ import annotations

from fractions import Fraction

from controller.i18n import N_, _
from controller.rules.scoring import (
    Score,
    display_float,
    format_decimal,
    format_score,
    kind_of,
    round_half_away,
)
from controller.rules.values import Radical, Sqrt2, parse_value
from controller.session.coach_words import page_signs

ABOUT = N_("about {n}")
ABOUT_THOUSAND = N_("about {n} thousand")
ABOUT_MILLION = N_("about {n} million")

SHORT_DENOMINATOR = 12
"""A fraction a child reads at a glance: halves to twelfths."""
SHORT_BELOW = 1000
"""An exact figure is short below this (three digits, as a taking's score is)."""
WHOLE_BELOW = 10000
"""A rounded figure is said whole below this (four digits), in thousands or millions above."""


def _short_fraction(q: Fraction) -> bool:
    return q.denominator <= SHORT_DENOMINATOR and abs(q) < SHORT_BELOW


def _short(score: Score, kind: str) -> bool:
    if kind == "integer":
        return True  # whole points: the sheet's own numbers, however large
    if isinstance(score, Sqrt2):
        if score.b == 0:
            return _short_fraction(score.a)
        return score.a == 0 and score.b.denominator == 1 and abs(score.b) < 100
    if kind == "polynomial":
        return abs(score) < 100  # two decimals, as the sheet writes them
    return _short_fraction(score)


def _about(value: float) -> str:
    whole = round_half_away(Fraction(value))
    if whole == 0:  # below one half: one decimal ("about 0.2")
        tenths = Fraction(round_half_away(Fraction(value) * 10), 10)
        return _(ABOUT).format(n=format_decimal(tenths, 1))
    if abs(whole) < WHOLE_BELOW:
        return _(ABOUT).format(n=whole)
    if abs(whole) < 1_000_000:
        return _(ABOUT_THOUSAND).format(n=round_half_away(Fraction(whole, 1000)))
    return _(ABOUT_MILLION).format(n=round_half_away(Fraction(whole, 1_000_000)))


def points_words(score: Score, variant: str) -> str:
    """The figure of a difference as a puzzle's sentence says it (the unit is the sentence's)."""
    kind = kind_of(variant)
    if _short(score, kind) or abs(display_float(score)) < 0.05:
        return page_signs(format_score(score, kind))
    return page_signs(_about(display_float(score)))


def read_score(text: str, variant: str) -> Score:
    """A difference kept as the sheet writes it (a puzzle's ``gain``), read back exactly."""
    kind = kind_of(variant)
    if kind == "radical":
        value = parse_value(text, kind, chip=False)
        if not isinstance(value, Radical):
            raise ValueError(f"{text!r}: not a radical difference")
        return value.number
    return Fraction(text)
