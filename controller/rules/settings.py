"""Game settings given by name (from a JSON position, a record or later a board profile),
checked against the kind of each default so that a typo or a wrong value is refused with the
list of what exists, never half-applied."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any


class SettingsError(ValueError):
    """A setting that does not exist or a value of the wrong kind; the message lists the choices."""


def checked_settings(
    current: Any, settings: Mapping[str, Any], choices: Mapping[str, tuple[str, ...]]
) -> dict[str, Any]:
    """The changes ``settings`` asks of the dataclass ``current``, each one checked."""
    if not isinstance(settings, Mapping):
        raise SettingsError("settings: expected an object of settings by name")
    known = {f.name for f in fields(current)}
    out: dict[str, Any] = {}
    for key, raw in settings.items():
        if key not in known:
            listed = ", ".join(sorted(known))
            raise SettingsError(f"unknown setting {key!r}; settings are: {listed}")
        now = getattr(current, key)
        if isinstance(now, bool):
            if not isinstance(raw, bool):
                raise SettingsError(f"setting {key}: expected true or false, got {raw!r}")
        elif isinstance(now, int):
            if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
                raise SettingsError(f"setting {key}: expected a whole number >= 0, got {raw!r}")
        elif raw not in choices.get(key, ()):
            raise SettingsError(f"setting {key}: {raw!r} is not one of {', '.join(choices[key])}")
        out[key] = raw
    return out


def changed_settings(current: Any) -> dict[str, Any]:
    """The settings of ``current`` that differ from its class's defaults."""
    default = type(current)()
    return {
        f.name: getattr(current, f.name)
        for f in fields(current)
        if getattr(current, f.name) != getattr(default, f.name)
    }
