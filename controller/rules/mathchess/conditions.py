"""Select now!: the four conditions the players agree before a game, and the ten levels.

Condition 1 (0 in or out) and condition 2 (how many digits) give each side the same digit
values, one piece of each; condition 3 (which operators, how many) is a level or the players'
own mix; condition 4 is how two values are compared (C-5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .pieces import OP_NAMES, Op, PieceError, symbol

LEVELS: dict[int, dict[Op, int]] = {
    1: {Op.ADD: 4},
    2: {Op.SUB: 4},
    3: {Op.ADD: 2, Op.SUB: 2},
    4: {Op.MUL: 4},
    5: {Op.DIV: 4},
    6: {Op.MUL: 2, Op.DIV: 2},
    7: {Op.POW: 4},
    8: {Op.ROOT: 4},
    9: {Op.ADD: 1, Op.SUB: 1, Op.MUL: 1, Op.DIV: 1},
    10: {Op.MUL: 1, Op.DIV: 1, Op.POW: 1, Op.ROOT: 1},
}
"""The ten levels of difficulty. Levels 1–8 say "up to" their counts: these are the most a
level allows, and a class that wants fewer gives its own ``operators``."""

BOX_PER_OPERATOR = 4
"""Each player's box holds four pieces of each operator."""

COMPARE = ("last-digit", "digit-sum")
"""C-5: last digits equal (the default), or equal repeated digit sums (digital roots)."""

DEFAULT_LEVEL = 9


class ConditionsError(ValueError):
    """Conditions the players cannot agree on; the message says which and why."""


@dataclass(frozen=True)
class Conditions:
    digits: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9)
    operators: tuple[tuple[Op, int], ...] = tuple(LEVELS[DEFAULT_LEVEL].items())
    compare: str = "last-digit"
    level: int | None = DEFAULT_LEVEL
    """The level the operators come from; ``None`` for a mix of the players' own."""

    def __post_init__(self) -> None:
        values = list(self.digits)
        if not values:
            raise ConditionsError("digits: each player needs at least one digit piece")
        if len(set(values)) != len(values) or any(not 0 <= v <= 9 for v in values):
            raise ConditionsError(f"digits: expected different values from 0 to 9, got {values}")
        if self.compare not in COMPARE:
            raise ConditionsError(f"compare: {self.compare!r} is not one of {', '.join(COMPARE)}")
        total = 0
        for op, count in self.operators:
            if not 0 <= count <= BOX_PER_OPERATOR:
                raise ConditionsError(
                    f"operators: {count} {OP_NAMES[op]} pieces; a box holds 0 to "
                    f"{BOX_PER_OPERATOR} of each operator"
                )
            total += count
        if total == 0:
            raise ConditionsError("operators: each player needs at least one operator piece")

    @property
    def zero(self) -> bool:
        return 0 in self.digits

    def box(self) -> Counter[str]:
        """One player's pieces, by symbol."""
        out: Counter[str] = Counter(str(d) for d in self.digits)
        for op, count in self.operators:
            if count:
                out[op.value] += count
        return out

    def operator_count(self) -> int:
        return sum(count for _, count in self.operators)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"zero": self.zero, "digits": list(self.digits)}
        if self.level is not None:
            out["level"] = self.level
        else:
            out["operators"] = {op.value: count for op, count in self.operators if count}
        out["compare"] = self.compare
        return out


def digit_values(zero: bool, count: int) -> tuple[int, ...]:
    """Condition 2 given as a number: the lowest values, from 0 when 0 is in, else from 1."""
    first = 0 if zero else 1
    if not 1 <= count <= 10 - first:
        raise ConditionsError(
            f"digits: {count} digit pieces; with 0 {'in' if zero else 'out'} a player has "
            f"1 to {10 - first}"
        )
    return tuple(range(first, first + count))


def from_level(
    level: int = DEFAULT_LEVEL,
    *,
    zero: bool = False,
    digits: int | Iterable[int] | None = None,
    compare: str = "last-digit",
) -> Conditions:
    if level not in LEVELS:
        raise ConditionsError(f"level: expected 1 to 10, got {level!r}")
    return Conditions(_digits(zero, digits), tuple(LEVELS[level].items()), compare, level)


def own_level(
    operators: Mapping[str, int],
    *,
    zero: bool = False,
    digits: int | Iterable[int] | None = None,
    compare: str = "last-digit",
) -> Conditions:
    """A level of the players' own (the seed encourages it): any operators, up to a box each."""
    counts: dict[Op, int] = {}
    for raw, count in operators.items():
        try:
            op = Op(symbol(raw))
        except (PieceError, ValueError):
            raise ConditionsError(f"operators: {raw!r} is not an operator (+ - x / P R)") from None
        if not isinstance(count, int) or isinstance(count, bool):
            raise ConditionsError(f"operators: expected a whole number for {raw!r}")
        counts[op] = counts.get(op, 0) + count
    order = list(Op)  # one order whatever the order given: a position read back is the same
    ranked = tuple(sorted(counts.items(), key=lambda item: order.index(item[0])))
    return Conditions(_digits(zero, digits), ranked, compare, None)


def _digits(zero: bool, digits: int | Iterable[int] | None) -> tuple[int, ...]:
    if digits is None:
        return digit_values(zero, 10 if zero else 9)
    if isinstance(digits, int):
        return digit_values(zero, digits)
    values = tuple(sorted(digits))
    if (0 in values) != zero:
        raise ConditionsError(
            f"digits: 0 is {'out' if not zero else 'in'} (condition 1) but the values are "
            f"{list(values)}"
        )
    return values
