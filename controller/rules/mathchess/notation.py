"""Mathematical Chess positions as JSON (docs/notation-mathchess.md), read strictly: every error
names the part (``pieces[3].piece``) and says why, and nothing half-read is ever used.

    {"game": "mathchess", "conditions": {"level": 9, "digits": 9, "zero": false},
     "phase": "play", "to_move": "white",
     "pieces": [{"at": [4, 0], "side": "white", "piece": "+"}, ...],
     "turn": {"moved": [4, 3]}}
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..settings import SettingsError
from .board import Board
from .conditions import Conditions, ConditionsError, from_level, own_level
from .grid import half_rows, on_grid, point_text
from .pieces import SIDES, Piece, PieceError, symbol
from .position import STOPS, Phase, Position, TurnState
from .settings import DEFAULT


class NotationError(ValueError):
    """A position or record that cannot be read; the message says where and why."""


KEYS = {"game", "conditions", "settings", "phase", "to_move", "pieces", "turn", "passes", "stopped"}


def load(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    if isinstance(data, dict):
        return data
    try:
        obj = json.loads(data)
    except json.JSONDecodeError as exc:
        raise NotationError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    if not isinstance(obj, dict):
        raise NotationError("a position must be a JSON object with conditions, phase and pieces")
    return obj


def _whole(raw: Any, where: str, low: int = 0) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < low:
        raise NotationError(f"{where}: expected a whole number >= {low}, got {json.dumps(raw)}")
    return raw


def _text(raw: Any, where: str) -> str:
    if not isinstance(raw, str):
        raise NotationError(f"{where}: expected text, got {json.dumps(raw)}")
    return raw.strip().lower()


def _flag(raw: Any, where: str) -> bool:
    if not isinstance(raw, bool):
        raise NotationError(f"{where}: expected true or false, got {json.dumps(raw)}")
    return raw


def _side(raw: Any, where: str) -> int:
    name = _text(raw, where)
    names = {"white": 0, "black": 1, "first": 0, "second": 1}
    if name not in names:
        raise NotationError(f"{where}: expected 'white' or 'black', got {raw!r}")
    return names[name]


def _point(raw: Any, size: int, where: str) -> tuple[int, int]:
    ok = (
        isinstance(raw, list | tuple)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    )
    if not ok:
        raise NotationError(f"{where}: expected [x, y] with whole numbers, got {json.dumps(raw)}")
    point = (raw[0], raw[1])
    if not on_grid(point, size):
        raise NotationError(
            f"{where}: {point_text(point)} is off the board (x and y run from 0 to {size - 1})"
        )
    return point


def conditions_from_json(raw: Any) -> Conditions:
    """Select now!'s four conditions: ``zero``, ``digits`` (a count or the values), ``level``
    1–10 or ``operators`` by sign, ``compare``."""
    if raw is None:
        return Conditions()
    if not isinstance(raw, dict):
        raise NotationError("conditions: expected an object (zero, digits, level or operators)")
    extra = set(raw) - {"zero", "digits", "level", "operators", "compare"}
    if extra:
        raise NotationError(f"conditions: unknown key {sorted(extra)[0]!r}")
    digits = raw.get("digits")
    if (digits is not None and not isinstance(digits, int | list)) or isinstance(digits, bool):
        raise NotationError("conditions.digits: expected a number of digits or a list of values")
    if isinstance(digits, list) and not all(
        isinstance(d, int) and not isinstance(d, bool) for d in digits
    ):
        raise NotationError("conditions.digits: expected whole numbers 0 to 9")
    zero = raw.get("zero")
    if zero is None:
        zero = isinstance(digits, list) and 0 in digits
    zero = _flag(zero, "conditions.zero")
    compare = _text(raw.get("compare", "last-digit"), "conditions.compare")
    if "level" in raw and "operators" in raw:
        raise NotationError("conditions: give a level or operators, not both")
    try:
        if "operators" in raw:
            ops = raw["operators"]
            if not isinstance(ops, dict):
                raise NotationError('conditions.operators: expected counts by sign, {"+": 2}')
            return own_level(ops, zero=zero, digits=digits, compare=compare)
        level = _whole(raw.get("level", 9), "conditions.level", 1)
        return from_level(level, zero=zero, digits=digits, compare=compare)
    except ConditionsError as exc:
        raise NotationError(f"conditions: {exc}") from None


def position_from_json(data: str | bytes | dict[str, Any]) -> Position:
    obj = load(data)
    extra = set(obj) - KEYS
    if extra:
        raise NotationError(f"unknown key {sorted(extra)[0]!r}")
    if "game" in obj and _text(obj["game"], "game") != "mathchess":
        raise NotationError(f"game: this reader is for 'mathchess', not {obj['game']!r}")
    conditions = conditions_from_json(obj.get("conditions"))
    try:
        settings = DEFAULT.with_settings(obj.get("settings", {}))
    except SettingsError as exc:
        raise NotationError(str(exc)) from None
    phase = _text(obj.get("phase", "play" if obj.get("pieces") else "prepare"), "phase")
    if phase not in ("prepare", "play", "over"):
        raise NotationError(f"phase: expected prepare, play or over, got {obj['phase']!r}")
    board = _pieces(obj.get("pieces", []), conditions, settings.size)
    preparing = phase == "prepare"
    to_move = _side(obj.get("to_move", "white"), "to_move")
    position = Position(conditions, settings, board, to_move, preparing)
    if preparing:
        position = _prepare(position, "to_move" in obj)
        preparing = position.preparing
    passes = _whole(obj.get("passes", 0), "passes")
    stopped = obj.get("stopped")
    if stopped is not None and _text(stopped, "stopped") not in STOPS:
        raise NotationError(f"stopped: expected one of {', '.join(STOPS)}, got {stopped!r}")
    turn = _turn(obj.get("turn"), board, position.to_move, preparing)
    position = Position(
        conditions,
        settings,
        board,
        position.to_move,
        preparing,
        turn,
        passes,
        None if stopped is None else _text(stopped, "stopped"),
    )
    over = position.ending() is not None
    if phase == "over" and not over:
        raise NotationError("phase: 'over', but no player has lost and the game was not stopped")
    return position


def _pieces(raw: Any, conditions: Conditions, size: int) -> Board:
    if not isinstance(raw, list):
        raise NotationError("pieces: expected a list of pieces")
    placed: dict[tuple[int, int], Piece] = {}
    counts = [Counter[str](), Counter[str]()]
    box = conditions.box()
    for n, piece in enumerate(raw):
        where = f"pieces[{n}]"
        if not isinstance(piece, dict):
            raise NotationError(f"{where}: expected an object with at, side and piece")
        extra = set(piece) - {"at", "side", "piece"}
        if extra:
            raise NotationError(f"{where}: unknown key {sorted(extra)[0]!r}")
        if not {"at", "side", "piece"} <= set(piece):
            raise NotationError(f"{where}: every piece needs at, side and piece")
        at = _point(piece["at"], size, f"{where}.at")
        if at in placed:
            raise NotationError(f"{where}.at: two pieces on {point_text(at)}")
        side = _side(piece["side"], f"{where}.side")
        raw_symbol = piece["piece"]
        if isinstance(raw_symbol, int) and not isinstance(raw_symbol, bool):
            raw_symbol = str(raw_symbol)
        if not isinstance(raw_symbol, str):
            raise NotationError(f"{where}.piece: expected a digit or an operator sign")
        try:
            name = symbol(raw_symbol)
        except PieceError as exc:
            raise NotationError(f"{where}.piece: {exc}") from None
        counts[side][name] += 1
        if counts[side][name] > box[name]:
            have = box[name]
            raise NotationError(
                f"{where}.piece: {SIDES[side]} has {have} {name} piece{'s' if have != 1 else ''} "
                f"under these conditions, and this is one more"
            )
        placed[at] = Piece(side, name)
    return Board.of(size, placed)


def _prepare(position: Position, to_move_given: bool) -> Position:
    """Prepare now!'s order (C-2): turns alternate from White, operators before digits."""
    board = position.board
    white, black = sum(board.count(0).values()), sum(board.count(1).values())
    if white not in (black, black + 1):
        raise NotationError(
            f"pieces: in Prepare now! the players place in turn from White: white has placed "
            f"{white} and black {black}"
        )
    to_move = 0 if white == black else 1
    if to_move_given and position.to_move != to_move:
        raise NotationError(f"to_move: it is {SIDES[to_move]}'s turn to place")
    ops = position.conditions.operator_count()
    placed_ops = [
        sum(n for s, n in board.count(side).items() if not s.isdigit()) for side in (0, 1)
    ]
    for side in (0, 1):
        if any(s.isdigit() for s in board.count(side)) and min(placed_ops) < ops:
            raise NotationError(
                f"pieces: {SIDES[side]} has placed a digit before every operator was placed (C-2)"
            )
    if position.settings.placement == "own-half":
        for at, piece in board.pieces():
            if at[1] not in half_rows(piece.side, board.size):
                raise NotationError(
                    f"pieces: the {piece.name()} on {point_text(at)} is not on its own half (C-2)"
                )
    if not position.box(0) and not position.box(1):
        return Position(position.conditions, position.settings, board, 0, False)
    return Position(position.conditions, position.settings, board, to_move, True)


def _turn(raw: Any, board: Board, to_move: int, preparing: bool) -> TurnState | None:
    if raw is None:
        return None
    if preparing:
        raise NotationError("turn: a turn of Play now! cannot be under way in Prepare now!")
    if not isinstance(raw, dict):
        raise NotationError("turn: expected an object with moved, direct and steps")
    extra = set(raw) - {"moved", "direct", "steps"}
    if extra:
        raise NotationError(f"turn: unknown key {sorted(extra)[0]!r}")
    moved = raw.get("moved")
    steps = _whole(raw.get("steps", 0), "turn.steps")
    direct = _flag(raw.get("direct", False), "turn.direct")
    if moved is None:
        if steps == 0:
            raise NotationError(
                "turn: removals without moving have begun only after a step (steps >= 1); "
                "leave 'turn' out for a turn not yet begun"
            )
        return TurnState(None, False, steps)
    point = _point(moved, board.size, "turn.moved")
    piece = board.at(point)
    if piece is None or piece.side != to_move:
        raise NotationError(
            f"turn.moved: {point_text(point)} must hold the piece {SIDES[to_move]} moved"
        )
    return TurnState(point, direct, steps)


def position_to_json(position: Position) -> dict[str, Any]:
    """The position; ``position_from_json`` reads it back equal."""
    out: dict[str, Any] = {"game": "mathchess", "conditions": position.conditions.as_json()}
    if position.settings.changed():
        out["settings"] = position.settings.changed()
    out["phase"] = position.phase.value if position.phase is not Phase.OVER else "over"
    if out["phase"] == "over" and position.preparing:
        out["phase"] = "prepare"
    out["to_move"] = SIDES[position.to_move]
    out["pieces"] = [
        {"at": list(at), "side": SIDES[piece.side], "piece": piece.symbol}
        for at, piece in sorted(position.board.pieces(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    turn = position.turn
    if turn is not None:
        out["turn"] = {
            "moved": None if turn.moved is None else list(turn.moved),
            "direct": turn.direct,
            "steps": turn.steps,
        }
    if position.passes:
        out["passes"] = position.passes
    if position.stopped is not None:
        out["stopped"] = position.stopped
    return out
