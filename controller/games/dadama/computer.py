"""Dadama's computer opponent: its levels and its tasks (``choose``, ``review``), run in the
coach's worker processes through ``controller.games.computer.run``.

A request's position is ``start`` (a JSON position, ``dadama_notation``; the opening when
absent) and the steps played since (``moves``, the record's JSON steps). It comes at one of two
points, and says which by ``thrown``:

- without ``thrown``, a **choice before the dice**: the answer's move is a quiet move
  (``{"move": …}``), a stop (``{"stop": …}``), or the die that is to throw (``{"roll": [x, y]}``);
  the throw itself is then made as the game makes every throw (the board's dice, or real dice
  entered), never by the computer;
- with ``thrown: {"square": [x, y], "dice": [..]}``, the dice have fallen for that die: the
  move is the throw step it plays (which taking, which value a dadama keeps).

Values are in pieces (a die 1, a dadama 5/2), exact, for the side that chooses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from controller.games.computer import HINT_SECONDS, Computer, Level, Request
from controller.games.search import _pick
from controller.i18n import N_
from controller.record.games import square_of
from controller.rules.dadama import COLOURS, DadamaGame, Quiet, Stop, Throw
from controller.rules.dadama_notation import dadama_from_json

from .evaluation import HIGH, LOW
from .expectimax import Choice, Expectimax, OutOfTime, Roll, choices
from .record import step_from_json, step_to_json

LEVELS: tuple[Level, ...] = (
    Level(1, N_("beginner"), 1, None, 0.5, quiescence=False),
    Level(2, N_("learner"), 1, None, 0.15, quiescence=False),
    Level(3, N_("player"), 2, 1.0, 0.1),
    Level(4, N_("club player"), 2, 1.5, 0.0),
    Level(5, N_("strong player"), 3, 2.0, 0.0),
    Level(6, N_("expert"), 4, 2.5, 0.0),
)
"""Level 1 looks at its own turn only and picks warmly; the top looks four turns ahead
within 2.5 s (the last depth it finishes decides)."""

COMPUTER = Computer(
    LEVELS,
    choose="controller.games.dadama.computer:choose",
    review="controller.games.dadama.computer:review",
)

UNIT = "pieces"
BLUNDER = Fraction(1, 2)
"""A choice that costs half a die or more, on average, is a blunder in a review."""
REVIEW_DEPTH = 2


@dataclass(frozen=True)
class Weighed:
    """A choice searched at the root: the one picked, its value for the chooser, every
    option's value (exact when near the best, or all with ``weigh_all``)."""

    choice: Choice
    value: Fraction
    depth: int
    nodes: int
    seconds: float
    values: tuple[tuple[Choice, Fraction], ...]


def weigh(
    game: DadamaGame,
    options: list[Choice],
    level: Level,
    seed: int | None = None,
    weigh_all: bool = False,
    seconds: float | None = None,
) -> Weighed:
    """Iterative deepening over ``options`` (the choices now), one whole turn deeper each time;
    the first depth always finishes, a later one may be cut by the time cap."""
    if not options:
        raise ValueError("the game is over: there is no move to choose")
    start = time.monotonic()
    cap = level.seconds if seconds is None else seconds
    sign = 1 if game.side_to_move == 0 else -1
    window = Fraction(level.temperature * 3) if level.temperature > 0 else Fraction(0)
    search = Expectimax(level.quiescence)
    done: list[tuple[Choice, Fraction]] = [(o, Fraction(0)) for o in options]
    reached = 0
    for depth in range(1, max(1, level.depth) + 1):
        if depth == 2 and cap is not None:
            search.deadline = start + cap
        try:
            done = _root(search, game, options, depth, sign, window, weigh_all)
        except OutOfTime:
            break
        reached = depth
        options = [o for o, _ in sorted(done, key=lambda ov: -ov[1])]
        if len(options) == 1:
            break
    choice, value = _pick(done, level.temperature, seed)
    return Weighed(choice, value, reached, search.nodes, time.monotonic() - start, tuple(done))


def _root(
    search: Expectimax,
    game: DadamaGame,
    options: list[Choice],
    depth: int,
    sign: int,
    window: Fraction,
    weigh_all: bool,
) -> list[tuple[Choice, Fraction]]:
    out: list[tuple[Choice, Fraction]] = []
    best = LOW - 1
    for option in options:
        floor = LOW - 1 if weigh_all else best - window  # the chooser's view
        alpha, beta = (floor, HIGH + 1) if sign > 0 else (LOW - 1, -floor)
        value = sign * search.value(game, option, depth, alpha, beta)
        out.append((option, value))
        best = max(best, value)
    return out


# ---------------------------------------------------------------------- requests


def _game(request: Request) -> DadamaGame:
    if not isinstance(request, dict):
        raise ValueError("a request is a JSON object with start and moves")
    start = request.get("start")
    game = DadamaGame.opening() if start is None else dadama_from_json(start)
    moves = request.get("moves", [])
    if not isinstance(moves, list):
        raise ValueError("moves: expected a list of steps")
    for n, raw in enumerate(moves):
        try:
            game.play(step_from_json(raw))
        except ValueError as exc:
            raise ValueError(f"moves[{n}]: {exc}") from None
    return game


def _thrown(game: DadamaGame, raw: object) -> tuple[tuple[int, int], tuple[int, ...]]:
    if not isinstance(raw, dict) or not isinstance(raw.get("dice"), list):
        raise ValueError("thrown: expected an object with square and dice")
    try:
        square = square_of(raw.get("square"))
        dice = tuple(raw["dice"])
        game.throw_options(square, dice)
    except ValueError as exc:
        raise ValueError(f"thrown: {exc}") from None
    return square, dice


def _options(
    game: DadamaGame, thrown: tuple[tuple[int, int], tuple[int, ...]] | None
) -> list[Choice]:
    if thrown is None:
        return choices(game)
    return list(game.throw_options(*thrown))


def choice_json(choice: Choice) -> dict[str, Any]:
    """A choice as the answer gives it: a record step, or ``{"roll": [x, y]}``."""
    if isinstance(choice, Roll):
        return {"roll": list(choice.square)}
    return step_to_json(choice)


def _number(request: Request, key: str, default: int | None) -> int | None:
    raw = request.get(key, default)
    if raw is not None and (not isinstance(raw, int) or isinstance(raw, bool)):
        raise ValueError(f"{key}: expected a whole number, got {raw!r}")
    return raw


def choose(request: Request) -> Request:
    """The computer's choice at ``level`` (a hint: the top level's, ``hint: true``)."""
    game = _game(request)
    thrown = None if request.get("thrown") is None else _thrown(game, request["thrown"])
    seconds = None
    if request.get("hint"):
        level = COMPUTER.top
        seconds = min(level.seconds or HINT_SECONDS, HINT_SECONDS)
    else:
        number = _number(request, "level", None)
        if number is None:
            raise ValueError(f"level: say which level, 1 to {len(LEVELS)}")
        level = COMPUTER.level(number)
    seed = _number(request, "seed", None)
    found = weigh(game, _options(game, thrown), level, seed, seconds=seconds)
    return {
        "move": choice_json(found.choice),
        "value": str(found.value),
        "depth": found.depth,
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
    }


def review(request: Request) -> Request:
    """Every choice of a game weighed against the best the search finds, full width: before
    each throw (which die throws, or stopping) and after it (which taking), and each quiet
    move; ``loss`` in pieces, on average over the dice."""
    game = _game({**request, "moves": []})
    moves = request.get("moves", [])
    if not isinstance(moves, list):
        raise ValueError("moves: expected a list of steps")
    depth = _number(request, "depth", REVIEW_DEPTH) or REVIEW_DEPTH
    level = Level(0, "review", depth, None, 0.0)
    out: list[dict[str, Any]] = []
    for n, raw in enumerate(moves):
        try:
            step = step_from_json(raw)
            if isinstance(step, Throw):
                out.append(_weigh_one(game, n, Roll(step.square), choices(game), level))
                options: list[Choice] = list(game.throw_options(step.square, step.dice))
                played = next((o for o in options if o == _kept(step)), step)
                out.append(_weigh_one(game, n, played, options, level))
            elif isinstance(step, Quiet | Stop):
                out.append(_weigh_one(game, n, step, choices(game), level))
            game.play(step)
        except ValueError as exc:
            raise ValueError(f"moves[{n}]: {exc}") from None
    return {"unit": UNIT, "moves": out}


def _kept(step: Throw) -> Throw:
    return Throw(step.square, tuple(step.dice), step.kept, step.to)


def _weigh_one(
    game: DadamaGame, index: int, played: Choice, options: list[Choice], level: Level
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "index": index,
        "side": COLOURS[game.side_to_move],
        "point": "after the throw" if isinstance(played, Throw) else "before the throw",
        "played": choice_json(played),
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
    found = weigh(game, options, level, weigh_all=True)
    values = dict(found.values)
    loss = found.value - values.get(played, found.value)
    return {
        **entry,
        "best": choice_json(found.choice),
        "loss": str(loss),
        "forced": False,
        "best_found": loss == 0,
        "blunder": loss >= BLUNDER,
    }
