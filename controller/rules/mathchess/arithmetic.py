"""Partial values (C-6) and how two values compare (C-5), in exact integers.

A partial value is computed from the digits attached to one side of an operator; it keeps the
digits it used, in the order of its sum, and what the rule added to the first one, so that a
page can write it out the way a child would: ``(10 + 3) − 5 = 8``, ``(40 + 2) ÷ 7 = 6``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from math import prod

from .grid import Point
from .pieces import Op

SINGLE = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV})
"""Operators of which one attached digit alone is a partial value (never power or root)."""

ROOT_SIGN = {2: "√", 3: "∛"}
POWER_SIGN = {2: "²", 3: "³"}

Recipe = tuple[tuple[int, ...], int, int, int]
"""Indices of the digits used (in order), the value, the tens added, the exponent or degree."""


@dataclass(frozen=True, slots=True)
class PartialValue:
    op: Op
    points: tuple[Point, ...]
    digits: tuple[int, ...]
    value: int
    added: int = 0
    """Tens added to the first digit: ``−`` when it is the smaller, ``÷`` and ``R`` to divide
    or to root exactly."""
    power: int = 0
    """The exponent of a power, the degree of a root; 0 for the others."""

    def text(self) -> str:
        d = self.digits
        if len(d) == 1 and self.op in SINGLE:
            return str(d[0])
        if self.op is Op.ADD:
            return " + ".join(map(str, d)) + f" = {self.value}"
        if self.op is Op.MUL:
            return " × ".join(map(str, d)) + f" = {self.value}"
        if self.op in (Op.SUB, Op.DIV):
            first = f"({self.added} + {d[0]})" if self.added else str(d[0])
            return f"{first} {self.op.value} {d[1]} = {self.value}"
        if self.op is Op.POW:
            return f"{d[0]}{POWER_SIGN[self.power]} = {self.value}"
        inside = f"({self.added} + {d[0]})" if self.added else str(d[0])
        return f"{ROOT_SIGN[self.power]}{inside} = {self.value}"

    def as_json(self) -> dict[str, object]:
        return {
            "op": self.op.value,
            "points": [list(p) for p in self.points],
            "digits": list(self.digits),
            "added": self.added,
            "power": self.power,
            "value": self.value,
            "text": self.text(),
        }


def partial_values(
    op: Op, points: tuple[Point, ...], digits: tuple[int, ...], roots: str = "smallest"
) -> list[PartialValue]:
    """Every partial value of one side whose attached digits stand on ``points``."""
    return [
        PartialValue(op, tuple(points[i] for i in used), tuple(digits[i] for i in used), v, a, e)
        for used, v, a, e in recipes(op, digits, roots)
    ]


@lru_cache(maxsize=65536)
def recipes(op: Op, digits: tuple[int, ...], roots: str = "smallest") -> tuple[Recipe, ...]:
    n = len(digits)
    if n == 0:
        return ()
    if n == 1 and op in SINGLE:
        return (((0,), digits[0], 0, 0),)
    out: list[Recipe] = []
    if op in (Op.ADD, Op.MUL):
        combine = sum if op is Op.ADD else prod
        for size in range(2, n + 1):
            for used in combinations(range(n), size):
                out.append((used, combine(digits[i] for i in used), 0, 0))
    elif op is Op.SUB:
        for i, j in permutations(range(n), 2):
            a, b = digits[i], digits[j]
            added = 10 if a < b else 0
            out.append(((i, j), a + added - b, added, 0))
    elif op is Op.DIV:
        for i, j in permutations(range(n), 2):
            found = quotient(digits[i], digits[j])
            if found is not None:
                out.append(((i, j), found[0], found[1], 0))
    elif op is Op.POW:
        for i in range(n):
            for e in (2, 3):
                out.append(((i,), digits[i] ** e, 0, e))
    else:
        for i in range(n):
            for degree in (2, 3):
                for root, added in digit_roots(digits[i], degree, roots):
                    out.append(((i,), root, added, degree))
    return tuple(out)


def quotient(a: int, b: int) -> tuple[int, int] | None:
    """``(a + 10k) ÷ b`` for the smallest ``k`` with ``a + 10k < 100`` that divides exactly, as
    (quotient, tens added); none for ``b = 0`` or when no such ``k`` exists."""
    if b == 0:
        return None
    for added in range(0, 100 - a, 10):
        if (a + added) % b == 0:
            return (a + added) // b, added
    return None


def digit_roots(d: int, degree: int, roots: str = "smallest") -> list[tuple[int, int]]:
    """Roots below 10 of ``d + 10k`` (as root, tens added): the smallest ``k`` only, or every
    ``k`` with the ``every`` setting."""
    found = [(r, r**degree - d) for r in range(10) if r**degree >= d and (r**degree - d) % 10 == 0]
    found.sort(key=lambda pair: pair[1])
    return found[:1] if roots == "smallest" else found


def key(value: int, compare: str) -> int:
    """What two values must share to match (C-5): the last digit, or the repeated digit sum."""
    if compare == "last-digit":
        return value % 10
    return 0 if value == 0 else 1 + (value - 1) % 9


def compare_text(a: int, b: int, compare: str) -> str:
    """``last digits 5 = 5`` or ``digit sums 8 = 8``."""
    name = "last digits" if compare == "last-digit" else "digit sums"
    return f"{name} {key(a, compare)} = {key(b, compare)}"
