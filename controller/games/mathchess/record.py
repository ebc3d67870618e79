"""A Mathematical Chess game's record, without the board (docs/mathchess-board.md): the journal's
records (the start position, each placement with the piece named, each move, each removal, each
Done or pass, and a turn of several of them as one record) and the one reading of them that the
board's session, the board's link and the hub share. Every action goes through the rules engine,
so a removal is checked against its rule (R06–R10) wherever it is read.
"""

from __future__ import annotations

import json
from typing import Any

from controller.i18n import _
from controller.record.games import Record, Recorded, Refused, board_picture, upgraded
from controller.record.table import TableState
from controller.rules.mathchess import (
    SIDES,
    Done,
    MathChessGame,
    Move,
    NotationError,
    Pass,
    Place,
    Point,
    Remove,
    Stop,
    position_from_json,
    position_to_json,
)
from controller.rules.mathchess.position import Action

GAME = "mathchess"
START = "start"
"""The first record, as every game's: ``{"k": "start", "game": "mathchess", "position": …}``."""
ACTION = "mathchess-action"
TURN = "mathchess-turn"
"""A turn of several actions (a move and its removals), one record: journaled whole or not at
all, so a power cut never leaves half a turn in the journal."""


def start_record(position: dict[str, Any]) -> Record:
    """The journal's first record: the game and its start position (JSON position format)."""
    return {"k": START, "game": GAME, "position": position}


def action_record(action: Action) -> Record:
    """One rules action as a journal record."""
    if isinstance(action, Place):
        return {"k": ACTION, "place": action.symbol, "at": list(action.at)}
    if isinstance(action, Move):
        return {"k": ACTION, "move": [list(action.start), list(action.end)]}
    if isinstance(action, Remove):
        return {"k": ACTION, "remove": [list(p) for p in sorted(action.points)]}
    if isinstance(action, Pass):
        return {"k": ACTION, "pass": True}
    if isinstance(action, Stop):  # the arbiter's stop from the board's menu: the points decide
        return {"k": ACTION, "stop": action.reason}
    return {"k": ACTION, "done": True}


def _point(raw: Any) -> Point:
    if not (isinstance(raw, list) and len(raw) == 2 and all(type(v) is int for v in raw)):
        raise NotationError(f"expected a point [x, y], got {raw!r}")
    return (raw[0], raw[1])


def record_action(record: Record) -> Action:
    """The rules action of a journal record; ``NotationError`` for a record that names none."""
    if "place" in record:
        return Place(str(record["place"]), _point(record.get("at")))
    if "move" in record and isinstance(record["move"], list) and len(record["move"]) == 2:
        return Move(_point(record["move"][0]), _point(record["move"][1]))
    if "remove" in record and isinstance(record["remove"], list):
        return Remove(frozenset(_point(p) for p in record["remove"]))
    if record.get("pass") is True:
        return Pass()
    if record.get("done") is True:
        return Done()
    if isinstance(record.get("stop"), str):
        return Stop(record["stop"])
    raise NotationError(f"not an action of Mathematical Chess: {record!r}")


def apply_record(game: MathChessGame, record: Record) -> None:
    """The one reading of a journal record after the start, live and on a resume: one action,
    or a turn of several (checked whole first: applied whole or not at all). ``IllegalAction``
    names the rule an action breaks; ``NotationError`` a record that names no action."""
    record = upgraded(record)
    kind = record.get("k")
    if kind == ACTION:
        game.play(record_action(record))
    elif kind == TURN and isinstance(record.get("actions"), list):
        actions = [record_action(a) for a in record["actions"] if isinstance(a, dict)]
        if len(actions) != len(record["actions"]):
            raise NotationError("a turn whose actions cannot be read")
        here = game.position
        for action in actions:
            here = here.apply(action)
        for action in actions:
            game.play(action)
    else:
        raise NotationError(f"unknown record kind {kind!r}")


def record_text(game: MathChessGame, table: TableState) -> str:
    """The game's JSON record as the board exports it and the hub rebuilds it: the rules'
    record, with the tournament table's players (``players``) when it has them."""
    record = game.record_json()
    if table.info:
        record = {**record, "players": table.players()}
    if table.ending is not None:  # the arbiter's end from the board's menu (``record.table``)
        record = {**record, "result": table.ending.result, "termination": table.ending.reason}
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


class MathChessRecorded(Recorded):
    """Mathematical Chess: a start position, then placements, moves, removals, Done and passes,
    each through the rules engine (a removal must be one its rule allows)."""

    name = GAME
    export_as = "json"

    def __init__(self) -> None:
        super().__init__()
        self.game: MathChessGame | None = None

    def _apply(self, record: Record) -> dict[str, Any]:
        record = upgraded(record)
        if record.get("k") == START:
            raw = record.get("position")
            if not isinstance(raw, dict):
                raise Refused(_("the start record's position is not an object"))
            self.game = MathChessGame(position_from_json(raw))
            return {"game": self.name, "to_move": SIDES[self.game.position.to_move]}
        if self.game is None:
            raise Refused(_("the game has not started: its first record is not its start"))
        side = self.game.position.to_move
        before = len(self.game.actions)
        apply_record(self.game, record)
        white, black = self.game.position.score()
        return {
            "side": SIDES[side],
            "actions": len(self.game.actions) - before,
            "score": {"white": white, "black": black},
        }

    def _summary(self) -> dict[str, Any]:
        game = self.game
        if game is None:
            return {"phase": "setup", "ply": 0, "to_move": None, "position": None,
                    "result": None, "ending": None}  # fmt: skip
        position = game.position
        ending = position.ending()
        white, black = position.score()
        pieces = [
            {"at": list(point), "side": SIDES[piece.side], "label": piece.symbol, "king": False}
            for point, piece in sorted(position.board.pieces())
        ]
        return {
            "picture": board_picture(position.board.size, "points", SIDES, pieces),
            "phase": "over" if ending is not None else "play",
            "ply": len(game.actions),
            "to_move": SIDES[position.to_move],
            "position": position_to_json(position),
            "result": ending.result() if ending is not None else None,
            "ending": ending.reason if ending is not None else None,
            "ending_text": ending.describe() if ending is not None else None,
            "score": {"white": white, "black": black},
        }

    def export(self) -> str | None:
        if self.game is None:
            return None
        return record_text(self.game, self.table)
