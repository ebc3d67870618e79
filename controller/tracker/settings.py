"""Tracker settings: how long a board must hold still before it means something.

``settle`` protects against slides and switch bounce (a move commits only after the board has
matched it that long); ``error_delay`` keeps transients from flashing a mismatch on the LEDs.
``touch_move`` is None to follow the game's rule profile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from controller.i18n import _


class SettingsError(ValueError):
    """A tracker setting that does not exist or has a wrong value."""


@dataclass(frozen=True)
class Settings:
    settle: float = 0.25
    """Seconds the board must match a move's final occupancy before the move commits."""
    error_delay: float = 1.0
    """Seconds a board matching no legal state must stay unchanged before it is shown."""
    touch_move: bool | None = None
    """Override the profile's touch-move rule; None follows ``game.profile.touch_move``."""

    def with_overrides(self, overrides: dict[str, Any]) -> Settings:
        """A copy with some settings changed; unknown names and bad values are refused clearly."""
        changes: dict[str, Any] = {}
        for key, raw in overrides.items():
            if key in ("settle", "error_delay"):
                ok = isinstance(raw, int | float) and not isinstance(raw, bool) and 0 <= raw <= 60
                if not ok:
                    raise SettingsError(
                        _("setting {key}: expected seconds from 0 to 60, got {raw!r}").format(
                            key=key, raw=raw
                        )
                    )
                changes[key] = float(raw)
            elif key == "touch_move":
                if raw is not None and not isinstance(raw, bool):
                    raise SettingsError(
                        _("setting touch_move: expected true or false, got {raw!r}").format(raw=raw)
                    )
                changes[key] = raw
            else:
                raise SettingsError(
                    _(
                        "unknown setting {key!r}; settings are: error_delay, settle, touch_move"
                    ).format(key=key)
                )
        return replace(self, **changes)
