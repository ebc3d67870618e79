"""The engine's JSON Lines protocol (docs/engine.md), as pure functions: a line in, an answer out.

A request is one JSON object: a game from the opening (``moves``), or a position in the JSON
position format (``pieces``, ``to_move``, ``settings``) with the takings totals so far
(``totals``) and optionally moves played after it; ``movetime_ms``, ``depth``, ``level`` and
``seed`` for this line only; ``id``, echoed back. The answer is
``{"bestmove", "eval", "eval_text", "depth", "nodes", "seconds", "pv", …}`` or
``{"line": N, "error": "…"}``: a bad line never stops the engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from controller.rules.game import Game, IllegalMove
from controller.rules.move import SIDE_NAMES, Move
from controller.rules.notation import NotationError, game_from_json
from controller.rules.scoring import Score, kind_of, score_move
from controller.rules.values import Radical, parse_value

from .levels import LEVELS
from .think import Answer, GameOver, think

POSITION_KEYS = ("variant", "profile", "settings", "to_move", "pieces")
OPTION_KEYS = ("movetime_ms", "depth", "level", "seed", "id")
REQUEST_KEYS = (*POSITION_KEYS, "totals", "moves", *OPTION_KEYS)
MAX_DEPTH = 64


class RequestError(ValueError):
    """A request that cannot be answered; the message says which part and why."""


@dataclass(frozen=True)
class Defaults:
    """The command line's choices, which a request line may override."""

    variant: str = "integer"
    profile: str = "official"
    movetime_ms: float | None = None
    depth: int | None = None
    level: int | None = None


@dataclass(frozen=True)
class Request:
    game: Game
    totals: tuple[Score, Score] | None
    movetime_ms: float | None
    depth: int | None
    level: int | None
    seed: int | None
    id: Any = None


def parse_request(text: str, defaults: Defaults) -> Request:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(obj, dict):
        raise RequestError('a request is a JSON object, e.g. {"moves": []}')
    unknown = sorted(set(obj) - set(REQUEST_KEYS))
    if unknown:
        raise RequestError(f"unknown key {unknown[0]!r}; keys are: {', '.join(REQUEST_KEYS)}")
    position = {k: obj[k] for k in POSITION_KEYS if k in obj}
    position.setdefault("variant", defaults.variant)
    position.setdefault("profile", defaults.profile)
    try:
        game = game_from_json(position)
    except NotationError as exc:
        raise RequestError(str(exc)) from None
    assert game.variant is not None
    totals = parse_totals(obj["totals"], game.variant) if "totals" in obj else None
    if "moves" in obj:
        _play(game, obj["moves"])
    movetime = _number(obj, "movetime_ms", defaults.movetime_ms, 1, 24 * 3600 * 1000)
    depth = _whole(obj, "depth", defaults.depth, 1, MAX_DEPTH)
    level = _whole(obj, "level", defaults.level, 1, len(LEVELS))
    seed = _whole(obj, "seed", None, -(2**63), 2**63)
    return Request(game, totals, movetime, depth, level, seed, obj.get("id"))


def answer(request: Request, clock: Callable[[], float]) -> dict[str, Any]:
    seconds = request.movetime_ms / 1000 if request.movetime_ms is not None else None
    found = think(
        request.game,
        depth=request.depth,
        seconds=seconds,
        level=request.level,
        totals=request.totals,
        seed=request.seed,
        clock=clock,
    )
    return answer_json(found, request)


def answer_json(found: Answer, request: Request) -> dict[str, Any]:
    variant = request.game.variant
    assert variant is not None
    out: dict[str, Any] = {}
    if request.id is not None:
        out["id"] = request.id
    out["bestmove"] = _path(found.move)
    out["score_text"] = score_move(found.move, variant).text
    out["eval"] = found.eval_value
    out["eval_text"] = found.eval_text
    if found.outcome is not None:
        out["outcome"] = found.outcome
    out["search"] = round(found.search_value, 6)
    out["depth"] = found.depth
    out["nodes"] = found.nodes
    out["seconds"] = round(found.seconds, 3)
    out["pv"] = [_path(m) for m in found.pv]
    if found.level is not None:
        out["level"] = found.level
    return out


def answer_line(
    text: str, number: int, defaults: Defaults, clock: Callable[[], float]
) -> dict[str, Any]:
    """One line's answer, or ``{"line": N, "error": …}``: never an exception for bad input."""
    try:
        return answer(parse_request(text, defaults), clock)
    except (RequestError, GameOver, NotationError) as exc:
        return {"line": number, "error": str(exc)}
    except RecursionError:
        return {"line": number, "error": "the request is nested too deeply"}


# ---------------------------------------------------------------------- parts of a request


def _path(move: Move) -> list[list[int]]:
    return [[x, y] for x, y in move.path]


def _play(game: Game, moves: object) -> None:
    if not isinstance(moves, list):
        raise RequestError("moves: expected a list of moves, each a list of [x, y] squares")
    for n, raw in enumerate(moves):
        where = f"moves[{n}]"
        ok = isinstance(raw, list) and len(raw) >= 2
        ok = ok and all(
            isinstance(sq, list)
            and len(sq) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in sq)
            for sq in raw
        )
        if not ok:
            raise RequestError(f"{where}: expected a path [[x, y], [x, y], …], got {raw!r}")
        ending = game.ending()
        if ending is not None:
            raise RequestError(f"{where}: the game was already over ({ending.describe()})")
        try:
            game.push(game.find_move([(x, y) for x, y in raw]))
        except IllegalMove as exc:
            raise RequestError(f"{where}: {exc}") from None


def parse_totals(raw: object, variant: str) -> tuple[Score, Score]:
    """``{"blue": …, "red": …}``: each side's takings total so far, exact (text or number)."""
    if not isinstance(raw, dict) or set(raw) - set(SIDE_NAMES):
        raise RequestError('totals: expected {"blue": …, "red": …} (the takings totals so far)')
    kind = kind_of(variant)
    out = []
    for side in SIDE_NAMES:
        value = raw.get(side, 0)
        try:
            out.append(_score(value, kind))
        except (ValueError, ZeroDivisionError):
            examples = {"radical": "24 + 12√2", "polynomial": "-22.69", "integer": "-10"}
            example = examples.get(kind, "-7/10")
            article = "an" if kind == "integer" else "a"
            raise RequestError(
                f"totals.{side}: {value!r} is not {article} {kind} score (e.g. {example!r})"
            ) from None
    return out[0], out[1]


def _score(value: object, kind: str) -> Score:
    """A total as text or a JSON number; exact (a JSON number is read as the decimal it shows)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(value)
    text = str(value).strip()
    if kind == "radical":
        parsed = parse_value(text, "radical")
        if not isinstance(parsed, Radical):
            raise ValueError(text)
        return parsed.number
    q = Fraction(text.replace("−", "-").replace("–", "-"))
    if kind == "polynomial" and (q * 100).denominator != 1:
        raise ValueError(text)  # polynomial scores are written to 2 decimal places (D-7)
    if kind == "integer" and q.denominator != 1:
        raise ValueError(text)  # whole-number variants score whole numbers (D-6)
    return q


def _whole(obj: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    if key not in obj:
        return default
    v = obj[key]
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RequestError(f"{key}: expected a whole number from {lo} to {hi}, got {v!r}")
    return v


def _number(
    obj: dict[str, Any], key: str, default: float | None, lo: float, hi: float
) -> float | None:
    if key not in obj:
        return default
    v = obj[key]
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
        raise RequestError(f"{key}: expected a number from {lo} to {hi}, got {v!r}")
    return float(v)
