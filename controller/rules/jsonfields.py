"""Strict readers for the fields of the JSON positions of Dam and Dadama: every error names the
offending part (``pieces[3].square``) and says why, as the Damath format does (notation.py)."""

from __future__ import annotations

import json
from typing import Any

from .errors import NotationError
from .move import Square


def load_object(data: str | bytes | dict[str, Any], what: str) -> dict[str, Any]:
    if isinstance(data, dict):
        return data
    try:
        obj = json.loads(data)
    except json.JSONDecodeError as exc:
        raise NotationError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    if not isinstance(obj, dict):
        raise NotationError(f"a position must be a JSON object with {what}")
    return obj


def no_unknown_keys(obj: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = set(obj) - allowed
    if extra:
        place = f"{where}: " if where else ""
        raise NotationError(f"{place}unknown key {sorted(extra)[0]!r}")


def text(raw: object, where: str) -> str:
    if not isinstance(raw, str):
        raise NotationError(f"{where}: expected text, got {json.dumps(raw)}")
    return raw


def flag(raw: object, where: str) -> bool:
    if not isinstance(raw, bool):
        raise NotationError(f"{where}: expected true or false, got {json.dumps(raw)}")
    return raw


def side(raw: object, colours: tuple[str, str], where: str) -> int:
    """A side by its colour in this game, or ``first``/``second``."""
    name = text(raw, where).strip().lower()
    names = {colours[0]: 0, colours[1]: 1, "first": 0, "second": 1}
    if name not in names:
        raise NotationError(f"{where}: expected {colours[0]!r} or {colours[1]!r}, got {raw!r}")
    return names[name]


def whole_pair(raw: object) -> tuple[int, int] | None:
    """``[x, y]`` holding two whole numbers (a boolean is not one), or None."""
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        return None
    x, y = raw
    if (
        isinstance(x, bool)
        or isinstance(y, bool)
        or not isinstance(x, int)
        or not isinstance(y, int)
    ):
        return None
    return (x, y)


def square(raw: object, size: int, where: str) -> Square:
    """``[x, y]`` on an ``size``×``size`` board whose playable squares have ``x + y`` odd."""
    pair = whole_pair(raw)
    if pair is None:
        raise NotationError(f"{where}: expected [x, y] with whole numbers, got {json.dumps(raw)}")
    x, y = pair
    if not (0 <= x < size and 0 <= y < size):
        raise NotationError(
            f"{where}: ({x}, {y}) is off the board (x and y run from 0 to {size - 1})"
        )
    if (x + y) % 2 != 1:
        raise NotationError(f"{where}: ({x}, {y}) is not a playable square (x + y must be odd)")
    return (x, y)


def pieces_list(obj: dict[str, Any]) -> list[Any]:
    pieces = obj["pieces"]
    if not isinstance(pieces, list):
        raise NotationError("pieces: expected a list of pieces")
    return pieces
