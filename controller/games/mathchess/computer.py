"""Mathematical Chess's computer opponent: the rules as a ``Searchable`` over whole turns, its
levels, and its tasks (``choose``, ``review``), run in the coach's worker processes through
``controller.games.computer.run``.

A move of the search is a whole turn (``turns.Turn``): a placement during Prepare now!, a move
with the removal steps it then makes (declining some included), removals without moving, or a
pass. A request's position is ``start`` (a JSON position, docs/notation-mathchess.md; the empty
board of level 9 when absent) and the turns played since (``moves``, the record's JSON turns);
an answer's move is a record turn too. Values are in the game's points (C-11), exact, for the
side that chooses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from controller.games.computer import HINT_SECONDS, Computer, Level, Request
from controller.games.search import WIN, Search
from controller.i18n import N_
from controller.rules.mathchess import (
    SIDES,
    Move,
    Phase,
    Place,
    Position,
    Remove,
    Turn,
    play_turn,
    position_from_json,
    turns,
)

from .evaluation import end_value, evaluate

LEVELS: tuple[Level, ...] = (
    Level(1, N_("beginner"), 1, None, 2.0, quiescence=False),
    Level(2, N_("learner"), 1, None, 0.75, quiescence=False),
    Level(3, N_("player"), 1, 2.0, 0.25),
    Level(4, N_("club player"), 2, 3.0, 0.0),
    Level(5, N_("expert"), 3, 4.0, 0.0),
)
"""Level 1 looks at its own turn only, with no follow-up of takings, and picks warmly (a turn
two points worse still comes up often); the top looks three turns ahead within 4 s (on this
2-core machine it finishes two, with every exchange followed to its end)."""

COMPUTER = Computer(
    LEVELS,
    choose="controller.games.mathchess.computer:choose",
    review="controller.games.mathchess.computer:review",
)

UNIT = "points"
REVIEW_DEPTH = 2
REVIEW_SECONDS = 4.0
"""A review weighs every turn at depth 2, each within 4 s (the last depth finished decides)."""
BLUNDER = Fraction(2)
"""A turn that loses an operator's worth (2 points) or more is a blunder in a review."""
CACHE = 4096
"""Positions whose turns are kept during one search (iterative deepening meets them again)."""


class MathChessRules:
    """The rules as the search sees them: whole turns, the end (C-11), the evaluation."""

    def __init__(self) -> None:
        self._turns: dict[Position, list[Turn]] = {}

    def moves(self, state: Position) -> Sequence[Turn]:
        known = self._turns.get(state)
        if known is None:
            if len(self._turns) >= CACHE:
                self._turns.clear()
            known = turns(state) if state.phase is not Phase.OVER else []
            self._turns[state] = known
        return known

    def play(self, state: Position, move: Turn) -> Position:
        """The position after the turn, the other side to move even when the turn ended the
        game (the engine leaves the mover's turn open then; the search's values need the
        side that answers)."""
        after = play_turn(state, move)
        if after.to_move == state.to_move and after.phase is Phase.OVER:
            return replace(after, to_move=1 - state.to_move, turn=None)
        return after

    def end(self, state: Position) -> Fraction | None:
        return end_value(state)

    def evaluate(self, state: Position) -> Fraction:
        return evaluate(state)

    def noisy(self, state: Position, move: Turn) -> bool:
        """A turn that removes something: a taking by the move itself, or removal steps."""
        return bool(move.steps) or (move.move is not None and move.move.rule is not None)


# ---------------------------------------------------------------------- JSON turns


def _point(raw: object, where: str) -> tuple[int, int]:
    if not (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise ValueError(f"{where}: expected [x, y], got {raw!r}")
    return (raw[0], raw[1])


def turn_from_json(raw: object) -> Turn:
    """A record turn (docs/notation-mathchess.md, "The game record") as a whole turn."""
    if not isinstance(raw, dict):
        raise ValueError("expected a turn: place, move, removals or pass")
    if "place" in raw:
        if not isinstance(raw["place"], str):
            raise ValueError("place: expected a piece's sign")
        return Turn(place=Place(raw["place"], _point(raw.get("at"), "at")))
    if raw.get("pass") is True:
        return Turn(passes=True)
    move = None
    if "move" in raw:
        ends = raw["move"]
        if not isinstance(ends, list) or len(ends) != 2:
            raise ValueError("move: expected [[x, y], [x, y]]")
        move = Move(_point(ends[0], "move[0]"), _point(ends[1], "move[1]"))
    steps = raw.get("removals", [])
    if not isinstance(steps, list):
        raise ValueError("removals: expected a list of steps")
    out = []
    for k, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("points"), list):
            raise ValueError(f"removals[{k}]: expected rule and points")
        points = frozenset(_point(p, f"removals[{k}].points") for p in step["points"])
        out.append((str(step.get("rule", "")), points))
    if move is None and not out:
        raise ValueError("a turn places, moves, removes or passes")
    return Turn(move=move, steps=tuple(out))


def turn_to_json(position: Position, turn: Turn) -> dict[str, Any]:
    """A whole turn as the record writes it, the pieces each step takes named."""
    if turn.place is not None:
        return {"place": turn.place.symbol, "at": list(turn.place.at)}
    if turn.passes:
        return {"pass": True}
    out: dict[str, Any] = {}
    here = position
    if turn.move is not None:
        out["move"] = [list(turn.move.start), list(turn.move.end)]
        found = position.find_move(turn.move)
        if found.rule:
            out["takes"] = found.rule
        here = position.apply(found)
    removals = []
    for rule, points in turn.steps:
        taken = [here.board.at(p) for p in sorted(points)]
        removals.append(
            {
                "rule": rule,
                "points": [list(p) for p in sorted(points)],
                "pieces": [p.symbol for p in taken if p is not None],
            }
        )
        here = play_step(here, points)
    out["removals"] = removals
    return out


def play_step(position: Position, points: frozenset[tuple[int, int]]) -> Position:
    return position.apply(Remove(points))


def same(a: Turn, b: Turn) -> bool:
    """Two turns that do the same thing: the same placement, move and pieces removed (a
    record's move carries no rule of its own, and its steps may take them in another order)."""
    return (
        a.place == b.place
        and a.passes == b.passes
        and _ends(a) == _ends(b)
        and _removed(a) == _removed(b)
    )


def _removed(turn: Turn) -> frozenset[tuple[int, int]]:
    return frozenset(p for _, points in turn.steps for p in points)


def _ends(turn: Turn) -> tuple[tuple[int, int], tuple[int, int]] | None:
    return None if turn.move is None else (turn.move.start, turn.move.end)


# ---------------------------------------------------------------------- requests


def _position(request: Request) -> tuple[Position, list[Any]]:
    if not isinstance(request, dict):
        raise ValueError("a request is a JSON object with start and moves")
    start = request.get("start")
    position = Position.start() if start is None else position_from_json(start)
    moves = request.get("moves", [])
    if not isinstance(moves, list):
        raise ValueError("moves: expected a list of turns")
    return position, moves


def _replay(position: Position, raw: object, index: int) -> tuple[Turn, Position]:
    try:
        turn = turn_from_json(raw)
        return turn, play_turn(position, turn)
    except ValueError as exc:  # IllegalAction and NotationError are ValueErrors
        raise ValueError(f"moves[{index}]: {exc}") from None


def _number(request: Request, key: str, default: int | None) -> int | None:
    raw = request.get(key, default)
    if raw is not None and (not isinstance(raw, int) or isinstance(raw, bool)):
        raise ValueError(f"{key}: expected a whole number, got {raw!r}")
    return raw


def choose(request: Request) -> Request:
    """The computer's whole turn at ``level`` (a hint: the top level's, ``hint: true``)."""
    position, moves = _position(request)
    for n, raw in enumerate(moves):
        position = _replay(position, raw, n)[1]
    if request.get("hint"):
        top = COMPUTER.top
        level = Level(top.number, top.name, top.depth, HINT_SECONDS, 0.0, top.quiescence)
    else:
        number = _number(request, "level", None)
        if number is None:
            raise ValueError(f"level: say which level, 1 to {len(LEVELS)}")
        level = COMPUTER.level(number)
    seed = _number(request, "seed", None)
    found = Search(MathChessRules()).choose(position, level, seed)
    return {
        "move": turn_to_json(position, found.move),
        "value": str(found.value),
        "depth": found.depth,
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
    }


def decisive(position: Position) -> Fraction:
    """A won or lost game, in points for a review: more than any score difference can be (every
    piece of a box taken), so a turn that throws a win away shows as the biggest loss."""
    box = position.conditions.box()
    return Fraction(sum((1 if s.isdigit() else 2) * n for s, n in box.items()) + 1)


def in_points(value: Fraction, position: Position) -> Fraction:
    if value >= WIN - 1000:
        return decisive(position)
    if value <= -WIN + 1000:
        return -decisive(position)
    return value


def review(request: Request) -> Request:
    """Every turn of a game weighed against the best the search finds, full width, at
    ``depth``; ``loss`` in points (a won or lost game counts as every piece of a box and one)."""
    position, moves = _position(request)
    depth = _number(request, "depth", REVIEW_DEPTH) or REVIEW_DEPTH
    level = Level(0, "review", depth, REVIEW_SECONDS, 0.0)
    out: list[dict[str, Any]] = []
    for n, raw in enumerate(moves):
        turn, after = _replay(position, raw, n)
        out.append(_weigh_one(position, n, turn, level))
        position = after
    return {"unit": UNIT, "moves": out}


def _weigh_one(position: Position, index: int, played: Turn, level: Level) -> dict[str, Any]:
    rules = MathChessRules()
    options = list(rules.moves(position))
    mine = next((t for t in options if same(t, played)), played)
    entry: dict[str, Any] = {
        "index": index,
        "side": SIDES[position.to_move],
        "played": turn_to_json(position, mine),
    }
    if len(options) <= 1:
        return {
            **entry,
            "best": entry["played"],
            "loss": "0",
            "forced": True,
            "best_found": True,
            "blunder": False,
        }
    found = Search(rules).choose(position, level, weigh_all=True)
    values = dict(found.values)
    best = in_points(found.value, position)
    loss = best - in_points(values.get(mine, found.value), position)
    return {
        **entry,
        "best": turn_to_json(position, found.move),
        "loss": str(loss),
        "forced": False,
        "best_found": loss == 0,
        "blunder": loss >= BLUNDER,
    }
