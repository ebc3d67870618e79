"""What the commands that run a board read the same way: ``--set NAME=VALUE``."""

from __future__ import annotations

from typing import Any


def parse_settings(items: list[str]) -> dict[str, Any]:
    """``touch_move=true`` -> {"touch_move": True}; numbers and booleans as such."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--set {item!r}: expected NAME=VALUE")
        low = raw.strip().lower()
        value: Any = raw
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif low.isdigit():
            value = int(low)
        out[name.strip()] = value
    return out
