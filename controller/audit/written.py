"""Reading what people write on a scoresheet: numbers in any equal form and taking entries.

Handwriting varies: ``x × *`` for times, ``÷ /`` for division, ``- – −`` for minus, ``2/10``
for ``1/5``, ``-3.5 ≈ -4``, ``(-3x²y)( -xy²)``. Everything here turns such text into exact
values or raises ValueError naming the part it could not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, getcontext
from fractions import Fraction

from ..rules.damath_data import DIVIDE, MINUS, PLUS, TIMES
from ..rules.scoring import Score, round_half_away
from ..rules.values import Radical, Sqrt2, Value, check_text, normalize_text, parse_value

_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-", "‐": "-", "‒": "-"})
_DECIMAL_RE = re.compile(r"[+-]?\d*\.(\d+)", re.ASCII)  # ASCII: ٣ is not a digit here
_RATIONAL_RE = re.compile(r"[+-]?\d+(?:/[+-]?\d+)?", re.ASCII)


@dataclass(frozen=True, slots=True)
class Written:
    """A number as written: its exact value, and the decimals written (0 for exact forms),
    because ``-0.97`` for ``-29/30`` is right to the places written."""

    text: str
    value: Score
    places: int = 0


def _strip_parens(text: str) -> str:
    """``((-9))`` → ``-9``: the pairs that enclose the whole text, in one pass whatever the
    depth (peeling one pair at a time and re-checking the rest was quadratic)."""
    pairs = _pairs(text)
    start, end = 0, len(text)
    while True:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end and text[start] == "(" and pairs.get(start) == end - 1:
            start, end = start + 1, end - 1
        else:
            return text[start:end]


def _pairs(text: str) -> dict[int, int]:
    """The index of the ``)`` that closes each ``(`` (unclosed ones are left out)."""
    opened: list[int] = []
    pairs: dict[int, int] = {}
    for i, c in enumerate(text):
        if c == "(":
            opened.append(i)
        elif c == ")" and opened:
            pairs[opened.pop()] = i
    return pairs


def parse_number(text: str, kind: str) -> Written:
    """A written score or total: ``-4``, ``2/10``, ``-22.69``, ``12√2``, ``24 + 12√2``."""
    original = text
    check_text(text.strip(), "the number")
    norm = normalize_text(_strip_parens(text))
    if not norm:
        raise ValueError("nothing written")
    m = _DECIMAL_RE.fullmatch(norm)
    if m:
        q = Fraction(norm)
        value: Score = Sqrt2(q, Fraction(0)) if kind == "radical" else q
        return Written(original.strip(), value, len(m.group(1)))
    if _RATIONAL_RE.fullmatch(norm):
        try:
            q = Fraction(norm)
        except ZeroDivisionError:
            raise ValueError(f"{original.strip()!r} divides by 0") from None
        value = Sqrt2(q, Fraction(0)) if kind == "radical" else q
        return Written(original.strip(), value)
    if kind == "radical":
        try:
            parsed = parse_value(norm, "radical", chip=False)
        except ValueError:
            pass
        else:
            if isinstance(parsed, Radical):
                return Written(original.strip(), parsed.number)
    raise ValueError(f"cannot read {original.strip()!r} as a number")


def _to_decimal(x: Score) -> Decimal:
    getcontext().prec = 60
    if isinstance(x, Sqrt2):
        return (
            Decimal(x.a.numerator) / Decimal(x.a.denominator)
            + Decimal(x.b.numerator) / Decimal(x.b.denominator) * Decimal(2).sqrt()
        )
    return Decimal(x.numerator) / Decimal(x.denominator)


def _rational(x: Score) -> Fraction | None:
    """``x`` as a Fraction when it is rational (``a + 0√2`` included), else None."""
    if isinstance(x, Sqrt2):
        return None if x.b else x.a
    return x


def same(written: Written, expected: Score) -> bool:
    """Equal values in any form (``2/10`` = ``1/5``); a decimal is right when it is the exact
    value rounded, halves away from zero, to the places written (at least 2)."""
    w, e = _rational(written.value), _rational(expected)
    if w is None:
        return e is None and written.value == expected
    if e == w:
        return True
    if written.places < 2:
        return False
    scale = 10**written.places
    if e is not None:
        return Fraction(round_half_away(e * scale), scale) == w
    # a + b√2 with b ≠ 0 is irrational: never a tie, so 60 digits decide the rounding
    d = _to_decimal(expected) * scale
    return Fraction(int(d.to_integral_value(rounding="ROUND_HALF_UP")), scale) == w


# --------------------------------------------------------------------------------------------
# Entries


_WRITTEN_OPERATORS = {"+": PLUS, "-": MINUS, "×": TIMES, "x": TIMES, "X": TIMES, "*": TIMES,
                      "÷": DIVIDE, "/": DIVIDE, ":": DIVIDE}  # fmt: skip
_SPACED_ONLY = {"x", "X", "*", "/", ":"}  # operators only between spaces: 4*sqrt(18), 7/10


def split_operation(text: str) -> tuple[list[str], list[str]]:
    """Split ``-9 + (-1)``, ``-3/10 X -7/10``, ``(-3x²y)( -xy²)``, ``-5 x 10 x 2`` into
    operands and board operators, at parenthesis depth 0."""
    s = text.translate(_MINUS)
    s = re.sub(r"\)\s*\(", ") × (", s)
    operands: list[str] = []
    ops: list[str] = []
    depth = 0
    start = 0
    expect_operand = True  # a sign right after an operator belongs to the operand: X -7/10
    for i, c in enumerate(s):
        if c.isspace():
            continue
        if depth == 0 and c in _WRITTEN_OPERATORS and not expect_operand:
            is_op = True
            if c in _SPACED_ONLY:
                is_op = s[i - 1 : i].isspace() and s[i + 1 : i + 2].isspace()
            if is_op:
                operands.append(s[start:i])
                ops.append(_WRITTEN_OPERATORS[c])
                start = i + 1
                expect_operand = True
                continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        expect_operand = False
    operands.append(s[start:])
    if depth != 0:
        raise ValueError(f"unbalanced parentheses in {text.strip()!r}")
    return [_strip_parens(o) for o in operands], ops


_MULT_RE = re.compile(r"^(.*?)\s*(?:×|\*|(?<=[\s\d)])[xX])\s*([124])\s*$", re.ASCII)


def split_multiplier(text: str, kind: str) -> tuple[str, int | None]:
    """``-50 x 2`` → (``-50``, 2); ``-11x 2`` also, except in polynomials where the x must
    stand apart (``6x x 2``)."""
    s = text.strip()
    m = _MULT_RE.match(s)
    if not m:
        return s, None
    head = m.group(1)
    cut = s[len(head) :].lstrip()
    if kind == "polynomial" and cut[:1] in "xX" and not s[len(head) : len(head) + 1].isspace():
        return s, None
    if not head:
        return s, None
    return head, int(m.group(2))


@dataclass(frozen=True, slots=True)
class TakeEntry:
    """A taking as written: operands, board operator, the multiplier written (None if not),
    and the intermediate values written after ``=``/``≈`` (the last one may be the score)."""

    taker: str
    operator: str
    taken: str
    multiplier: int | None
    steps: tuple[str, ...]


def parse_take(text: str, kind: str) -> TakeEntry:
    """``-7 ÷ 2 = -3.5 ≈ -4``, ``-5 x 10 x 2``, ``-5 x 10 = -50 x 2 = -100``."""
    segments = [seg.strip() for seg in re.split(r"[=≈]", text)]
    if not segments[0]:
        raise ValueError(f"no operation in {text.strip()!r}")
    operands, ops = split_operation(segments[0])
    multipliers: list[int] = []
    if len(operands) == 3 and ops[1] == TIMES and operands[2].strip() in ("1", "2", "4"):
        multipliers.append(int(operands[2]))
        operands, ops = operands[:2], ops[:1]
    if len(operands) != 2 or not all(operands):
        raise ValueError(f"cannot read {segments[0]!r} as 'taker operator taken' (like -9 + (-1))")
    steps = []
    for seg in segments[1:]:
        value, mult = split_multiplier(seg, kind)
        if mult is not None:
            multipliers.append(mult)
        if value:
            steps.append(value)
    if len(set(multipliers)) > 1:
        raise ValueError(f"two different multipliers written in {text.strip()!r}")
    mult = multipliers[0] if multipliers else None
    return TakeEntry(operands[0], ops[0], operands[1], mult, tuple(steps))


def parse_operand(text: str, kind: str) -> Value:
    try:
        return parse_value(text, kind)
    except ValueError as err:
        raise ValueError(f"cannot read the chip {text!r}: {err}") from None


_RC_PREFIX = re.compile(r"^\s*R\.?\s*C\.?\s*:?\s*", re.IGNORECASE)


def parse_rc(text: str, kind: str) -> tuple[str, int | None, tuple[str, ...]]:
    """``RC -11 x 2``, ``RC: -5``, ``R.C. -11/10``, ``-11x 2 = -22``: (chip, multiplier, steps)."""
    s = _RC_PREFIX.sub("", text)
    segments = [seg.strip() for seg in re.split(r"[=≈]", s)]
    chip, mult = split_multiplier(segments[0], kind)
    # a polynomial RC may name its square: 78xy² (4,1)
    chip = re.sub(r"\s*\(\s*\d+\s*,\s*\d+\s*\)\s*$", "", chip, flags=re.ASCII)
    if not chip:
        raise ValueError(f"no chip in {text.strip()!r}")
    steps = []
    for seg in segments[1:]:
        value, m2 = split_multiplier(seg, kind)
        if m2 is not None:
            mult = mult if mult is not None else m2
        if value:
            steps.append(value)
    return chip, mult, tuple(steps)


_SQUARE_RE = re.compile(r"^\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$", re.ASCII)


def parse_square(text: str) -> tuple[int, int]:
    m = _SQUARE_RE.match(text.strip())
    if not m:
        raise ValueError(f"cannot read the square {text.strip()!r}: expected (x,y) like (4,5)")
    return int(m.group(1)), int(m.group(2))


_MOVE_RE = re.compile(r"^(.*?)\s*(\(\s*\d+\s*,\s*\d+\s*\))\s*$", re.ASCII)


def parse_move(text: str) -> tuple[str, tuple[int, int]]:
    """``-9 (0, 3)``: the moving chip's label and its destination."""
    m = _MOVE_RE.match(text)
    if not m or not m.group(1):
        raise ValueError(
            f"cannot read the move {text.strip()!r}: expected a chip and a square, like -9 (0, 3)"
        )
    return m.group(1), parse_square(m.group(2))
