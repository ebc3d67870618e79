"""Exact scoring of takings, remaining chips, totals and the result (RULES.md §4–§5).

Every taking scores ``taker OP taken``, OP being the operator of the landing square. The rules
per kind of number (``variants.Variant.value_kind``):

- integer (Counting, Whole, Integer), D-6: the exact result is rounded to a whole number,
  halves away from zero, then multiplied by the dama multiplier (``-7 ÷ 2 = -3.5 ≈ -4``);
- fraction (Fraction, Rational): exact, shown in lowest terms;
- radical: exact ``a + b√2`` (``Sqrt2``);
- polynomial, D-7: both chips evaluated at the landing square (x = column, y = row), then OP;
  a result that is not whole is rounded to 2 decimals, halves away from zero, then multiplied;
- D-8: division by zero scores 0.

Scores are exact (``Fraction`` or ``Sqrt2``). ``value`` is a float for display only: the double
nearest the exact score (for ``a + b√2``: ``a + b·√2`` computed in doubles). Nothing here uses
sympy: Fractions keep one taking under a few tens of microseconds (bench/bench_scoring.py).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .damath_data import DIVIDE, MINUS, PLUS, PROFILES, TIMES
from .move import BLUE, RED, Chip, Move, Square, Taking
from .values import Monomial, Sqrt2, Value, format_fraction, format_sqrt2
from .variants import NAMES, REGISTRY

Score = Fraction | Sqrt2
"""An exact score: a Fraction, or ``a + b√2`` in Radical Damath."""

# The signs a player writes for each board operator (the manual writes x for times).
WRITTEN_OPERATORS = {PLUS: "+", MINUS: "-", TIMES: "x", DIVIDE: "÷"}
_OPERATOR_ALIASES = {
    PLUS: PLUS, "+": PLUS,
    MINUS: MINUS, "-": MINUS, "–": MINUS,
    TIMES: TIMES, "x": TIMES, "X": TIMES, "*": TIMES,
    DIVIDE: DIVIDE, "/": DIVIDE, ":": DIVIDE,
}  # fmt: skip

ZERO = Fraction(0)
_HUNDRED = Fraction(100)


def board_operator(sign: str) -> str:
    """The board's operator (``damath_data`` sign) for any way of writing it."""
    try:
        return _OPERATOR_ALIASES[sign.strip()]
    except KeyError:
        raise ValueError(f"unknown operator {sign!r}: expected + - x ÷") from None


def kind_of(variant: str) -> str:
    try:
        return REGISTRY[variant].value_kind
    except KeyError:
        raise ValueError(
            f"unknown variant {variant!r}: expected one of {', '.join(NAMES)}"
        ) from None


# --------------------------------------------------------------------------------------------
# Rounding and display


def round_half_away(q: Fraction) -> int:
    """The whole number nearest ``q``, halves away from zero (D-6): -3.5 → -4, 2.5 → 3."""
    n = (abs(q.numerator) * 2 + q.denominator) // (2 * q.denominator)
    return -n if q < 0 else n


def round_2dp(q: Fraction) -> Fraction:
    """``q`` to 2 decimal places, halves away from zero (D-7): -22.6909… → -22.69."""
    if q.denominator == 1:
        return q
    return Fraction(round_half_away(q * 100), 100)


def format_decimal(q: Fraction, places: int = 2) -> str:
    """A Fraction whose denominator divides 10**places as a decimal without trailing zeros:
    ``24000``, ``-22.69``, ``0.6``, ``-3.5``."""
    if q.denominator == 1:
        return str(q.numerator)
    scaled = round_half_away(q * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{str(frac).rjust(places, '0').rstrip('0')}"


def display_float(score: Score | int) -> float:
    """The double nearest an exact score, for display only. Chips are bounded
    (``values.check_chip``) so no score of a game comes near the largest double; should one
    ever exceed it, it shows as the largest double of its sign instead of raising
    OverflowError (and a JSON reader never meets ``Infinity``)."""
    try:
        return float(score)
    except OverflowError:
        direction = sign(score) if not isinstance(score, int) else (score > 0) - (score < 0)
        return math.copysign(sys.float_info.max, direction)


def _terminates(q: Fraction) -> bool:
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def format_score(score: Score, kind: str) -> str:
    """The score as written on the sheet: ``-10``, ``1/5``, ``24 + 12√2``, ``-22.69``."""
    if isinstance(score, Sqrt2):
        return format_sqrt2(score)
    if kind == "polynomial":
        return format_decimal(score)
    return format_fraction(score)


def _exact_text(q: Fraction) -> str:
    """An exact intermediate result: a decimal when it terminates (-3.5, -0.625), else a
    fraction. (Decimal division is exact for a terminating quotient of such small numbers.)"""
    if _terminates(q):
        return str(Decimal(q.numerator) / q.denominator)
    return format_fraction(q)


# --------------------------------------------------------------------------------------------
# One taking


@dataclass(frozen=True, slots=True)
class ScoredTaking:
    """A taking with its score. ``exact`` is the result of OP before rounding and multiplier
    (0 on division by zero); ``score`` what counts; ``text`` the score as written."""

    taking: Taking
    kind: str
    expression: str
    exact: Score
    score: Score
    text: str
    value: float
    division_by_zero: bool = False

    @property
    def written(self) -> str:
        """The taking written out with its score, as the sheet writes it: ``6 x (-3) = -18``
        (the expression already ends in its score when it has intermediate results)."""
        return self.expression if "=" in self.expression else f"{self.expression} = {self.text}"


def _operate(a: Score, b: Score, op: str) -> tuple[Score, bool]:
    """``a OP b`` exactly; (0, True) when dividing by zero (D-8)."""
    if op == PLUS:
        return a + b, False
    if op == MINUS:
        return a - b, False
    if op == TIMES:
        return a * b, False
    if op == DIVIDE:
        if not b:
            return a * 0, True
        return a / b, False
    raise ValueError(f"unknown operator {op!r}: expected + − × ÷")


def _operand(label: str, first: bool, kind: str, op: str) -> str:
    """An operand as the manual writes it: a negative second operand in parentheses
    (``-9 + (-1)``); polynomial products as ``(a)(b)``."""
    if kind == "polynomial" and op == TIMES:
        return f"({label})"
    if not first and label.startswith("-"):
        return f"({label})"
    return label


def written_operation(taker: str, taken: str, op: str, kind: str) -> str:
    """``-9 + (-1)``, ``-5 x 10``, ``(-3x²y)(-xy²)``, ``78xy² ÷ (-55x)``."""
    a = _operand(taker, True, kind, op)
    b = _operand(taken, False, kind, op)
    if kind == "polynomial" and op == TIMES:
        return a + b
    return f"{a} {WRITTEN_OPERATORS[op]} {b}"


def score_values(
    taker: Value, taken: Value, operator: str, square: Square, multiplier: int, kind: str
) -> tuple[str, Score, Score, str, bool]:
    """The arithmetic of one taking from its parts: (expression, exact, score, text, div0).

    Used by ``score_taking`` and by the audit, which knows values and a square but no Taking.
    """
    op = board_operator(operator)
    a = taker.at(square)
    b = taken.at(square)
    exact, div0 = _operate(a, b, op)
    expression = written_operation(taker.label, taken.label, op, kind)
    steps: list[str] = []  # what follows "=": the manual's intermediate results
    # integer and polynomial chips are rationals (a monomial is evaluated on its square)
    rounded: Score
    if kind == "integer" and isinstance(exact, Fraction):
        whole = Fraction(round_half_away(exact))
        rounded = whole
        if div0:
            steps.append("0")
        elif rounded != exact:
            steps.append(f"{_exact_text(exact)} ≈ {format_fraction(whole)}")
    elif kind == "polynomial" and isinstance(exact, Fraction):
        decimal = round_2dp(exact)
        rounded = decimal
        steps.append(format_decimal(decimal))  # 78xy² ÷ (-55x) = -22.69: rounded value only
    else:
        rounded = exact
        if div0:
            steps.append("0")
    score = rounded * multiplier if multiplier != 1 else rounded
    text = format_score(score, kind)
    if multiplier != 1:
        if not steps:
            steps.append(format_score(rounded, kind))
        steps[-1] += f" x {multiplier}"
        steps.append(text)
    if steps:
        expression += " = " + " = ".join(steps)
    return expression, exact, score, text, div0


def score_taking(taking: Taking, variant: str) -> ScoredTaking:
    """Score one taking (RULES.md §4, D-6, D-7, D-8) in a variant."""
    kind = kind_of(variant)
    taker, taken = taking.taker.value, taking.taken.value
    if taker is None or taken is None:
        raise ValueError(f"a taking at {taking.square} has a chip without a value")
    expression, exact, score, text, div0 = score_values(
        taker, taken, taking.operator, taking.square, taking.multiplier, kind
    )
    return ScoredTaking(taking, kind, expression, exact, score, text, display_float(score), div0)


def taking_json(scored: ScoredTaking) -> dict[str, Any]:
    """The JSON form of a scored taking (``rules moves --json``). ``operator`` is the board's
    own sign (``damath_data``: + − × ÷)."""
    t = scored.taking
    return {
        "taker": t.taker.value.label,
        "taken": t.taken.value.label,
        "square": [t.square[0], t.square[1]],
        "operator": t.operator,
        "multiplier": t.multiplier,
        "expression": scored.expression,
        "text": scored.text,
        "value": scored.value,
    }


# --------------------------------------------------------------------------------------------
# A move, sums


def zero_score(kind: str) -> Score:
    return Sqrt2(ZERO, ZERO) if kind == "radical" else ZERO


def sum_scores(scores: Iterable[Score], kind: str) -> Score:
    total = zero_score(kind)
    for s in scores:
        total = total + s
    return total


@dataclass(frozen=True, slots=True)
class MoveScore:
    """The takings of one move, scored, and their sum."""

    takings: tuple[ScoredTaking, ...]
    kind: str
    score: Score
    text: str
    value: float


def score_move(move: Move, variant: str) -> MoveScore:
    """Score every taking of a move (none for a plain move: score 0)."""
    kind = kind_of(variant)
    scored = tuple(score_taking(t, variant) for t in move.takings)
    total = sum_scores((s.score for s in scored), kind)
    return MoveScore(scored, kind, total, format_score(total, kind), display_float(total))


def move_json(move: Move, variant: str) -> dict[str, Any]:
    """``{"score": text, "value": float, "takings": [taking_json, ...]}`` for a move."""
    ms = score_move(move, variant)
    return {"score": ms.text, "value": ms.value, "takings": [taking_json(s) for s in ms.takings]}


# --------------------------------------------------------------------------------------------
# Remaining chips (RC), totals, result


def dama_factor(profile: str) -> int:
    """What a remaining dama counts for: double in ``official``, once in ``online`` (§7)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")
    return 2 if profile == "official" else 1


@dataclass(frozen=True, slots=True)
class RemainingChip:
    """One remaining chip on the RC part of the sheet: ``-11 x 2 = -22``."""

    square: Square
    chip: Chip
    multiplier: int
    expression: str
    score: Score
    text: str
    value: float


def score_remaining_chip(square: Square, chip: Chip, kind: str, profile: str) -> RemainingChip:
    """A remaining chip's worth: its value (a polynomial evaluated where it stands, D-7
    rounding), doubled when it is a dama in the ``official`` profile."""
    value = chip.value
    if value is None:
        raise ValueError(f"the chip on {square} has no value")
    mult = dama_factor(profile) if chip.dama else 1
    number = value.at(square)
    expression = value.label
    if isinstance(value, Monomial):
        number = round_2dp(number)
        expression += f" ({square[0]},{square[1]}) = {format_decimal(number)}"
    score = number * mult if mult != 1 else number
    text = format_score(score, kind)
    if mult != 1:
        expression += f" x {mult} = {text}"
    return RemainingChip(square, chip, mult, expression, score, text, display_float(score))


@dataclass(frozen=True, slots=True)
class RemainingChips:
    """A side's remaining chips, in board order (by row, then column), and their sum."""

    side: int
    chips: tuple[RemainingChip, ...]
    score: Score
    text: str
    value: float


def remaining_chips_score(
    chips: Mapping[Square, Chip], side: int, variant: str, profile: str = "official"
) -> RemainingChips:
    """The RC of one side (RULES.md §5): every chip of ``side`` still on the board."""
    kind = kind_of(variant)
    mine = sorted((sq for sq, c in chips.items() if c.side == side), key=lambda s: (s[1], s[0]))
    rcs = tuple(score_remaining_chip(sq, chips[sq], kind, profile) for sq in mine)
    total = sum_scores((r.score for r in rcs), kind)
    return RemainingChips(side, rcs, total, format_score(total, kind), display_float(total))


def sign(score: Score) -> int:
    """The sign of an exact score (-1, 0, 1), exact for ``a + b√2`` too."""
    if isinstance(score, Fraction):
        return (score > 0) - (score < 0)
    a, b = score.a, score.b
    sa, sb = (a > 0) - (a < 0), (b > 0) - (b < 0)
    if sa == sb or sb == 0:
        return sa
    if sa == 0:
        return sb
    # a and b√2 have opposite signs: the larger magnitude wins (|a| vs |b|√2).
    diff = a * a - 2 * b * b
    return sa if diff > 0 else sb if diff < 0 else 0


def compare(x: Score, y: Score) -> int:
    return sign(x - y)


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's score line: takings total, RC, grand total, tally points (1, ½, 0)."""

    side: int
    kind: str
    takings: tuple[ScoredTaking, ...]
    total: Score
    remaining: RemainingChips
    grand: Score
    points: Fraction

    @property
    def total_text(self) -> str:
        return format_score(self.total, self.kind)

    @property
    def grand_text(self) -> str:
        return format_score(self.grand, self.kind)


@dataclass(frozen=True, slots=True)
class GameScore:
    """Both sides' scores and the result: ``winner`` is BLUE, RED or None for a draw."""

    variant: str
    profile: str
    sides: tuple[SideScore, SideScore]
    winner: int | None


def score_game(
    played: Sequence[tuple[int, Move]],
    chips: Mapping[Square, Chip],
    variant: str,
    profile: str = "official",
) -> GameScore:
    """Totals, RC, grand totals and the result of a finished game (RULES.md §5)."""
    kind = kind_of(variant)
    takings: dict[int, list[ScoredTaking]] = {BLUE: [], RED: []}
    for side, move in played:
        takings[side].extend(score_taking(t, variant) for t in move.takings)
    partial = []
    for side in (BLUE, RED):
        total = sum_scores((s.score for s in takings[side]), kind)
        rc = remaining_chips_score(chips, side, variant, profile)
        partial.append((side, kind, tuple(takings[side]), total, rc, total + rc.score))
    c = compare(partial[BLUE][5], partial[RED][5])
    winner = None if c == 0 else BLUE if c > 0 else RED
    points = {
        BLUE: Fraction(1) if winner == BLUE else Fraction(1, 2) if winner is None else ZERO,
        RED: Fraction(1) if winner == RED else Fraction(1, 2) if winner is None else ZERO,
    }
    sides = tuple(SideScore(*p, points[p[0]]) for p in partial)
    return GameScore(variant, profile, sides, winner)  # type: ignore[arg-type]


__all__ = [
    "WRITTEN_OPERATORS",
    "GameScore",
    "MoveScore",
    "RemainingChip",
    "RemainingChips",
    "Score",
    "ScoredTaking",
    "SideScore",
    "board_operator",
    "compare",
    "dama_factor",
    "display_float",
    "format_decimal",
    "format_score",
    "kind_of",
    "move_json",
    "remaining_chips_score",
    "round_2dp",
    "round_half_away",
    "score_game",
    "score_move",
    "score_remaining_chip",
    "score_taking",
    "score_values",
    "sign",
    "taking_json",
]
