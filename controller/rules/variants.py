"""The Damath variants, one record each: the registry every command and the runtime ask.

The record is built from the board's data (``damath_data``: the placements and the kind of
number of each variant) and the rule profiles (``profiles``), never restated, so a variant added
to those tables is known everywhere at once: ``rules``, ``audit``, ``engine``, ``run``, the
simulator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from . import damath_data
from .errors import NotationError
from .move import BLUE, RED, Chip, Square
from .profiles import PROFILES
from .values import Value, ValueKind, parse_value

DEFAULT = "integer"
"""The variant of a command or a board that names none."""


class VariantError(NotationError):
    """A variant name the registry does not know; the message lists the known ones."""


@dataclass(frozen=True)
class Variant:
    name: str
    placement: tuple[str, ...]
    """The chip labels as printed, in the order of ``damath_data.BLUE_SQUARES`` (RULES.md §2)."""
    value_kind: ValueKind
    """The kind of number the chips carry: parsing, arithmetic, rounding."""
    rules: tuple[str, ...]
    """The rule profiles a game of this variant may be played under (``profiles.PROFILES``)."""

    @property
    def title(self) -> str:
        """The name as a sentence begins with it: ``Integer`` (``Integer Damath``)."""
        return self.name.capitalize()

    def opening_values(self) -> tuple[Value, ...]:
        """The twelve starting values, exact, in the order of ``placement``."""
        return _opening_values(self.name)

    def opening_chips(self) -> dict[Square, Chip]:
        """The starting position (RULES.md §2): each side's twelve chips by square."""
        chips: dict[Square, Chip] = {}
        for value, blue, red in zip(
            self.opening_values(), damath_data.BLUE_SQUARES, damath_data.RED_SQUARES, strict=True
        ):
            chips[blue] = Chip(BLUE, value)
            chips[red] = Chip(RED, value)
        return chips


REGISTRY: Mapping[str, Variant] = MappingProxyType(
    {
        name: Variant(
            name=name,
            placement=labels,
            value_kind=ValueKind(damath_data.VALUE_KINDS[name]),
            rules=tuple(PROFILES),
        )
        for name, labels in damath_data.PLACEMENTS.items()
    }
)
"""Every variant by name, in the order of the rules (counting … polynomial)."""

NAMES: tuple[str, ...] = tuple(REGISTRY)


def get_variant(name: str | Variant) -> Variant:
    """The record of a variant named in any case, with spaces around; refused clearly."""
    if isinstance(name, Variant):
        return name
    found = REGISTRY.get(name.strip().lower()) if isinstance(name, str) else None
    if found is None:
        raise VariantError(f"unknown variant {_shown(name)}; variants are: {', '.join(NAMES)}")
    return found


def opening_chips(variant: str | Variant) -> dict[Square, Chip]:
    """The starting placement of a Damath variant (RULES.md §2), values parsed exactly."""
    return get_variant(variant).opening_chips()


def placement_values(variant: str | Variant) -> tuple[Value, ...]:
    """The twelve starting values of a variant, in the order of ``damath_data.BLUE_SQUARES``."""
    return get_variant(variant).opening_values()


@cache
def _opening_values(name: str) -> tuple[Value, ...]:
    variant = REGISTRY[name]
    return tuple(parse_value(label, variant.value_kind) for label in variant.placement)


def _shown(raw: object) -> str:
    if not isinstance(raw, str):
        return repr(type(raw).__name__)
    return repr(raw) if len(raw) <= 40 else repr(raw[:40]) + "…"
