"""Every taking's score and every remaining chip's worth, precomputed exactly, as integer keys.

The search adds and compares scores millions of times; Fractions and ``a + b√2`` pairs would
cost it most of its time. A game's chip values never change (chips move and disappear, their
numbers stay), so every score the game can ever produce is known before the search starts:
``taker OP taken`` for each pair of values present, each landing square and multiplier, and
each chip's worth as a remaining chip on each square. They are computed once by the rules
engine's own scorer (``controller.rules.scoring``: the one source of the arithmetic) and then
mapped to integers by a ``KeyScale`` that keeps sums exact and order exact:

- whole numbers, fractions and 2-decimal polynomial scores: ``key = score × L``, with ``L`` a
  multiple of every denominator that can occur; sums of keys are keys of sums.
- ``a + b√2`` (Radical Damath): with ``A = a·L`` and ``B = b·L`` whole, ``key = A·S + B·R``,
  ``R = ⌊√2·S⌋``. The map is linear, so sums stay exact, and it is strictly increasing over
  every total the game can reach: two different totals differ by ``|ΔA + ΔB√2| ≥ 1/(|ΔA| +
  √2|ΔB|)`` (since ``ΔA² − 2ΔB²`` is a non-zero integer), while the error of the key is below
  ``|ΔB|``; ``S`` is chosen with ``S > (1 + √2)·M²`` for the bound ``M`` on ``|ΔA|, |ΔB|``.
  (``tests/engine/test_tables.py`` checks the order against ``scoring.compare``.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from statistics import median_low

from controller.rules import damath_data
from controller.rules.geometry import geometry
from controller.rules.move import Chip, Square
from controller.rules.scoring import Score, score_remaining_chip, score_values
from controller.rules.values import Sqrt2, Value

SQUARES: tuple[Square, ...] = geometry(damath_data.SIZE).squares
"""The 32 playable squares in the move generator's dense order."""

RESOLUTION = 1000
"""Keys count thousandths of the smallest score step, so that the evaluation's heuristic terms
(a fraction of a taking) fit between two different scores."""

MULTIPLIERS = (1, 2, 4)
"""A taking's multiplier: 1, ×2 when one of the two chips is a dama, ×4 when both are."""


@dataclass(frozen=True)
class KeyScale:
    """Exact scores ↔ integer keys (see the module's docstring)."""

    kind: str
    denominator: int
    """L: every score the game can reach is a whole multiple of 1/L (of 1/L and √2/L)."""
    shift: int
    """S for ``a + b√2`` (1 otherwise)."""
    root2: int
    """R = ⌊√2·S⌋ for ``a + b√2`` (0 otherwise)."""

    @property
    def point(self) -> int:
        """The key of one Damath point."""
        return self.denominator * self.shift

    def key(self, score: Score) -> int:
        if isinstance(score, Sqrt2):
            a, b = score.a * self.denominator, score.b * self.denominator
            if a.denominator != 1 or b.denominator != 1:
                raise ValueError(f"{score} is not a multiple of 1/{self.denominator}")
            return int(a) * self.shift + int(b) * self.root2
        scaled = Fraction(score) * self.denominator
        if scaled.denominator != 1:
            raise ValueError(f"{score} is not a multiple of 1/{self.denominator}")
        return int(scaled)

    def points(self, key: int) -> float:
        """A key as Damath points, for display and for choosing among moves (never for the
        game's arithmetic): the nearest double to the key's own value."""
        return key / self.point


def _denominators(score: Score) -> Iterable[int]:
    if isinstance(score, Sqrt2):
        yield score.a.denominator
        yield score.b.denominator
    else:
        yield Fraction(score).denominator


def _magnitude(score: Score, scale: int) -> int:
    """max(|A|, |B|) of a score once multiplied by ``scale``."""
    if isinstance(score, Sqrt2):
        return math.ceil(max(abs(score.a), abs(score.b)) * scale)
    return math.ceil(abs(Fraction(score)) * scale)


def key_scale(kind: str, scores: Iterable[Score], bound: Fraction) -> KeyScale:
    """The scale for a set of scores; ``bound`` ≥ max |a|, |b| of any total the game can reach
    (only used for ``a + b√2``)."""
    denominator = 1
    for s in scores:
        for d in _denominators(s):
            denominator = math.lcm(denominator, d)
    denominator *= RESOLUTION
    if kind != "radical":
        return KeyScale(kind, denominator, 1, 0)
    m = math.ceil(bound * denominator) + 1
    shift = 1 << (2 * m.bit_length() + 4)  # (1 + √2)·(2m)² < 16·m² ≤ 2^(2·bits + 4)
    return KeyScale(kind, denominator, shift, math.isqrt(2 * shift * shift))


@dataclass(frozen=True)
class ScoreTables:
    """Integer keys of every taking and remaining chip for a set of chip values.

    ``taking[((taker * n + taken) * 32 + landing) * 3 + m]`` is the key of ``taker OP taken``
    landing on dense square ``landing`` with multiplier ``MULTIPLIERS[m]``;
    ``remaining[(value * 32 + square) * 2 + dama]`` the key of a remaining chip.
    """

    values: tuple[Value, ...]
    kind: str
    scale: KeyScale
    taking: tuple[int, ...]
    remaining: tuple[int, ...]
    typical: int
    """The median |score| of one taking without multiplier, as a key: a variant's 'one
    ordinary taking', the unit in which heuristic weights and temperatures are given."""
    largest: int
    """The largest |key| in the tables (bounds every total the game can reach)."""

    def key(self, score: Score) -> int:
        return self.scale.key(score)


def _exact_takings(values: Sequence[Value], kind: str, squares: Sequence[Square]) -> list[Score]:
    """Exact scores in the layout of ``ScoreTables.taking``, from the rules engine's scorer.

    The scorer multiplies the rounded result by the multiplier (D-6, D-7), so the ×2 and ×4
    entries are the ×1 score times 2 and 4; outside Polynomial Damath a score depends on the
    square only through its operator.
    """
    out: list[Score] = []
    by_operator: dict[tuple[int, int, str], Score] = {}
    for i, taker in enumerate(values):
        for j, taken in enumerate(values):
            for sq in squares:
                op = damath_data.OPERATORS[sq]
                memo = (i, j, op)
                if kind == "polynomial":  # a monomial's number depends on the square
                    base = score_values(taker, taken, op, sq, 1, kind)[2]
                else:
                    if memo not in by_operator:
                        by_operator[memo] = score_values(taker, taken, op, sq, 1, kind)[2]
                    base = by_operator[memo]
                out.extend(base * m if m != 1 else base for m in MULTIPLIERS)
    return out


@cache
def score_tables(
    values: tuple[Value, ...], kind: str, rc_profile: str, extra: tuple[Score, ...] = ()
) -> ScoreTables:
    """The tables for the chip values of a game (``values`` in value-id order).

    ``rc_profile`` is ``official`` (a remaining dama counts double) or ``online``; ``extra``
    holds scores from outside the tables (totals given with a position) so that the scale
    covers them too.
    """
    squares = SQUARES
    takings = _exact_takings(values, kind, squares)
    remaining: list[Score] = []
    for value in values:
        for sq in squares:
            for dama in (False, True):
                chip = Chip(0, value, dama)
                remaining.append(score_remaining_chip(sq, chip, kind, rc_profile).score)
    biggest = max((_magnitude(s, 1) for s in (*takings, *remaining)), default=1)
    extra_size = max((_magnitude(s, 1) for s in extra), default=0)
    # A total is at most 24 takings and 24 remaining chips, plus a total given with a position.
    bound = Fraction(64 * biggest + 2 * extra_size + 1)
    scale = key_scale(kind, (*takings, *remaining, *extra), bound)
    plain = [abs(scale.key(s)) for s in takings[::3]]
    typical = max(1, median_low(plain)) if plain else scale.point
    taking_keys = tuple(scale.key(s) for s in takings)
    remaining_keys = tuple(scale.key(s) for s in remaining)
    return ScoreTables(
        values=values,
        kind=kind,
        scale=scale,
        taking=taking_keys,
        remaining=remaining_keys,
        typical=typical,
        largest=max(map(abs, (*taking_keys, *remaining_keys)), default=1),
    )
