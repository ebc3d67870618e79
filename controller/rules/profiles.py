"""Rule profiles (RULES.md §7): every decision with an alternative is a setting here, as data.

``official`` follows the manual; ``online`` follows the rules page of the Damath online game.
A profile can be adjusted setting by setting (``Profile.with_settings``), for example an arbiter
who turns touch-move on, or the looser reading of D-3.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .ruleset import Priority, Trail


class ProfileError(ValueError):
    """A profile name or setting that does not exist, or a value of the wrong kind."""


@dataclass(frozen=True)
class Profile:
    name: str
    capture_priority: Priority
    """D-1: ``most-then-dama`` (the manual's "mayor") or ``dama-then-most`` (online)."""
    dama_trail: Trail
    """D-3: ``strict`` (never cross its own trail) or ``loose`` (never return to its start)."""
    remaining_dama_double: bool
    """§5: a dama left on the board counts double in the remaining chips (official)."""
    repetition: str
    """D-9: ``threefold`` (third occurrence of a position) or ``single-chip-five`` (online)."""
    move_seconds: int
    warn_seconds: int
    """Seconds before the move clock runs out when the reminder sounds."""
    game_seconds: int
    move_timeout: str
    """``arbiter`` (the arbiter decides; the manual) or ``opponent-moves`` (online)."""
    touch_move: bool

    def with_settings(self, settings: dict[str, Any]) -> Profile:
        """A copy with some settings changed; unknown names and wrong kinds are refused clearly."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, raw in settings.items():
            if key not in known or key == "name":
                allowed = ", ".join(sorted(k for k in known if k != "name"))
                raise ProfileError(f"unknown profile setting {key!r}; settings are: {allowed}")
            current = getattr(self, key)
            changes[key] = _coerce(key, raw, current)
        return replace(self, **changes)


MAX_SECONDS = 24 * 3600


def _coerce(key: str, raw: Any, current: Any) -> Any:
    if isinstance(current, Priority | Trail):
        kind = type(current)
        try:
            return kind(raw)
        except ValueError:
            options = ", ".join(m.value for m in kind)
            raise ProfileError(f"profile setting {key}: {raw!r} is not one of {options}") from None
    if isinstance(current, bool):
        if isinstance(raw, bool):
            return raw
        raise ProfileError(f"profile setting {key}: expected true or false, got {raw!r}")
    if isinstance(current, int):  # seconds: a day at most, so no clock can overflow a float
        if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= MAX_SECONDS:
            return raw
        shown = repr(raw) if len(repr(raw)) <= 20 else repr(raw)[:20] + "…"
        raise ProfileError(
            f"profile setting {key}: expected a whole number from 0 to {MAX_SECONDS}, got {shown}"
        )
    if key == "repetition" and raw not in REPETITION_RULES:
        raise ProfileError(f"profile setting repetition: {raw!r} is not one of {REPETITION_RULES}")
    if key == "move_timeout" and raw not in TIMEOUT_RULES:
        raise ProfileError(f"profile setting move_timeout: {raw!r} is not one of {TIMEOUT_RULES}")
    return raw


REPETITION_RULES = ("threefold", "single-chip-five")
TIMEOUT_RULES = ("arbiter", "opponent-moves")

OFFICIAL = Profile(
    name="official",
    capture_priority=Priority.MOST_THEN_DAMA,
    dama_trail=Trail.STRICT,
    remaining_dama_double=True,
    repetition="threefold",
    move_seconds=60,
    warn_seconds=10,
    game_seconds=20 * 60,
    move_timeout="arbiter",
    touch_move=False,
)
ONLINE = Profile(
    name="online",
    capture_priority=Priority.DAMA_THEN_MOST,
    dama_trail=Trail.STRICT,
    remaining_dama_double=False,
    repetition="single-chip-five",
    move_seconds=20,
    warn_seconds=10,
    game_seconds=20 * 60,
    move_timeout="opponent-moves",
    touch_move=True,
)
PROFILES: dict[str, Profile] = {p.name: p for p in (OFFICIAL, ONLINE)}


def get_profile(name: str | Profile) -> Profile:
    if isinstance(name, Profile):
        return name
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        raise ProfileError(
            f"unknown profile {name!r}; profiles are: {', '.join(PROFILES)}"
        ) from None
