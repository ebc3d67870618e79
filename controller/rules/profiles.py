"""Rule profiles (RULES.md §7): every decision with an alternative is a setting here, as data.

``official`` follows the manual; ``online`` follows the rules page of the Damath online game.
A profile can be adjusted setting by setting (``Profile.with_settings``), for example an arbiter
who turns touch-move on, or the looser reading of D-3.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .ruleset import Priority, Trail


class Repetition(StrEnum):
    """D-9: when a repeated position ends the game."""

    THREEFOLD = "threefold"  # the third occurrence of a position (the manual)
    SINGLE_CHIP_FIVE = "single-chip-five"  # the online game's rule


class MoveTimeout(StrEnum):
    """What happens when a move's time runs out."""

    ARBITER = "arbiter"  # the arbiter decides (the manual)
    OPPONENT_MOVES = "opponent-moves"  # the turn passes (the online game)


class RulesProfileError(ValueError):
    """A rules profile's name or setting that does not exist, or a value of the wrong kind.
    (A board's TOML profile has its own error, ``drivers.profile.ProfileError``.)"""


ProfileError = RulesProfileError
"""The old name, kept while the session (branch ``runtime``) still imports it; to be removed."""


@dataclass(frozen=True)
class Profile:
    name: str
    capture_priority: Priority
    """D-1: ``most-then-dama`` (the manual's "mayor") or ``dama-then-most`` (online)."""
    dama_trail: Trail
    """D-3: ``strict`` (never cross its own trail) or ``loose`` (never return to its start)."""
    remaining_dama_double: bool
    """§5: a dama left on the board counts double in the remaining chips (official)."""
    repetition: Repetition
    """D-9: ``threefold`` (third occurrence of a position) or ``single-chip-five`` (online)."""
    move_seconds: int
    warn_seconds: int
    """Seconds before the move clock runs out when the reminder sounds."""
    game_seconds: int
    move_timeout: MoveTimeout
    """``arbiter`` (the arbiter decides; the manual) or ``opponent-moves`` (online)."""
    touch_move: bool

    def with_settings(self, settings: dict[str, Any]) -> Profile:
        """A copy with some settings changed; unknown names and wrong kinds are refused clearly."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, raw in settings.items():
            if key not in known or key == "name":
                allowed = ", ".join(sorted(k for k in known if k != "name"))
                raise RulesProfileError(f"unknown profile setting {key!r}; settings are: {allowed}")
            current = getattr(self, key)
            changes[key] = _coerce(key, raw, current)
        return replace(self, **changes)


MAX_SECONDS = 24 * 3600


DAMATH_CHOICES: dict[type, tuple[Priority | Trail, ...]] = {
    Priority: (Priority.MOST_THEN_DAMA, Priority.DAMA_THEN_MOST),  # D-1 and the online order
    Trail: (Trail.STRICT, Trail.LOOSE),  # D-3 and its looser reading
}
"""The values a Damath profile takes. The rule sets share ``Priority`` and ``Trail`` with the
draughts games; their other values (``any``, ``most``, ``italian``; a ``free`` trail) are those
games' rules, not a reading of the Damath manual, so a Damath profile refuses them by name."""


def _coerce(key: str, raw: Any, current: Any) -> Any:
    if isinstance(current, Priority | Trail):
        allowed = DAMATH_CHOICES[type(current)]
        options = ", ".join(m.value for m in allowed)
        value = next((m for m in type(current) if m.value == raw), None)
        if value is None:
            raise RulesProfileError(f"profile setting {key}: {_shown(raw)} is not one of {options}")
        if value not in allowed:
            raise RulesProfileError(
                f"profile setting {key}: {_shown(raw)} is a draughts rule, not Damath's; "
                f"a Damath game takes one of {options}"
            )
        return value
    if isinstance(current, bool):
        if isinstance(raw, bool):
            return raw
        raise RulesProfileError(f"profile setting {key}: expected true or false, got {raw!r}")
    if isinstance(current, int):  # seconds: a day at most, so no clock can overflow a float
        if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= MAX_SECONDS:
            return raw
        raise RulesProfileError(
            f"profile setting {key}: expected a whole number from 0 to {MAX_SECONDS}, "
            f"got {_shown(raw)}"
        )
    if isinstance(current, Repetition):
        if raw not in REPETITION_RULES:
            raise RulesProfileError(
                f"profile setting repetition: {raw!r} is not one of {REPETITION_RULES}"
            )
        return Repetition(raw)
    if isinstance(current, MoveTimeout):
        if raw not in TIMEOUT_RULES:
            raise RulesProfileError(
                f"profile setting move_timeout: {raw!r} is not one of {TIMEOUT_RULES}"
            )
        return MoveTimeout(raw)
    return raw


def _shown(raw: object) -> str:
    """A refused value as written, cut short: a message names it without repeating a page."""
    text = repr(raw)
    return text if len(text) <= 20 else text[:20] + "…"


REPETITION_RULES: tuple[str, ...] = tuple(r.value for r in Repetition)
TIMEOUT_RULES: tuple[str, ...] = tuple(t.value for t in MoveTimeout)

OFFICIAL = Profile(
    name="official",
    capture_priority=Priority.MOST_THEN_DAMA,
    dama_trail=Trail.STRICT,
    remaining_dama_double=True,
    repetition=Repetition.THREEFOLD,
    move_seconds=60,
    warn_seconds=10,
    game_seconds=20 * 60,
    move_timeout=MoveTimeout.ARBITER,
    touch_move=False,
)
ONLINE = Profile(
    name="online",
    capture_priority=Priority.DAMA_THEN_MOST,
    dama_trail=Trail.STRICT,
    remaining_dama_double=False,
    repetition=Repetition.SINGLE_CHIP_FIVE,
    move_seconds=20,
    warn_seconds=10,
    game_seconds=20 * 60,
    move_timeout=MoveTimeout.OPPONENT_MOVES,
    touch_move=True,
)
PROFILES: dict[str, Profile] = {p.name: p for p in (OFFICIAL, ONLINE)}


def get_profile(name: str | Profile) -> Profile:
    if isinstance(name, Profile):
        return name
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        raise RulesProfileError(
            f"unknown profile {name!r}; profiles are: {', '.join(PROFILES)}"
        ) from None
