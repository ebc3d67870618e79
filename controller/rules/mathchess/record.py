"""A game of Mathematical Chess as it was played, and its record: every turn with its move,
its removal steps and the rule of each, replayed exactly through the rules (a forged or
mistyped record is refused at the first turn the rules do not allow)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..settings import SettingsError
from .grid import Point, point_text
from .moves import Move
from .notation import (
    NotationError,
    conditions_from_json,
    load,
    position_from_json,
    position_to_json,
)
from .pieces import SIDES
from .position import Action, Done, IllegalAction, Pass, Phase, Place, Position, Remove, Stop
from .settings import DEFAULT

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclass
class TurnRecord:
    """One turn as played: who, and what they did, each removal step with its rule."""

    side: int
    place: Place | None = None
    move: Move | None = None
    steps: list[tuple[str, frozenset[Point], tuple[str, ...]]] = field(default_factory=list)
    """Each step: its rule, the points emptied and the pieces taken there (symbols)."""
    passes: bool = False
    done: bool = False

    def text(self) -> str:
        if self.place is not None:
            return self.place.text()
        if self.passes:
            return "pass"
        parts = (
            []
            if self.move is None
            else [f"{self.move.text()}" + (f" {self.move.rule}" if self.move.rule else "")]
        )
        for rule, points, _ in self.steps:
            parts.append(f"{rule}:" + ",".join(point_text(p) for p in sorted(points)))
        return " ".join(parts) + ("" if self.done else " ...")

    def as_json(self) -> dict[str, Any]:
        if self.place is not None:
            return {"place": self.place.symbol, "at": list(self.place.at)}
        if self.passes:
            return {"pass": True}
        out: dict[str, Any] = {}
        if self.move is not None:
            out["move"] = [list(self.move.start), list(self.move.end)]
            if self.move.rule:
                out["takes"] = self.move.rule
        out["removals"] = [
            {"rule": rule, "points": [list(p) for p in sorted(points)], "pieces": list(taken)}
            for rule, points, taken in self.steps
        ]
        if not self.done:
            out["done"] = False
        return out


class MathChessGame:
    """A game from its start position: ``play`` an action, ``undo`` the last one, and the
    turns so far for the scoresheet and the record."""

    def __init__(self, start: Position | None = None) -> None:
        self.start = start or Position.start()
        self.positions = [self.start]
        self.actions: list[Action] = []

    @property
    def position(self) -> Position:
        return self.positions[-1]

    def play(self, action: Action) -> Position:
        after = self.position.apply(action)
        self.positions.append(after)
        self.actions.append(action)
        return after

    def undo(self) -> Action:
        if not self.actions:
            raise IndexError("nothing to undo: the game is at its start")
        self.positions.pop()
        return self.actions.pop()

    def turns(self) -> list[TurnRecord]:
        out: list[TurnRecord] = []
        current: TurnRecord | None = None
        for before, action, after in zip(
            self.positions[:-1], self.actions, self.positions[1:], strict=True
        ):
            side = before.to_move
            if isinstance(action, Stop):
                continue
            if isinstance(action, Place):
                out.append(TurnRecord(side, place=action, done=True))
                continue
            if isinstance(action, Pass):
                out.append(TurnRecord(side, passes=True, done=True))
                continue
            if current is None:
                current = TurnRecord(side)
                out.append(current)
            if isinstance(action, Move):
                current.move = before.find_move(action)
            elif isinstance(action, Remove):
                taken = tuple(before.board.at(p).symbol for p in sorted(action.points))  # type: ignore[union-attr]
                current.steps.append((before.step_rule(action.points), action.points, taken))
            if isinstance(action, Done) or after.phase is Phase.OVER:
                current.done = True
                current = None
        return out

    def result(self) -> str:
        ending = self.position.ending()
        return "*" if ending is None else ending.result()

    def record_json(self) -> dict[str, Any]:
        start = self.start
        out: dict[str, Any] = {
            "game": "mathchess",
            "conditions": start.conditions.as_json(),
        }
        if start.settings.changed():
            out["settings"] = start.settings.changed()
        if start != Position.start(start.conditions, start.settings):
            out["start"] = position_to_json(start)
        out["turns"] = [t.as_json() for t in self.turns()]
        if self.position.stopped is not None:
            out["stopped"] = self.position.stopped
        out["result"] = self.result()
        ending = self.position.ending()
        if ending is not None:
            out["termination"] = ending.reason
        return out

    def record_text(self) -> str:
        lines = [f"{SIDES[t.side]}: {t.text()}" for t in self.turns()]
        return "\n".join([*lines, f"result {self.result()}"]) + "\n"


def game_from_record(data: str | bytes | dict[str, Any]) -> MathChessGame:
    """Replays a record turn by turn; the first turn the rules refuse is named with its rule."""
    obj = load(data)
    extra = set(obj) - {
        "game",
        "conditions",
        "settings",
        "start",
        "turns",
        "stopped",
        "result",
        "termination",
    }
    if extra:
        raise NotationError(f"record: unknown key {sorted(extra)[0]!r}")
    if obj.get("game", "mathchess") != "mathchess":
        raise NotationError(f"game: this reader is for 'mathchess', not {obj['game']!r}")
    if "start" in obj:
        start = position_from_json(obj["start"])
    else:
        conditions = conditions_from_json(obj.get("conditions"))
        try:
            settings = DEFAULT.with_settings(obj.get("settings", {}))
        except SettingsError as exc:
            raise NotationError(str(exc)) from None
        start = Position.start(conditions, settings)
    turns = obj.get("turns", [])
    if not isinstance(turns, list):
        raise NotationError("turns: expected a list of turns")
    game = MathChessGame(start)
    for n, raw in enumerate(turns):
        try:
            _replay_turn(game, raw, last=n == len(turns) - 1)
        except (IllegalAction, NotationError) as exc:
            raise NotationError(f"turns[{n}]: {exc}") from None
    if obj.get("stopped") is not None:
        try:
            game.play(Stop(str(obj["stopped"])))
        except IllegalAction as exc:
            raise NotationError(f"stopped: {exc}") from None
    result = obj.get("result", "*")
    if result not in RESULTS:
        raise NotationError(f"result: expected one of {', '.join(RESULTS)}, got {result!r}")
    if result != game.result():
        raise NotationError(
            f"result: the record says {result} but the game replays to {game.result()}"
        )
    return game


def _point(raw: Any, where: str) -> Point:
    if not (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise NotationError(f"{where}: expected [x, y], got {json.dumps(raw)}")
    return (raw[0], raw[1])


def _replay_turn(game: MathChessGame, raw: Any, last: bool) -> None:
    if not isinstance(raw, dict):
        raise NotationError("expected an object: place, move, removals or pass")
    if "place" in raw:
        if not isinstance(raw["place"], str):
            raise NotationError("place: expected a piece's sign")
        game.play(Place(raw["place"], _point(raw.get("at"), "at")))
        return
    if raw.get("pass") is True:
        game.play(Pass())
        return
    if "move" in raw:
        move = raw["move"]
        if not isinstance(move, list) or len(move) != 2:
            raise NotationError("move: expected [[x, y], [x, y]]")
        game.play(Move(_point(move[0], "move[0]"), _point(move[1], "move[1]")))
        played = game.turns()[-1].move
        if raw.get("takes") != (played.rule if played else None):
            said = f"takes by {played.rule}" if played and played.rule else "takes nothing itself"
            raise NotationError(f"takes: the move {said}")
    steps = raw.get("removals", [])
    if not isinstance(steps, list):
        raise NotationError("removals: expected a list of steps")
    if "move" not in raw and not steps:
        raise NotationError("a turn places, moves, removes or passes")
    for k, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("points"), list):
            raise NotationError(f"removals[{k}]: expected rule and points")
        points = frozenset(_point(p, f"removals[{k}].points") for p in step["points"])
        before = game.position
        expected = before.step_rule(points) if points else ""
        game.play(Remove(points))
        if step.get("rule") != expected:
            raise NotationError(
                f"removals[{k}].rule: this step is {expected}, not {step.get('rule')}"
            )
        if "pieces" in step:
            taken = [before.board.at(p).symbol for p in sorted(points)]  # type: ignore[union-attr]
            if step["pieces"] != taken:
                raise NotationError(f"removals[{k}].pieces: the points held {taken}")
    if game.position.phase is Phase.OVER:
        return
    if raw.get("done", True) is False:
        if not last:
            raise NotationError("only the last turn of a record may be unfinished")
        return
    game.play(Done())
