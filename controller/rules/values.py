"""Exact chip values of every Damath variant (RULES.md §2), parsed from the text a player reads.

Four kinds of number (``ValueKind``; ``variants`` gives each variant its kind): whole numbers,
fractions, multiples of √2 and monomials in x and y. They are small frozen classes of our own over
``fractions.Fraction`` rather than sympy expressions: a chip is compared, hashed and scored
thousands of times per search, and a Fraction or a pair of Fractions does that in microseconds,
where a symbolic expression costs a hundred times more and drags a large import into the engine.

Every value keeps ``label``, the chip's text as printed (``-9``, ``10/10`` unreduced, ``4√18``,
``-3x²y``), and ``kind``; ``str(value)`` is the label. ``value.at(square)`` is the exact number
the chip stands for on that square: the number itself, except a monomial, which is evaluated
there (x = column, y = row; RULES.md D-7).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .move import Square


class ValueKind(StrEnum):
    """The kind of number a variant's chips carry: it decides parsing, arithmetic, rounding."""

    INTEGER = "integer"
    FRACTION = "fraction"
    RADICAL = "radical"
    POLYNOMIAL = "polynomial"


KINDS: tuple[ValueKind, ...] = tuple(ValueKind)

# The signs people write for minus, and the superscript digits of exponents.
_MINUS_SIGNS = str.maketrans({"−": "-", "–": "-", "—": "-", "‐": "-", "‒": "-", "﹣": "-"})
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_TO_SUPERSCRIPT = str.maketrans("0123456789", _SUPERSCRIPTS)
_FROM_SUPERSCRIPT = str.maketrans(_SUPERSCRIPTS, "0123456789")


def normalize_text(text: str) -> str:
    """The text with every minus sign as ``-`` and no spaces: the form all parsers read."""
    return "".join(text.translate(_MINUS_SIGNS).split())


def format_fraction(q: Fraction) -> str:
    """A rational in lowest terms as a player writes it: ``-10``, ``1/5``, ``-7/6``."""
    if q.denominator == 1:
        return str(q.numerator)
    return f"{q.numerator}/{q.denominator}"


# --------------------------------------------------------------------------------------------
# a + b√2


@dataclass(frozen=True, slots=True)
class Sqrt2:
    """The exact number ``a + b√2`` with rational ``a`` and ``b``.

    Radical Damath chips are all multiples of √2, so every score and total stays in this field:
    it is closed under + − × and ÷ (dividing by the conjugate), and comparing two numbers is
    comparing two pairs of Fractions.
    """

    a: Fraction
    b: Fraction

    def __add__(self, other: Sqrt2 | int | Fraction) -> Sqrt2:
        if isinstance(other, Sqrt2):
            return Sqrt2(self.a + other.a, self.b + other.b)
        return Sqrt2(self.a + other, self.b)

    __radd__ = __add__

    def __sub__(self, other: Sqrt2 | int | Fraction) -> Sqrt2:
        if isinstance(other, Sqrt2):
            return Sqrt2(self.a - other.a, self.b - other.b)
        return Sqrt2(self.a - other, self.b)

    def __rsub__(self, other: int | Fraction) -> Sqrt2:
        return Sqrt2(other - self.a, -self.b)

    def __mul__(self, other: Sqrt2 | int | Fraction) -> Sqrt2:
        if isinstance(other, Sqrt2):
            return Sqrt2(
                self.a * other.a + 2 * self.b * other.b, self.a * other.b + self.b * other.a
            )
        return Sqrt2(self.a * other, self.b * other)

    __rmul__ = __mul__

    def __truediv__(self, other: Sqrt2 | int | Fraction) -> Sqrt2:
        """Raises ZeroDivisionError for 0 (the scorer decides what that means, D-8)."""
        if not isinstance(other, Sqrt2):
            return Sqrt2(self.a / other, self.b / other)
        norm = other.a * other.a - 2 * other.b * other.b  # never 0 unless other is 0: √2 ∉ ℚ
        if norm == 0:
            raise ZeroDivisionError("division by zero")
        conj = Sqrt2(other.a, -other.b)
        p = self * conj
        return Sqrt2(p.a / norm, p.b / norm)

    def __rtruediv__(self, other: int | Fraction) -> Sqrt2:
        return Sqrt2(Fraction(other), Fraction(0)) / self

    def __neg__(self) -> Sqrt2:
        return Sqrt2(-self.a, -self.b)

    def __bool__(self) -> bool:
        return bool(self.a) or bool(self.b)

    def __float__(self) -> float:
        """For display only; OverflowError past the largest double (bounded chips never get
        there: ``scoring.display_float`` shows it as the largest double)."""
        value = float(self.a) + float(self.b) * math.sqrt(2)
        if not math.isfinite(value):
            raise OverflowError("a + b√2 too large for a float")
        return value

    def __str__(self) -> str:
        return format_sqrt2(self)


ZERO_SQRT2 = Sqrt2(Fraction(0), Fraction(0))


def _format_sqrt2_term(b: Fraction) -> str:
    """``b√2`` with the coefficient as a player writes it: ``√2``, ``-√2``, ``12√2``, ``-7√2/6``."""
    sign = "-" if b < 0 else ""
    n, d = abs(b.numerator), b.denominator
    coef = "" if n == 1 else str(n)
    return f"{sign}{coef}√2" + ("" if d == 1 else f"/{d}")


def format_sqrt2(x: Sqrt2) -> str:
    """``a + b√2`` simplified: ``12√2``, ``-7/6``, ``24 + 12√2``, ``3 - √2``, ``0``."""
    if not x.b:
        return format_fraction(x.a)
    if not x.a:
        return _format_sqrt2_term(x.b)
    op = "-" if x.b < 0 else "+"
    return f"{format_fraction(x.a)} {op} {_format_sqrt2_term(abs(x.b))}"


# --------------------------------------------------------------------------------------------
# The value classes


@dataclass(frozen=True, slots=True)
class Rational:
    """A whole number (kind ``integer``) or a fraction (kind ``fraction``); ``number`` is exact,
    ``label`` keeps the printed form (``10/10`` is 1 but is written ``10/10``)."""

    label: str
    kind: ValueKind
    number: Fraction

    def at(self, square: Square | None = None) -> Fraction:
        return self.number

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class Radical:
    """A radical chip or radical total, exactly ``number`` = a + b√2 (chips have a = 0)."""

    label: str
    number: Sqrt2

    @property
    def kind(self) -> ValueKind:
        return ValueKind.RADICAL

    @property
    def coefficient(self) -> Fraction:
        """The coefficient of √2 (``4√18`` → 12), meaningful for chips, whose a is 0."""
        return self.number.b

    def at(self, square: Square | None = None) -> Sqrt2:
        return self.number

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class Monomial:
    """A polynomial chip ``coefficient · x^x_exp · y^y_exp``; its number depends on the square
    it stands or lands on (RULES.md D-7), hence ``at(square)``."""

    label: str
    coefficient: Fraction
    x_exp: int
    y_exp: int

    @property
    def kind(self) -> ValueKind:
        return ValueKind.POLYNOMIAL

    def at(self, square: Square) -> Fraction:
        x, y = square
        scale: int = x**self.x_exp * y**self.y_exp  # whole: exponents are never negative
        return self.coefficient * scale

    def __str__(self) -> str:
        return self.label


Value = Rational | Radical | Monomial


# --------------------------------------------------------------------------------------------
# Bounds (docs/scoring.md, "Bounds"): what a chip can carry, so no value can make scoring slow,
# huge or inexact. The game's own chips stay far inside them: the largest part of any of them is
# 363 (-121√18 = -363√2) and the highest exponent 2; a lesson's chips get room up to 999 and 3.

MAX_TEXT = 40
"""Characters in a chip's or a written number's text (the game's longest label has 7)."""
MAX_PART = 999
"""Largest numerator and denominator of a chip's number in lowest terms (of both parts of
``a + b√2``, of a monomial's coefficient)."""
MAX_EXPONENT = 3
"""Highest power of x or of y in a polynomial chip."""


def check_text(text: str, what: str) -> None:
    """Refuse a text too long to be a number of this game before anything converts it."""
    if len(text) > MAX_TEXT:
        raise ValueError(
            f"{what} {text[:20]!r}… is {len(text)} characters long: "
            f"a number of this game has at most {MAX_TEXT}"
        )


def _part_ok(q: Fraction) -> bool:
    return abs(q.numerator) <= MAX_PART and q.denominator <= MAX_PART


def check_chip(value: Value) -> Value:
    """The value itself when a chip may carry it; ValueError saying the bound otherwise."""
    parts: tuple[Fraction, ...]
    if isinstance(value, Rational):
        parts = (value.number,)
    elif isinstance(value, Radical):
        parts = (value.number.a, value.number.b)
    else:
        parts = (value.coefficient,)
        if max(value.x_exp, value.y_exp) > MAX_EXPONENT:
            raise ValueError(
                f"the chip {value.label!r} has a power above {MAX_EXPONENT}: "
                f"a polynomial chip has x and y to the power {MAX_EXPONENT} at most"
            )
    if not all(_part_ok(q) for q in parts):
        raise ValueError(
            f"the chip {value.label!r} is outside this game: a chip's numbers, in lowest "
            f"terms, have at most three digits (up to {MAX_PART})"
        )
    return value


# --------------------------------------------------------------------------------------------
# Parsing

# re.ASCII everywhere: ``\d`` is 0-9 only, so an Arabic-Indic ``٣`` is not read as 3.
_NUMBER = r"\d+(?:\.\d+)?"
_INTEGER_RE = re.compile(r"[+-]?\d+", re.ASCII)
_RATIONAL_RE = re.compile(rf"([+-]?)({_NUMBER})(?:/({_NUMBER}))?", re.ASCII)
# One radical term: optional sign, coefficient (``4``, ``7/6``, ``(7/6)``), optional √n, optional
# trailing ``/d`` (``-7√2/6``). Applied repeatedly to read sums such as ``24 + 12√2``.
_RADICAL_TERM_RE = re.compile(
    r"([+-]?)(?:\((\d+(?:/\d+)?)\)|(\d+(?:/\d+)?))?(?:√(\d+))?(?:/(\d+))?", re.ASCII
)
_SQRT_RE = re.compile(r"sqrt\(?(\d+)\)?|√\((\d+)\)", re.ASCII)
_MONOMIAL_RE = re.compile(r"([+-]?)(\d+(?:/\d+)?)?((?:[xy]\d*)*)", re.ASCII)
_VARIABLE_RE = re.compile(r"([xy])(\d*)", re.ASCII)


def _fraction(text: str) -> Fraction:
    return Fraction(text)


def _parse_rational(text: str, original: str, kind: str) -> Rational:
    m = _RATIONAL_RE.fullmatch(text)
    if kind == "integer":
        if not _INTEGER_RE.fullmatch(text):
            raise ValueError(f"bad integer value {original!r}: expected a whole number like -9")
        return Rational(str(int(text)), ValueKind.INTEGER, Fraction(int(text)))
    if not m:
        raise ValueError(
            f"bad fraction value {original!r}: expected a number or a fraction like -7/10"
        )
    sign, num, den = m.groups()
    number = _fraction(num)
    if den is not None:
        d = _fraction(den)
        if d == 0:
            raise ValueError(f"bad fraction value {original!r}: the denominator is 0")
        number /= d
    if sign == "-":
        number = -number
    label = ("-" if sign == "-" else "") + num + (f"/{den}" if den is not None else "")
    return Rational(label, ValueKind.FRACTION, number)


def _sqrt_to_multiple_of_sqrt2(n: int) -> Sqrt2:
    """√n as a + b√2: √(2k²) = k√2, √(k²) = k; anything else is not in this game."""
    k = math.isqrt(n)
    if k * k == n:
        return Sqrt2(Fraction(k), Fraction(0))
    if n % 2 == 0:
        k = math.isqrt(n // 2)
        if 2 * k * k == n:
            return Sqrt2(Fraction(0), Fraction(k))
    raise ValueError(f"√{n} is not a whole multiple of √2")


def _parse_radical(text: str, original: str) -> Radical:
    expected = "expected a radical like 4√18, 4*sqrt(18), 12√2, -7/6 or 24 + 12√2"
    text = _SQRT_RE.sub(lambda m: "√" + (m.group(1) or m.group(2)), text.replace("*", ""))
    if not text:
        raise ValueError(f"bad radical value {original!r}: {expected}")
    total = ZERO_SQRT2
    pos = 0
    terms = 0
    while pos < len(text):
        m = _RADICAL_TERM_RE.match(text, pos)
        sign, paren, coef, radicand, den = m.groups() if m else (None,) * 5
        if not m or m.end() == pos or (paren is None and coef is None and radicand is None):
            raise ValueError(f"bad radical value {original!r}: {expected}")
        if terms and not sign:
            raise ValueError(f"bad radical value {original!r}: {expected}")
        c = Fraction(paren or coef or 1)
        if den is not None:
            if int(den) == 0:
                raise ValueError(f"bad radical value {original!r}: the denominator is 0")
            c /= int(den)
        if sign == "-":
            c = -c
        if radicand is None:
            total += Sqrt2(c, Fraction(0))
        else:
            try:
                total += _sqrt_to_multiple_of_sqrt2(int(radicand)) * c
            except ValueError as err:
                raise ValueError(f"bad radical value {original!r}: {err}") from None
        pos = m.end()
        terms += 1
    # A chip keeps its printed form (-√8, 4√18); a sum is shown simplified.
    label = text if terms == 1 and "√" in text else format_sqrt2(total)
    return Radical(label, total)


def _parse_monomial(text: str, original: str) -> Monomial:
    expected = "expected a monomial in x and y like -3x²y, -3*x^2*y or 6x"
    text = text.replace("*", "").replace("^", "").replace("(", "").replace(")", "")
    text = text.translate(_FROM_SUPERSCRIPT).lower()
    m = _MONOMIAL_RE.fullmatch(text)
    if not m or not text.strip("+-"):
        raise ValueError(f"bad polynomial value {original!r}: {expected}")
    sign, coef, variables = m.groups()
    exps = {"x": 0, "y": 0}
    for var, exp in _VARIABLE_RE.findall(variables):
        exps[var] += int(exp) if exp else 1
    if coef is None and not variables:
        raise ValueError(f"bad polynomial value {original!r}: {expected}")
    if max(exps.values()) > MAX_EXPONENT:  # before anything raises x to that power
        raise ValueError(
            f"bad polynomial value {original!r}: x and y go to the power {MAX_EXPONENT} at most"
        )
    c = Fraction(coef) if coef is not None else Fraction(1)
    if sign == "-":
        c = -c
    return Monomial(_monomial_label(c, exps["x"], exps["y"]), c, exps["x"], exps["y"])


def _monomial_label(c: Fraction, x_exp: int, y_exp: int) -> str:
    """The printed form: ``-3x²y``, ``-xy²``, ``6x``, ``24000``."""
    var = ""
    for name, e in (("x", x_exp), ("y", y_exp)):
        if e:
            var += name + (str(e).translate(_TO_SUPERSCRIPT) if e > 1 else "")
    if not var:
        return format_fraction(c)
    if c == 1:
        return var
    if c == -1:
        return "-" + var
    return format_fraction(c) + var


def parse_value(text: str, kind: str, *, chip: bool = True) -> Value:
    """Read a chip's value as printed or typed in ASCII; raises ValueError naming the text.

    ``kind`` is a ``ValueKind`` or its text (``variants`` gives each variant its kind). Accepted:
    Unicode minus signs (− –), spaces anywhere, ``4*sqrt(18)``/``4sqrt18`` for ``4√18``,
    ``-3*x^2*y``/``-3x^2y`` for ``-3x²y``. Only ASCII digits are digits. A chip must lie within
    the bounds above (``check_chip``); ``chip=False`` reads a written total (``24 + 12√2``),
    which may be larger but not longer than ``MAX_TEXT``.
    """
    if not isinstance(text, str):
        raise ValueError(f"bad value {str(text)[:20]!r}: expected text")
    if kind not in KINDS:
        raise ValueError(
            f"unknown value kind {str(kind)[:20]!r}: expected one of {', '.join(KINDS)}"
        )
    check_text(text, f"the {kind} value")
    norm = normalize_text(text)
    if not norm:
        raise ValueError(f"empty {kind} value {text!r}")
    if kind in ("integer", "fraction"):
        value: Value = _parse_rational(norm, text, kind)
    elif kind == "radical":
        value = _parse_radical(norm, text)
    else:
        value = _parse_monomial(norm, text)
    return check_chip(value) if chip else value
