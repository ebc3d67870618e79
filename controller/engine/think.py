"""The engine's answer for a game: a move, its line and its value in Damath points.

``think(game, …)`` is what the board, the simulator, the coach and the ``engine`` command ask.
It searches with the search's integer keys and reports with the rules engine's exact numbers:
the move and every move of the line are the rules engine's own ``Move`` records (found by path,
so an illegal move cannot come out), and ``eval`` is the exact grand-total difference, for the
side to move, at the end of the line: the takings so far, every taking of the line and every
chip left on the board then (RULES.md §5), as the scoresheet would count it if the game
stopped there. The search's own value (which adds the heuristic terms) is reported beside it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.movegen import RawMove
from controller.rules.scoring import (
    Score,
    compare,
    format_score,
    kind_of,
    remaining_chips_score,
    score_move,
)

from .evaluation import DEFAULT_WEIGHTS, EvalWeights
from .levels import FULL_STRENGTH, Level, find_level
from .position import Position, game_totals
from .search import FULL, Limits, RootValue, Search, SearchConfig


class GameOver(ValueError):
    """The game has ended: there is no move to think about."""


@dataclass(frozen=True)
class Answer:
    move: Move
    pv: tuple[Move, ...]
    eval: Score
    """Exact grand-total difference at the end of ``pv``, for the side to move."""
    eval_text: str
    outcome: str | None
    """``win``, ``draw`` or ``loss`` for the side to move when ``pv`` reaches the end of the
    game (the result is then proven), else None."""
    search_value: float
    """The search's own value in points (exact part plus heuristic terms), for display."""
    depth: int
    nodes: int
    seconds: float
    level: int | None = None

    @property
    def eval_value(self) -> float:
        """``eval`` as the nearest double, for display only."""
        return float(self.eval)


def _never() -> float:
    return 0.0


def plan(depth: int | None, seconds: float | None, level: int | None) -> tuple[Level, Limits]:
    """What a request means: the level's way of playing, each explicit limit taking over the
    level's own (the other stays). No level and no limit is full strength; a limit without a
    level is full strength within that limit."""
    if level is not None:
        base = find_level(level)
    elif depth is not None or seconds is not None:
        base = replace(FULL_STRENGTH, number=0, name="custom", depth=64, seconds=None)
    else:
        base = FULL_STRENGTH
    if depth is not None and depth < 1:
        raise ValueError(f"depth {depth}: a search looks at least one move ahead")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"movetime {seconds} s: must be more than 0")
    limits = Limits(
        depth=depth if depth is not None else base.depth,
        seconds=seconds if seconds is not None else base.seconds,
    )
    return base, limits


def think(
    game: Game,
    *,
    depth: int | None = None,
    seconds: float | None = None,
    level: int | None = None,
    totals: tuple[Score, Score] | None = None,
    seed: int | None = None,
    clock: Callable[[], float] = _never,
    weights: EvalWeights = DEFAULT_WEIGHTS,
    config: SearchConfig = FULL,
) -> Answer:
    """The engine's move for the side to move of a Damath ``game``.

    ``totals``: the takings totals when ``game`` started (a game set up from a position);
    ``seed``: the choice among good moves at the lower levels (default: from the position,
    so the same position at the same level gets the same move); ``clock``: seconds from any
    origin, read only to stop at ``seconds``.
    """
    ending = game.ending()
    if ending is not None:
        raise GameOver(f"the game is over: {ending.describe()}")
    chosen_level, limits = plan(depth, seconds, level)
    if not chosen_level.quiescence:
        config = replace(config, quiescence=False)
    pos = Position.from_game(game, weights, totals)
    search = Search(pos, config, clock)
    start = clock()
    if chosen_level.temperature > 0:
        values, done = search.analyse(limits)
        temperature = chosen_level.temperature * pos.tables.typical
        pick = choose(values, temperature, pos.zob if seed is None else seed)
        value, line = pick.value, pick.pv
    else:
        result = search.run(limits)
        value, line, done = result.value, result.pv, result.depth
    elapsed = clock() - start
    moves, end = _replay(game, line)
    exact, text, outcome = _exact_eval(game, totals, moves, end, pos, line)
    return Answer(
        move=moves[0],
        pv=tuple(moves),
        eval=exact,
        eval_text=text,
        outcome=outcome,
        search_value=_points(pos, search, value),
        depth=done,
        nodes=search.nodes,
        seconds=elapsed,
        level=chosen_level.number or None,
    )


def choose(values: list[RootValue], temperature: float, seed: int) -> RootValue:
    """A move among the good ones: weight ``exp(-Δ/T)`` for a move ``Δ`` below the best,
    moves more than ``3T`` below never (no blunders). Deterministic for a seed."""
    best = values[0].value
    near = [rv for rv in values if best - rv.value <= 3 * temperature]
    weights = [math.exp(-(best - rv.value) / temperature) for rv in near]
    return random.Random(seed).choices(near, weights)[0]


def _points(pos: Position, search: Search, value: int) -> float:
    """The search's value in points, without the bonus that marks a proven result."""
    if value > search.win:
        value -= search.win
    elif value < -search.win:
        value += search.win
    return pos.tables.scale.points(value)


def _replay(game: Game, line: tuple[RawMove, ...]) -> tuple[list[Move], Game]:
    """The line as the rules engine's moves, played on a copy of the position (each found by
    its path among the legal moves: the engine cannot answer an illegal move)."""
    copy = game.copy()
    squares = copy.geo.squares
    moves = []
    for raw in line:
        moves.append(copy.push(copy.find_move([squares[i] for i in raw[0]])))
    return moves, copy


def _exact_eval(
    game: Game,
    totals: tuple[Score, Score] | None,
    line: list[Move],
    end: Game,
    pos: Position,
    raw_line: tuple[RawMove, ...],
) -> tuple[Score, str, str | None]:
    """The exact grand-total difference at the end of the line, for the side to move now, and
    the result when the line ends the game."""
    assert game.variant is not None and game.profile is not None
    variant = game.variant
    kind = kind_of(variant)
    side = game.side_to_move
    now = list(game_totals(game, totals))
    for i, move in enumerate(line):
        if move.takings:
            mover = side if i % 2 == 0 else 1 - side
            now[mover] = now[mover] + score_move(move, variant).score
    rc_profile = "official" if game.profile.remaining_dama_double else "online"
    chips = end.chips()
    grand = [now[s] + remaining_chips_score(chips, s, variant, rc_profile).score for s in (0, 1)]
    diff = grand[side] - grand[1 - side]
    outcome = None
    if _line_ends_game(pos, raw_line):
        c = compare(grand[side], grand[1 - side])
        outcome = "win" if c > 0 else "loss" if c < 0 else "draw"
    return diff, format_score(diff, kind), outcome


def _line_ends_game(pos: Position, line: tuple[RawMove, ...]) -> bool:
    """Whether the game is over at the end of the line, by the rules (not by the search's own
    assumption that a cycle ends it)."""
    undos = []
    for raw in line:
        undos.append((raw, pos.make(raw)))
    try:
        if not pos.count[pos.side] or not pos.moves():
            return True
        if pos.repetition_rule != "threefold":
            return pos.terminal() is not None
        rep, z = pos.rep, pos.rep[-1]
        return sum(1 for i in range(pos.rep_start, len(rep)) if rep[i] == z) >= 3
    finally:
        for raw, undo in reversed(undos):
            pos.unmake(raw, undo)
