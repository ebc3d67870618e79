"""A whole draughts game in PDN (tags and move text), written and read back, for the draughts
rule sets of the core, Dam included (docs/notation.md).

Moves are written with each game's square numbers (``draughts.number_map``); a taking is written
with its full path (``31x42x53``), so a move is never ambiguous, and a reader accepts the short
form (start and end) where it names one legal move only. Results are given from the first
mover's side, as PDN 3.0 does: ``1-0`` the first mover won, ``0-1`` the second, ``1/2-1/2`` a
draw, ``*`` unfinished.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import pdn_text
from .dam import DEFAULT as DAM_DEFAULT
from .dam import DamGame
from .draughts import GAMES, number_map
from .game import RESULTS, Game, IllegalMove
from .geometry import geometry
from .move import Chip, Move, Square
from .movegen import KING
from .notation import NotationError
from .pdn import FenError, board_from_fen, fen_of
from .settings import SettingsError

GAME_TYPES = {"international": "20", "english": "21", "italian": "22", "brazilian": "26"}
GAME_TYPES["dam"] = "Dam"
"""PDN's GameType numbers; Dam has none, so its tag carries the name (docs/notation.md)."""


_MOVE = re.compile(r"^\d+(?:[-x]\d+)+$")
_NUMBER = re.compile(r"^\d+\.(?:\.\.)?")


@dataclass
class PdnGame:
    """A game read from PDN: its tags, the game after every move, the result as written."""

    name: str
    game: Game
    start_fen: str
    tags: dict[str, str] = field(default_factory=dict)
    result: str = "*"


def new_game(name: str, fen: str | None = None, settings: dict[str, Any] | None = None) -> Game:
    """The game ``name`` from a FEN (the opening when None); Dam takes its settings."""
    board = board_from_fen(name, fen)
    geo = geometry(board.rules.size, board.rules.parity)
    chips = {
        geo.squares[i]: Chip(0 if c > 0 else 1, None, abs(c) == KING)
        for i, c in enumerate(board.cells)
        if c
    }
    settled = SETTLED.get(name)
    if settled is not None:
        return settled(chips, board.side, settings or {})
    if settings:
        raise NotationError(f"{name} has no settings")
    return Game(board.rules, chips, board.side)


def _dam(chips: dict[Square, Chip], side: int, settings: dict[str, Any]) -> Game:
    return DamGame(chips, side, DAM_DEFAULT.with_settings(settings))


SETTLED: dict[str, Callable[[dict[Square, Chip], int, dict[str, Any]], Game]] = {"dam": _dam}
"""The rule sets with settings (``DamGame``'s, docs/rules-dam.md), each made by its own class;
the others are the core's ``Game``."""


def move_text(name: str, move: Move) -> str:
    _, by_square = number_map(name)
    sep = "x" if move.captures else "-"
    return sep.join(str(by_square[sq]) for sq in move.path)


def write_pdn(
    game: Game,
    start: Game,
    result: str = "*",
    tags: dict[str, str] | None = None,
) -> str:
    """``game`` (played from ``start``) as PDN; ``start`` gives the FEN tag when it is not the
    opening, and Dam's settings that differ from the defaults go in a ``Settings`` tag."""
    name = game.rules.name
    if name not in GAMES:
        raise NotationError(f"PDN is written for the draughts games, not {name!r}")
    if result not in RESULTS:
        raise NotationError(f"result {result!r}: expected one of {', '.join(RESULTS)}")
    out = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}
    out.update({"White": "?", "Black": "?"})
    out.update(tags or {})
    out["GameType"] = GAME_TYPES[name]
    fen = fen_of(start.generator_board())
    if fen != fen_of(board_from_fen(name)):
        out["FEN"] = fen
    if isinstance(game, DamGame) and game.settings.changed():
        out["Settings"] = "; ".join(f"{k}={_value(v)}" for k, v in game.settings.changed().items())
    out["Result"] = result
    words: list[str] = []
    for i, (_, move) in enumerate(game.played()):
        ply = i + (1 if start.side_to_move == 1 else 0)
        if i == 0 and ply == 1:
            words.append("1...")
        elif ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move_text(name, move))
    words.append(result)
    return pdn_text.write(out, words)


def read_pdn(text: str, name: str | None = None) -> PdnGame:
    """One game from PDN text; every move is checked against the rules as it is replayed, and
    an error names the move (``move 7 '31x42'``) and says why."""
    read = pdn_text.read(text, strict=True)
    tags = read.tags
    name = _game_name(tags, name)
    settings = _settings(tags.get("Settings", ""))
    try:
        game = new_game(name, tags.get("FEN"), settings)
    except (FenError, SettingsError) as exc:
        raise NotationError(str(exc)) from None
    start_fen = fen_of(game.generator_board())
    result = "*"
    count = 0
    for token in read.words():
        token = _NUMBER.sub("", token)
        if not token:
            continue
        if token in RESULTS:
            result = token
            break
        if not _MOVE.match(token):
            raise NotationError(f"{token!r} is not a move (numbers joined by '-' or 'x')")
        count += 1
        game.push(_find(game, name, token, count))
    return PdnGame(name, game, start_fen, tags, result)


def _find(game: Game, name: str, token: str, count: int) -> Move:
    by_number, _ = number_map(name)
    numbers = [int(n) for n in re.split(r"[-x]", token)]
    where = f"move {count} {token!r}"
    bad = [n for n in numbers if n not in by_number]
    if bad:
        raise NotationError(f"{where}: {name} squares run from 1 to {len(by_number)}")
    path = tuple(by_number[n] for n in numbers)
    legal = game.legal_moves()
    exact = [m for m in legal if m.path == path]
    if exact:
        return exact[0]
    if len(path) == 2:
        short = [m for m in legal if (m.start, m.end) == path]
        if len(short) == 1:
            return short[0]
        if short:
            options = ", ".join(move_text(name, m) for m in short)
            raise NotationError(f"{where}: several takings go so; write the path ({options})")
    try:
        game.find_move(path)
    except IllegalMove as exc:
        raise NotationError(f"{where}: {exc}") from None
    raise NotationError(f"{where}: not a legal move")  # pragma: no cover - find_move raised


def _game_name(tags: dict[str, str], name: str | None) -> str:
    given = tags.get("GameType", "").split(",")[0].strip()
    by_type = {v.lower(): k for k, v in GAME_TYPES.items()}
    if given and given.lower() not in by_type:
        raise NotationError(f"GameType {given!r}: this reader knows {', '.join(GAME_TYPES)}")
    found = by_type.get(given.lower()) if given else None
    if name is not None and found is not None and found != name:
        raise NotationError(f"GameType {given!r} is {found}, not {name}")
    chosen = found or name
    if chosen is None:
        raise NotationError("no GameType tag: say which game it is")
    return chosen


def _settings(text: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, eq, raw = part.partition("=")
        if not eq:
            raise NotationError(f"Settings {part!r}: expected name=value")
        value: object = raw.strip()
        if value in ("true", "false"):
            value = value == "true"
        elif isinstance(value, str) and value.isdigit():
            value = int(value)
        out[key.strip()] = value
    return out


def _value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
