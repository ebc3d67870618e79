"""A reference scorer: every score worked out again with sympy from the written labels.

Nothing here comes from ``controller.rules.scoring`` or ``controller.rules.values``: a chip's
label as printed (``-9``, ``10/10``, ``4√18``, ``-3x²y``) is read by sympy's own parser, the
polynomial is evaluated at the landing square by substitution, and the rounding rules are
written out as floor arithmetic on exact numbers. It is slow (milliseconds a taking) and has no
reason to agree with the fast scorer except that both follow the rules:

- each taking scores ``taker OP taken``, OP the landing square's operator, D-8: ÷ 0 is 0;
- Counting, Whole, Integer (D-6): rounded to a whole number, halves away from zero;
- Polynomial (D-7): both chips evaluated at the landing square (x column, y row), rounded to
  2 decimals, halves away from zero;
- Fraction, Rational, Radical: exact;
- then the dama multiplier (×2 one dama, ×4 two);
- remaining chips (§5): a polynomial evaluated where it stands (2 decimals); a dama ×2 in the
  official profile, ×1 in the online one; grand total = takings + remaining; the higher wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy
from sympy.parsing.sympy_parser import (
    implicit_multiplication_application,
    parse_expr,
    rationalize,
    standard_transformations,
)

X, Y = sympy.symbols("x y")
_TRANSFORMS = (*standard_transformations, implicit_multiplication_application, rationalize)
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")

ROUNDING = {
    "counting": "whole",
    "whole": "whole",
    "integer": "whole",
    "fraction": "exact",
    "rational": "exact",
    "radical": "exact",
    "polynomial": "hundredths",
}


def number(text: str) -> sympy.Expr:
    """A chip label or a written score as an exact sympy number or monomial in x and y:
    ``-3x²y``, ``4√18``, ``-7√2/6``, ``24 + 12√2``, ``-22.69``, ``10/10``."""
    t = text.strip().replace("−", "-").replace("–", "-")
    t = re.sub(r"([xy])([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: f"{m[1]}**{m[2].translate(_SUPERSCRIPT)}", t)
    t = re.sub(r"√(\d+)", r"sqrt(\1)", t)
    return parse_expr(t, local_dict={"x": X, "y": Y}, transformations=_TRANSFORMS)


def _round(value: sympy.Expr, places: int) -> sympy.Expr:
    """Halves away from zero, on the exact number."""
    scale = sympy.Integer(10) ** places
    magnitude = sympy.floor(abs(value) * scale + sympy.Rational(1, 2)) / scale
    return -magnitude if value < 0 else magnitude


def taking_score(
    variant: str, taker: str, taken: str, square: tuple[int, int], operator: str, multiplier: int
) -> sympy.Expr:
    at = {X: square[0], Y: square[1]}
    a = number(taker).subs(at)
    b = number(taken).subs(at)
    if operator == "+":
        result = a + b
    elif operator == "−":
        result = a - b
    elif operator == "×":
        result = a * b
    elif operator == "÷":
        result = sympy.Integer(0) if b == 0 else a / b
    else:
        raise ValueError(operator)
    rounding = ROUNDING[variant]
    if rounding == "whole":
        result = _round(result, 0)
    elif rounding == "hundredths":
        result = _round(result, 2)
    return sympy.radsimp(result * multiplier)


def remaining_chip(variant: str, label: str, square, dama: bool, profile: str) -> sympy.Expr:
    value = number(label).subs({X: square[0], Y: square[1]})
    if ROUNDING[variant] == "hundredths":
        value = _round(value, 2)
    return value * (2 if dama and profile == "official" else 1)


def same(a: sympy.Expr, b: sympy.Expr) -> bool:
    return sympy.expand(sympy.radsimp(a - b)) == 0


@dataclass
class SideResult:
    takings: list[sympy.Expr]
    running: list[sympy.Expr]
    remaining: list[sympy.Expr]
    remaining_total: sympy.Expr
    grand: sympy.Expr


def game_result(variant: str, profile: str, takings, remaining):
    """``takings``: (side, taker, taken, square, operator, multiplier) in playing order;
    ``remaining``: (side, label, square, dama). Returns per side results and the winner
    (0, 1 or None for equal grand totals)."""
    sides = {s: SideResult([], [], [], sympy.Integer(0), sympy.Integer(0)) for s in (0, 1)}
    total = {0: sympy.Integer(0), 1: sympy.Integer(0)}
    for side, *parts in takings:
        score = taking_score(variant, *parts)
        total[side] += score
        sides[side].takings.append(score)
        sides[side].running.append(total[side])
    for side, label, square, dama in remaining:
        value = remaining_chip(variant, label, square, dama, profile)
        sides[side].remaining.append(value)
        sides[side].remaining_total += value
    for side in (0, 1):
        sides[side].grand = total[side] + sides[side].remaining_total
    difference = sympy.radsimp(sides[0].grand - sides[1].grand)
    winner = None if same(difference, 0) else 0 if difference > 0 else 1
    return sides, winner
