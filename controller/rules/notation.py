"""The JSON position format (docs/notation.md), used by the command line, the simulator and,
later, the broadcast:

    {"variant": "integer", "profile": "official", "to_move": "blue",
     "pieces": [{"square": [1, 2], "side": "blue", "value": "-9", "dama": false}, ...]}

Reading is strict and every error names the offending part (``pieces[3].square``), because a
position typed by a teacher or an arbiter must never be half-understood.
"""

from __future__ import annotations

import json
from typing import Any

from . import damath_data, variants
from .errors import NotationError
from .game import Game, damath_rules
from .jsonfields import whole_pair
from .move import RED, Chip, Square, side_from_name, side_name
from .profiles import RulesProfileError, get_profile
from .values import parse_value


def game_from_json(data: str | bytes | dict[str, Any]) -> Game:
    """A Damath game set up from a JSON position (text or already-parsed object)."""
    obj = _load(data)
    unknown = set(obj) - {"variant", "profile", "to_move", "pieces", "settings"}
    if unknown:
        raise NotationError(f"unknown key {_shown(sorted(unknown)[0])} in the position")
    variant = _variant(obj.get("variant", "integer"), "variant")
    try:
        profile = get_profile(_text(obj.get("profile", "official"), "profile"))
        if "settings" in obj:
            if not isinstance(obj["settings"], dict):
                raise NotationError("settings: expected an object of profile settings")
            profile = profile.with_settings(obj["settings"])
    except RulesProfileError as exc:
        raise NotationError(str(exc)) from None
    to_move = _side(obj.get("to_move", "blue"), "to_move")
    if "pieces" not in obj:
        chips = variants.opening_chips(variant)
    else:
        pieces = obj["pieces"]
        if not isinstance(pieces, list):
            raise NotationError("pieces: expected a list of pieces")
        kind = variants.REGISTRY[variant].value_kind
        chips = {}
        counts = [0, 0]
        for n, piece in enumerate(pieces):
            where = f"pieces[{n}]"
            if not isinstance(piece, dict):
                raise NotationError(f"{where}: expected an object with square, side and value")
            extra = set(piece) - {"square", "side", "value", "dama"}
            if extra:
                raise NotationError(f"{where}: unknown key {_shown(sorted(extra)[0])}")
            square = _square(piece.get("square"), f"{where}.square")
            if square in chips:
                raise NotationError(f"{where}.square: two pieces on ({square[0]}, {square[1]})")
            side = _side(piece.get("side"), f"{where}.side")
            if "value" not in piece:
                raise NotationError(f"{where}.value: missing (every Damath chip has a value)")
            raw_value = piece["value"]
            if isinstance(raw_value, int | float) and not isinstance(raw_value, bool):
                raw_value = str(raw_value)
            try:
                value = parse_value(_text(raw_value, f"{where}.value"), kind)
            except ValueError as exc:
                raise NotationError(f"{where}.value: {exc}") from None
            dama = piece.get("dama", False)
            if not isinstance(dama, bool):
                raise NotationError(f"{where}.dama: expected true or false, got {_shown(dama)}")
            if not dama and square in damath_data.DAMA_SQUARES[side]:
                raise NotationError(
                    f"{where}: an ordinary {side_name(side)} chip cannot stand on "
                    f"({square[0]}, {square[1]}): a chip that ends there becomes a dama"
                )
            counts[side] += 1
            if counts[side] > 12:
                raise NotationError(f"{where}: {side_name(side)} has more than 12 chips")
            chips[square] = Chip(side, value, dama)
    return Game(damath_rules(profile), chips, to_move, variant=variant, profile=profile)


def game_to_json(game: Game) -> dict[str, Any]:
    """The JSON position of a Damath game; reading it back gives the same position."""
    if game.variant is None or game.profile is None:
        raise NotationError("the JSON position format is for Damath; use PDN FEN for draughts")
    pieces = [
        {
            "square": [x, y],
            "side": side_name(chip.side),
            "value": str(chip.value),
            "dama": chip.dama,
        }
        for (x, y), chip in sorted(game.chips().items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    return {
        "variant": game.variant,
        "profile": game.profile.name,
        "to_move": side_name(game.side_to_move),
        "pieces": pieces,
    }


MAX_DEPTH = 16
"""Deepest nesting of arrays and objects a position (or any JSON this project reads from
people) may have: a position needs 4 (object, pieces, piece, square)."""


def load_json(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text read safely: NotationError (a ValueError) with a plain sentence for anything
    that is not plain, finite, shallow JSON, instead of RecursionError, a message about
    ``sys.set_int_max_str_digits``, or ``Infinity``/``NaN`` read as numbers."""
    try:
        obj = json.loads(data, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise NotationError(f"not valid JSON: {exc.msg} at {where}") from None
    except RecursionError:
        raise NotationError(f"not valid here: nested more than {max_depth} levels deep") from None
    except UnicodeDecodeError:
        raise NotationError("not valid JSON: the text is not UTF-8") from None
    except ValueError as exc:  # a number with thousands of digits, or one we refused above
        raise NotationError(f"not valid JSON: {_number_problem(exc)}") from None
    if _depth(obj) > max_depth:
        raise NotationError(f"not valid here: nested more than {max_depth} levels deep")
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number this game uses")


def _finite_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large a number")
    return value


def _number_problem(exc: ValueError) -> str:
    text = str(exc)
    if "integer string conversion" in text:
        return "a number in it has thousands of digits"
    return text[:80]


def _depth(obj: object) -> int:
    """Nesting depth of parsed JSON, without recursion."""
    deepest = 0
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _load(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    if isinstance(data, dict):
        return data
    obj = load_json(data)
    if not isinstance(obj, dict):
        raise NotationError("a position must be a JSON object with variant, to_move and pieces")
    return obj


def _variant(raw: object, where: str) -> str:
    name = _text(raw, where).strip().lower()
    if name not in variants.REGISTRY:
        raise NotationError(
            f"{where}: unknown variant {_shown(raw)}; variants are: {', '.join(variants.NAMES)}"
        )
    return name


def _side(raw: object, where: str) -> int:
    try:
        return side_from_name(_text(raw, where))
    except ValueError:
        raise NotationError(f"{where}: expected 'blue' or 'red', got {_shown(raw)}") from None


def _text(raw: object, where: str) -> str:
    if not isinstance(raw, str):
        raise NotationError(f"{where}: expected text, got {_shown(raw)}")
    return raw


def _shown(raw: object) -> str:
    """A value as JSON for a message, cut short: a message never repeats a whole upload."""
    if isinstance(raw, str):
        return repr(raw) if len(raw) <= 40 else repr(raw[:40]) + "…"
    try:
        text = json.dumps(raw, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = repr(type(raw).__name__)
    return text if len(text) <= 40 else text[:40] + "…"


def _square(raw: object, where: str) -> Square:
    pair = whole_pair(raw)
    if pair is None:
        raise NotationError(f"{where}: expected [x, y] with whole numbers, got {_shown(raw)}")
    x, y = pair
    if not (0 <= x < 8 and 0 <= y < 8):
        raise NotationError(f"{where}: ({x}, {y}) is off the board (x and y run from 0 to 7)")
    if (x + y) % 2 != 1:
        raise NotationError(f"{where}: ({x}, {y}) is not a playable square (x + y must be odd)")
    return (x, y)


__all__ = [
    "MAX_DEPTH",
    "RED",
    "NotationError",
    "game_from_json",
    "game_to_json",
    "load_json",
]
