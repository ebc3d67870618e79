"""A finished (or running) game read back from a file: the board's PDN export, or JSON.

- PDN as ``record/pdn.py`` writes it: tags ``Variant``, ``Rules`` and ``Position`` (the
  start: ``B:1,2=-9;K3,0=8|R:…|to=blue``), moves as ``x,y-x,y`` or ``x,y x x,y x …`` with
  ``{…}`` comments, move numbers and a result;
- JSON: ``{"variant", "profile", "moves": [[[x, y], …], …]}`` (the bundled sample game, the
  engine's requests), optionally with a start position (``pieces``, ``to_move``, ``settings``)
  and ``totals``.

Every move is checked against the rules engine while reading; an error names the move.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from controller.rules import pdn_text
from controller.rules.game import Game, IllegalMove
from controller.rules.move import SIDE_NAMES, Square
from controller.rules.notation import NotationError, game_from_json
from controller.rules.scoring import Score

from .protocol import RequestError, parse_totals


@dataclass(frozen=True)
class GameRecord:
    start: Game
    """The position the game started from (no moves played)."""
    paths: tuple[tuple[Square, ...], ...]
    totals: tuple[Score, Score] | None = None
    names: tuple[str, str] = ("Blue", "Red")


def read_record(text: str, source: str = "game") -> GameRecord:
    """A game from the text of a PDN or JSON file; ValueError naming what is wrong."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise ValueError(f"{source}: the file is empty")
    if stripped.startswith("{"):
        record = _from_json(stripped, source)
    elif stripped.startswith("["):
        record = _from_pdn(stripped, source)
    else:
        raise ValueError(f"{source}: expected a PDN game (starting with [Event …]) or JSON")
    _check(record, source)
    return record


def _from_json(text: str, source: str) -> GameRecord:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("moves"), list):
        raise ValueError(f"{source}: expected an object with 'variant' and a list of 'moves'")
    position = {
        k: obj[k] for k in ("variant", "profile", "settings", "to_move", "pieces") if k in obj
    }
    try:
        start = game_from_json(position)
        totals = parse_totals(obj["totals"], start.variant or "") if "totals" in obj else None
    except (NotationError, RequestError) as exc:
        raise ValueError(f"{source}: {exc}") from None
    paths = []
    for n, raw in enumerate(obj["moves"], start=1):
        try:
            paths.append(tuple((int(x), int(y)) for x, y in raw))
        except (TypeError, ValueError):
            raise ValueError(f"{source}: move {n}: expected [[x, y], …], got {raw!r}") from None
    names = _names(obj.get("players"))
    return GameRecord(start, tuple(paths), totals, names)


def _names(players: object) -> tuple[str, str]:
    out = [side.capitalize() for side in SIDE_NAMES]
    if isinstance(players, dict):
        for i, side in enumerate(SIDE_NAMES):
            person = players.get(side)
            if isinstance(person, dict) and isinstance(person.get("name"), str):
                out[i] = person["name"]
    return out[0], out[1]


_MOVE = re.compile(r"^\d,\d(?:[-x]\d,\d)+$")
_RESULT = {"1-0", "0-1", "1/2-1/2", "*"}


def _from_pdn(text: str, source: str) -> GameRecord:
    pdn = pdn_text.read(text)
    tags = pdn.tags
    paths = []
    for token in pdn.words():
        if re.fullmatch(r"\d+\.+", token) or token in _RESULT:
            continue
        if not _MOVE.match(token):
            raise ValueError(f"{source}: cannot read {token!r} as a move (expected 1,2-0,3)")
        squares = re.split(r"[-x]", token)
        paths.append(tuple((int(s[0]), int(s[2])) for s in squares))
    variant = tags.get("Variant", "").strip()
    if not variant:
        raise ValueError(f"{source}: the PDN has no [Variant …] tag: which Damath is it?")
    position: dict[str, Any] = {"variant": variant, "profile": tags.get("Rules") or "official"}
    if "Position" in tags:
        position.update(_position_tag(tags["Position"], source))
    try:
        start = game_from_json(position)
    except NotationError as exc:
        raise ValueError(f"{source}: {exc}") from None
    names = (tags.get("Blue") or "Blue", tags.get("Red") or "Red")
    return GameRecord(start, tuple(paths), None, names)


def _position_tag(tag: str, source: str) -> dict[str, Any]:
    """``B:1,2=-9;K3,0=8|R:…|to=blue`` as the JSON position's ``pieces`` and ``to_move``."""
    pieces = []
    to_move = "blue"
    for part in tag.split("|"):
        part = part.strip()
        if part.startswith("to="):
            to_move = part[3:]
            continue
        side = {"B": "blue", "R": "red"}.get(part[:1])
        if side is None or part[1:2] != ":":
            raise ValueError(f"{source}: cannot read the Position tag near {part!r}")
        for item in filter(None, part[2:].split(";")):
            m = re.fullmatch(r"(K?)(\d),(\d)=(.+)", item.strip())
            if not m:
                raise ValueError(f"{source}: cannot read the chip {item!r} in the Position tag")
            pieces.append(
                {
                    "square": [int(m.group(2)), int(m.group(3))],
                    "side": side,
                    "value": m.group(4),
                    "dama": bool(m.group(1)),
                }
            )
    return {"pieces": pieces, "to_move": to_move}


def _check(record: GameRecord, source: str) -> None:
    game = record.start.copy()
    for n, path in enumerate(record.paths, start=1):
        ending = game.ending()
        if ending is not None:
            raise ValueError(f"{source}: move {n}: the game was already over ({ending.describe()})")
        try:
            game.push(game.find_move(list(path)))
        except IllegalMove as exc:
            raise ValueError(f"{source}: move {n}: {exc}") from None


def played(record: GameRecord) -> Game:
    """The game with every move played."""
    game = record.start.copy()
    for path in record.paths:
        game.push(game.find_move(list(path)))
    return game


__all__ = ["GameRecord", "played", "read_record"]
