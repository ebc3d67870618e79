"""Damath scores in the tournament: read from what an arbiter types, summed and compared exactly.

Every variant's score is a real number of the form ``a + b√2`` with rational ``a`` and ``b``
(``b = 0`` except in Radical Damath; Polynomial Damath scores are already evaluated numbers).
So the tournament keeps them all as ``Sqrt2`` and compares them exactly with the rules
engine's ``compare``: a tie-break never rounds, and two totals that differ by 1/100 are
different. Floats appear only on screen, through ``scoring.format_score``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from controller.rules.damath_data import VALUE_KINDS
from controller.rules.scoring import compare, format_score
from controller.rules.values import Sqrt2, normalize_text

from .model import TournamentError

ZERO = Sqrt2(Fraction(0), Fraction(0))

_NUMBER = r"\d+(?:\.\d+)?(?:/\d+)?"
_RADICAL = re.compile(rf"^(?P<a>[+-]?{_NUMBER})?(?:(?P<s>[+-])?(?P<b>{_NUMBER})?√2)?$")


def _fraction(text: str) -> Fraction:
    if "/" in text:
        num, den = text.split("/")
        if Fraction(den) == 0:
            raise ZeroDivisionError
        return Fraction(num) / Fraction(den)
    return Fraction(text)


def parse_score(text: str) -> Sqrt2:
    """``12``, ``-7/6``, ``-22.69``, ``12√2``, ``24 + 12√2``, ``3 - √2`` (``sqrt2``, ``r2`` too)."""
    raw = str(text)
    t = normalize_text(raw).lower().replace("sqrt(2)", "√2").replace("sqrt2", "√2")
    t = t.replace("r2", "√2").replace("*√2", "√2")
    m = _RADICAL.match(t)
    if not t or m is None or not (m.group("a") or "√2" in t):
        raise TournamentError(
            f"Damath score {raw!r}: write a number (12, -7/6, -22.69) or a + b√2 (24 + 12√2)"
        )
    try:
        a = _fraction(m.group("a")) if m.group("a") else Fraction(0)
        b = Fraction(0)
        if "√2" in t:
            b = _fraction(m.group("b")) if m.group("b") else Fraction(1)
            if m.group("s") == "-":
                b = -b
            if m.group("a") and m.group("s") is None:
                # "12√2": the number is the coefficient, not a separate rational part
                a, b = Fraction(0), a
    except (ValueError, ZeroDivisionError):
        raise TournamentError(f"Damath score {raw!r}: not a number") from None
    return Sqrt2(a, b)


def as_exact(score: Fraction | Sqrt2 | int) -> Sqrt2:
    """Any score of the rules engine as ``a + b√2``."""
    if isinstance(score, Sqrt2):
        return score
    return Sqrt2(Fraction(score), Fraction(0))


def total(scores: list[Sqrt2]) -> Sqrt2:
    out = ZERO
    for s in scores:
        out = out + s
    return out


def cmp(x: Sqrt2, y: Sqrt2) -> int:
    """-1, 0 or 1: exact, √2 included."""
    return compare(x, y)


def text(score: Sqrt2, variant: str = "fraction") -> str:
    """The score as the variant's scoresheet writes it (``-22.69`` in Polynomial, ``1/5``…)."""
    kind = VALUE_KINDS.get(variant, "fraction")
    if score.b:
        return format_score(score, "radical")
    return format_score(score.a, kind if kind != "radical" else "fraction")


def store_text(score: Sqrt2) -> str:
    """A lossless form for the database: ``a`` or ``a|b`` (Fractions as ``n/d``)."""
    return str(score.a) if not score.b else f"{score.a}|{score.b}"


def from_store(raw: str) -> Sqrt2:
    a, _, b = raw.partition("|")
    return Sqrt2(Fraction(a), Fraction(b) if b else Fraction(0))
