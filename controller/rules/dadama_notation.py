"""Dadama on paper and in files (docs/notation.md, "Dadama"): the JSON position (dice values,
dadamas, a multiple taking under way), a turn written with its throws (G-9), and the game
record, as JSON and as PDN-like text, that replays exactly.

A turn: ``(2,1)-(3,2)`` a quiet move; ``(2,1)x(4,3) [5]`` a throw of 5 that takes by jumping to
(4,3); ``(2,1)x(4,3) [5] x(6,5) [6]`` a throw again that takes again; ``(2,1) [2]`` a throw too
low to take; ``(2,1)x(4,3) [5] [2]`` a second throw too low to go on; a dadama's throw
``[4,6→6]`` (the two dice as they fell, then the value it keeps; ``->`` is read too). A turn
that ends after a taking although the die could go on is a stop (G-3).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from . import jsonfields as jf
from . import pdn_text
from .dadama import (
    COLOURS,
    DEFAULT,
    FACES,
    SIZE,
    DadamaGame,
    Die,
    IllegalStep,
    Phase,
    Played,
    Quiet,
    Step,
    Stop,
    Throw,
    square_text,
)
from .game import RESULTS
from .move import Square
from .notation import NotationError
from .settings import SettingsError

DICE_A_SIDE = 12

# ---------------------------------------------------------------------- the JSON position


def dadama_from_json(data: str | bytes | dict[str, Any]) -> DadamaGame:
    """A game set up from a JSON position; every error names the part that is wrong."""
    obj = jf.load_object(data, "game, to_move and pieces")
    jf.no_unknown_keys(obj, {"game", "to_move", "settings", "pieces", "going_on"}, "")
    if "game" in obj and jf.text(obj["game"], "game").strip().lower() != "dadama":
        raise NotationError(f"game: this reader is for 'dadama', not {obj['game']!r}")
    try:
        settings = DEFAULT.with_settings(obj.get("settings", {}))
    except SettingsError as exc:
        raise NotationError(str(exc)) from None
    to_move = jf.side(obj.get("to_move", COLOURS[0]), COLOURS, "to_move")
    listed = obj.get("pieces")
    pieces = DadamaGame.opening().pieces() if listed is None else _pieces(jf.pieces_list(obj))
    going_on = None
    if "going_on" in obj:
        going_on = _going_on(obj["going_on"], pieces, to_move)
    game = DadamaGame(pieces, to_move, settings, going_on)
    if going_on is not None and not game.jumps(going_on[0]):
        sq = square_text(going_on[0])
        raise NotationError(
            f"going_on: the die on {sq} cannot take again, so its move has ended; "
            "give the position after it without going_on"
        )
    return game


def _pieces(listed: list[Any]) -> dict[Square, Die]:
    pieces: dict[Square, Die] = {}
    counts = [0, 0]
    for n, piece in enumerate(listed):
        where = f"pieces[{n}]"
        if not isinstance(piece, dict):
            raise NotationError(f"{where}: expected an object with square, side and value")
        jf.no_unknown_keys(piece, {"square", "side", "value", "dadama"}, where)
        if "square" not in piece or "side" not in piece:
            raise NotationError(f"{where}: every die needs a square and a side")
        sq = jf.square(piece["square"], SIZE, f"{where}.square")
        if sq in pieces:
            raise NotationError(f"{where}.square: two pieces on ({sq[0]}, {sq[1]})")
        side = jf.side(piece["side"], COLOURS, f"{where}.side")
        value = _face(piece.get("value", 3), f"{where}.value")
        dadama = jf.flag(piece.get("dadama", False), f"{where}.dadama")
        far = SIZE - 1 if side == 0 else 0
        if not dadama and sq[1] == far:
            raise NotationError(
                f"{where}: a {COLOURS[side]} die cannot stand on ({sq[0]}, {sq[1]}): "
                "a die that ends its move there becomes a dadama"
            )
        counts[side] += 1
        if counts[side] > DICE_A_SIDE:
            raise NotationError(f"{where}: {COLOURS[side]} has more than {DICE_A_SIDE} pieces")
        pieces[sq] = Die(side, value, dadama)
    return pieces


def _face(raw: object, where: str) -> int:
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if not isinstance(raw, int) or isinstance(raw, bool) or raw not in FACES:
        raise NotationError(f"{where}: a die shows 1 to 6, got {json.dumps(raw)}")
    return raw


def _going_on(
    raw: object, pieces: dict[Square, Die], to_move: int
) -> tuple[Square, tuple[Square, ...]]:
    if not isinstance(raw, dict):
        raise NotationError("going_on: expected an object with square and taken")
    jf.no_unknown_keys(raw, {"square", "taken"}, "going_on")
    sq = jf.square(raw.get("square"), SIZE, "going_on.square")
    die = pieces.get(sq)
    if die is None or die.side != to_move:
        raise NotationError(
            f"going_on.square: the taking die must be a {COLOURS[to_move]} piece on "
            f"({sq[0]}, {sq[1]})"
        )
    taken_raw = raw.get("taken")
    if not isinstance(taken_raw, list) or not taken_raw:
        raise NotationError("going_on.taken: expected the list of squares taken so far")
    taken: list[Square] = []
    for n, item in enumerate(taken_raw):
        where = f"going_on.taken[{n}]"
        t = jf.square(item, SIZE, where)
        victim = pieces.get(t)
        if victim is None or victim.side == to_move:
            raise NotationError(f"{where}: no {COLOURS[1 - to_move]} piece on ({t[0]}, {t[1]})")
        if victim.dadama and not die.dadama:
            raise NotationError(f"{where}: a die never takes a dadama")
        if t in taken:
            raise NotationError(f"{where}: ({t[0]}, {t[1]}) is listed twice")
        taken.append(t)
    return sq, tuple(taken)


def dadama_to_json(game: DadamaGame) -> dict[str, Any]:
    """The position of ``game``; ``dadama_from_json`` reads it back to the same position."""
    out: dict[str, Any] = {"game": "dadama", "to_move": COLOURS[game.side_to_move]}
    if game.settings.changed():
        out["settings"] = game.settings.changed()
    out["pieces"] = [
        {"square": [x, y], "side": COLOURS[die.side], "value": die.value, "dadama": die.dadama}
        for (x, y), die in sorted(game.pieces().items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    if game.going_on is not None:
        where, taken = game.going_on
        out["going_on"] = {"square": list(where), "taken": [list(t) for t in taken]}
    return out


# ---------------------------------------------------------------------- a turn as text


def throw_text(step: Throw, dadama: bool) -> str:
    if dadama:
        return f"[{step.dice[0]},{step.dice[1]}→{step.kept}]"
    return f"[{step.dice[0]}]"


def turn_text(turn: list[Played]) -> str:
    """One turn as written on a scoresheet (G-9)."""
    first = turn[0].step
    if isinstance(first, Quiet):
        return f"{square_text(first.start)}-{square_text(first.end)}"
    if not isinstance(first, Throw):
        raise NotationError("a turn starts with a move or a throw")
    text = square_text(first.square)
    took = False
    for played in turn:
        step = played.step
        if not isinstance(step, Throw):
            continue
        if step.to is not None:
            text += (" x" if took else "x") + square_text(step.to)
            took = True
        text += " " + throw_text(step, played.piece.dadama)
    if not turn[-1].turn_ends:
        text += " ..."  # the die is still taking: the turn goes on
    return text


_TOKEN = re.compile(r"\s*(?:\((\s*\d+\s*,\s*\d+\s*)\)|(x)|(-)|\[([^\]]*)\]|(\.\.\.|…))")
_THROW = re.compile(r"^\s*([1-6])\s*(?:,\s*([1-6])\s*(?:(?:→|->|>)\s*([1-6])\s*)?)?$")


def parse_turn(text: str) -> list[tuple[str, Any]]:
    """Tokens of one turn: ("sq", (x, y)), ("x", None), ("-", None), ("throw", (dice, keep)),
    and ("...", None) for a turn still going on."""
    tokens: list[tuple[str, Any]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            rest = text[pos:].strip()
            raise NotationError(f"{text!r}: cannot read {rest[:12]!r}")
        if m.group(1) is not None:
            x, y = (int(v) for v in m.group(1).split(","))
            tokens.append(("sq", (x, y)))
        elif m.group(2):
            tokens.append(("x", None))
        elif m.group(3):
            tokens.append(("-", None))
        elif m.group(5):
            tokens.append(("...", None))
        else:
            t = _THROW.match(m.group(4))
            if not t:
                raise NotationError(
                    f"{text!r}: a throw is written [5] for a die, [4,6→6] for a dadama"
                )
            dice = tuple(int(v) for v in t.groups()[:2] if v is not None)
            keep = int(t.group(3)) if t.group(3) else None
            tokens.append(("throw", (dice, keep)))
        pos = m.end()
    return tokens


def play_turn(game: DadamaGame, text: str) -> list[Played]:
    """Play one written turn on ``game``; the turn is checked step by step, and a turn that
    does not finish, or goes on after its end, is refused. Nothing is played on an error."""
    done: list[Played] = []
    try:
        for step in _turn_steps(game, text, done):
            done.append(game.play(step))
    except (IllegalStep, NotationError) as exc:
        for _ in done:
            game.undo()
        raise NotationError(f"{text!r}: {exc}") from None
    return done


def _turn_steps(game: DadamaGame, text: str, done: list[Played]) -> Iterator[Step]:
    tokens = parse_turn(text)
    if not tokens or tokens[0][0] != "sq":
        raise NotationError("a turn starts with a square, like (2,1)")
    here = tokens[0][1]
    rest = tokens[1:]
    if rest and rest[0][0] == "-":
        if len(rest) != 2 or rest[1][0] != "sq":
            raise NotationError("a move is written (2,1)-(3,2)")
        yield Quiet(here, rest[1][1])
        return
    if not rest:
        raise NotationError("a die that takes is written with its throw, like (2,1)x(4,3) [5]")
    still_going = rest[-1][0] == "..."
    if still_going:
        rest = rest[:-1]
    k = 0
    while k < len(rest):
        if done and done[-1].turn_ends:
            raise NotationError("the turn had already ended; a new turn starts on a new square")
        kind, value = rest[k]
        if kind == "x":
            if k + 2 >= len(rest) or rest[k + 1][0] != "sq" or rest[k + 2][0] != "throw":
                raise NotationError("a taking is written x(4,3) followed by its throw [5]")
            to = rest[k + 1][1]
            dice, keep = rest[k + 2][1]
            yield Throw(here, dice, keep, to)
            here = to
            k += 3
        elif kind == "throw":
            dice, keep = value
            yield Throw(here, dice, keep, None)
            k += 1
        else:
            raise NotationError("expected a taking x(4,3) [5] or a throw [2]")
    if still_going:
        if game.phase is not Phase.GO_ON:
            raise NotationError("'...' marks a taking still going on, but this one has ended")
        return
    if game.phase is Phase.GO_ON:
        if not game.can_stop:
            raise NotationError("the die must throw again (going on is compulsory)")
        yield Stop(here)


# ---------------------------------------------------------------------- game records


def result_of(game: DadamaGame, given: str | None = None) -> str:
    """``1-0`` White (the first mover) won, ``0-1`` Black, ``1/2-1/2`` a draw, ``*`` going on."""
    ending = game.ending() if game.phase is Phase.OVER else None
    if ending is None:
        return given or "*"
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[ending.winner]


def record_json(game: DadamaGame, start: DadamaGame, result: str | None = None) -> dict[str, Any]:
    """The game as a JSON record: settings, the start (when not the opening), every turn with
    its throws, the result. ``game_from_record`` replays it exactly."""
    out: dict[str, Any] = {"game": "dadama"}
    if game.settings.changed():
        out["settings"] = game.settings.changed()
    position = dadama_to_json(start)
    position.pop("settings", None)
    if position != _opening_json():
        out["start"] = position
    out["turns"] = [turn_text(t) for t in game.turns()]
    out["result"] = result_of(game, result)
    ending = game.ending()
    if ending is not None:
        out["termination"] = ending.reason
    return out


def _opening_json() -> dict[str, Any]:
    return dadama_to_json(DadamaGame.opening())


def game_from_record(data: str | bytes | dict[str, Any]) -> tuple[DadamaGame, DadamaGame, str]:
    """(the game after every turn, the start position, the result) from a JSON record."""
    obj = jf.load_object(data, "game, turns and result")
    jf.no_unknown_keys(obj, {"game", "settings", "start", "turns", "result", "termination"}, "")
    if not isinstance(obj.get("start", {}), dict):
        raise NotationError("start: expected a JSON position")
    start_obj = dict(obj.get("start") or {})
    if "going_on" in start_obj:
        raise NotationError("start: a record starts at the beginning of a turn (no going_on)")
    if "settings" in obj:
        start_obj["settings"] = obj["settings"]
    start = dadama_from_json(start_obj)
    turns = obj.get("turns", [])
    if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
        raise NotationError("turns: expected a list of turns written as text")
    game = _replay(start, turns)
    result = obj.get("result", "*")
    _check_result(game, result)
    return game, start, result


def _replay(start: DadamaGame, turns: list[str]) -> DadamaGame:
    game = start.copy()
    for n, text in enumerate(turns, start=1):
        if game.phase is Phase.OVER:
            raise NotationError(f"turn {n}: the game was already over ({game.ending().describe()})")  # type: ignore[union-attr]
        try:
            play_turn(game, text)
        except NotationError as exc:
            raise NotationError(f"turn {n} {exc}") from None
    return game


def _check_result(game: DadamaGame, result: object) -> None:
    if result not in RESULTS:
        raise NotationError(f"result {result!r}: expected one of {', '.join(RESULTS)}")
    if game.phase is Phase.OVER and result != result_of(game):
        ending = game.ending()
        raise NotationError(
            f"result {result}: the game ended {result_of(game)} ({ending.describe()})"  # type: ignore[union-attr]
        )


def position_tag(game: DadamaGame) -> str:
    """Pieces in one line: ``W:1,0=3;K3,6=5|B:...|to=white`` (K marks a dadama)."""
    parts: dict[int, list[str]] = {0: [], 1: []}
    for (x, y), die in sorted(game.pieces().items(), key=lambda kv: (kv[0][1], kv[0][0])):
        parts[die.side].append(f"{'K' if die.dadama else ''}{x},{y}={die.value}")
    return f"W:{';'.join(parts[0])}|B:{';'.join(parts[1])}|to={COLOURS[game.side_to_move]}"


def _tag_field(part: str) -> tuple[str, str]:
    """``W:1,0=3`` → (``W``, ``1,0=3``); a part without a colon has no name."""
    name, colon, value = part.partition(":")
    return (name, value) if colon else ("", part)


def _from_position_tag(text: str) -> dict[str, Any]:
    fields = dict(_tag_field(part) for part in text.split("|"))
    pieces = []
    sides = {"W": "white", "B": "black"}
    for letter, name in sides.items():
        for item in filter(None, fields.get(letter, "").split(";")):
            m = re.fullmatch(r"(K?)(\d+),(\d+)=(\d)", item.strip())
            if not m:
                raise NotationError(f"Position {item!r}: expected x,y=value or Kx,y=value")
            x, y, v = int(m.group(2)), int(m.group(3)), int(m.group(4))
            pieces.append({"square": [x, y], "side": name, "value": v, "dadama": bool(m.group(1))})
    to = text.split("to=")[-1].strip() if "to=" in text else "white"
    return {"to_move": to, "pieces": pieces}


def record_text(
    game: DadamaGame,
    start: DadamaGame,
    result: str | None = None,
    tags: dict[str, str] | None = None,
) -> str:
    """The record as PDN-like text: tags, then the turns numbered as in draughts."""
    record = record_json(game, start, result)
    head = {"GameType": "Dadama", "Notation": "dadama-xy"}
    head.update(tags or {})
    if "settings" in record:
        head["Settings"] = "; ".join(
            f"{k}={str(v).lower() if isinstance(v, bool) else v}"
            for k, v in record["settings"].items()
        )
    if "start" in record:
        head["Position"] = position_tag(start)
    head["Result"] = record["result"]
    if "termination" in record:
        head["Termination"] = record["termination"]
    lines = pdn_text.tag_lines(head)
    lines.append("")
    ply = 0 if start.side_to_move == 0 else 1
    row: list[str] = []
    for text in record["turns"]:
        if ply % 2 == 0:
            if row:
                lines.append(" ".join(row))
            row = [f"{ply // 2 + 1}."]
        elif not row:
            row = [f"{ply // 2 + 1}..."]
        row.append(text)
        ply += 1
    if row:
        lines.append(" ".join(row))
    lines.append(record["result"])
    return "\n".join(lines) + "\n"


def read_record_text(text: str) -> tuple[DadamaGame, DadamaGame, str]:
    """(game, start, result) from the PDN-like text ``record_text`` writes."""
    pdn = pdn_text.read(text)
    tags = pdn.tags
    if tags.get("GameType", "Dadama").lower() != "dadama":
        raise NotationError(f"GameType {tags['GameType']!r}: this reader is for Dadama")
    start_obj: dict[str, Any] = {}
    if "Position" in tags:
        start_obj = _from_position_tag(tags["Position"])
    if tags.get("Settings"):
        settings: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in tags["Settings"].split(";"))):
            key, _, raw = part.partition("=")
            value: Any = raw.strip()
            if value in ("true", "false"):
                value = value == "true"
            settings[key.strip()] = value
        start_obj["settings"] = settings
    moves = pdn_text.COMMENT.sub(" ", pdn.movetext)
    moves = re.sub(r"\[[^\]]*\]", lambda m: re.sub(r"\s+", "", m.group(0)), moves)
    turns: list[str] = []
    result = tags.get("Result", "*")
    for token in moves.split():
        if re.fullmatch(r"\d+\.(\.\.)?", token):
            continue
        if token in RESULTS:
            result = token
            break
        if token in ("...", "…") and turns:
            turns[-1] += " ..."
            continue
        glued = turns and (token[0] == "-" or turns[-1].endswith(("-", "x")))
        if glued:
            turns[-1] += token
        elif token.startswith("("):
            turns.append(token)
        elif turns and token[0] in "x[":
            turns[-1] += " " + token
        else:
            raise NotationError(f"{token!r}: expected a turn such as (2,1)-(3,2) or (2,1) [2]")
    return game_from_record({"start": start_obj, "turns": turns, "result": result})
