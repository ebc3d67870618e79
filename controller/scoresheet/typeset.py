"""Entries typeset as a person reads them on the board: × and − rather than what a keyboard
types, and an exact result written before it is rounded shown as a calculator shows it."""

from __future__ import annotations

import re
from fractions import Fraction

from ..rules.scoring import format_decimal, round_half_away

_FRACTION_BEFORE_ROUNDING = re.compile(r"= (-?\d+)/(\d+) ≈")
_SPACED_TIMES = re.compile(r"(?<=\S) [xX] (?=\S)")


def _decimal(numerator: int, denominator: int) -> str:
    q = Fraction(numerator, denominator)
    scaled = q * 100
    if scaled.denominator == 1:
        return format_decimal(q)
    return format_decimal(Fraction(round_half_away(scaled), 100)) + "…"


def typeset(text: str) -> str:
    """An entry as a person reads it: ``-5 x 10 = -50 x 2`` → ``−5 × 10 = −50 × 2``; an exact
    fraction before ``≈`` as a decimal (``1/9 ≈ 0`` → ``0.11… ≈ 0``)."""
    text = _FRACTION_BEFORE_ROUNDING.sub(
        lambda m: f"= {_decimal(int(m.group(1)), int(m.group(2)))} ≈", text
    )
    text = _SPACED_TIMES.sub(" × ", text)
    return text.replace("-", "−")
