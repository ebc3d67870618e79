"""Finding puzzles: positions where one move is clearly the best, and checking them deeper.

The margin (docs/puzzles.md, "What makes a puzzle"): every move of the position is searched
with a full window at ``FIND_DEPTH`` (``Search.analyse``); the best must beat the second best
by at least ``MARGIN`` ordinary takings of the variant (the median score of one taking,
``ScoreTables.typical``: about 5 points in Integer Damath, a thousand in Polynomial), or be the
only move that keeps a proven win. The evaluation's heuristic terms are each a fraction of a
taking, so a gap of two is made mostly of the game's own points, not of the engine's taste;
and the best move must also give the child more points over
the next moves, counted as the sheet counts them (``gain`` > 0), so a wrong answer can be
explained in points a child can check. A puzzle is kept only when a search ``VERIFY_EXTRA``
plies deeper chooses the same move, still by at least one ordinary taking.

When the best move is followed on the engine's line by a forced reply (the opponent's only
legal move: taking is mandatory) and then by another clearly best move, the puzzle is those
three moves: "the forced reply".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from controller.engine.coach import HORIZON
from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position
from controller.engine.search import Limits, RootValue, Search
from controller.engine.think import think
from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.rules.movegen import RawMove
from controller.rules.notation import game_from_json, game_to_json
from controller.rules.scoring import (
    Score,
    compare,
    format_decimal,
    format_score,
    kind_of,
    round_2dp,
    score_move,
    sum_scores,
)

from .model import Path_, Puzzle, puzzle_id, refutation_key
from .themes import themes_of

FIND_DEPTH = 4
VERIFY_EXTRA = 2
MARGIN = Fraction(2)
"""Ordinary takings the best move must be ahead of the second best by, at ``FIND_DEPTH``."""
VERIFY_MARGIN = Fraction(1)
"""Ordinary takings the deeper search must still see between them."""


@dataclass(frozen=True)
class Analysis:
    """Every move of one position with its value, best first, and what the values mean."""

    game: Game
    values: list[RootValue]
    win: int
    typical: int
    point: int

    def plain(self, value: int) -> int:
        """A value without the bonus that marks a proven result."""
        if value > self.win:
            return value - self.win
        if value < -self.win:
            return value + self.win
        return value

    def move(self, raw: RawMove) -> Move:
        squares = self.game.geo.squares
        return self.game.find_move([squares[i] for i in raw[0]])

    def line(self, rv: RootValue) -> list[Move]:
        """The engine's line after a root move, as the rules engine's moves (the move first)."""
        copy = self.game.copy()
        squares = copy.geo.squares
        return [copy.push(copy.find_move([squares[i] for i in raw[0]])) for raw in rv.pv]

    def margin(self) -> int:
        """How far the best is ahead of the second best (keys; proven wins count whole)."""
        best, second = self.values[0].value, self.values[1].value
        if best > self.win >= second:
            return 1 << 62  # only one move keeps a proven win
        return self.plain(best) - self.plain(second)


def analyse(game: Game, depth: int) -> Analysis:
    """Every legal move of ``game`` searched with a full window to ``depth`` (no clock: the
    same position gives the same values every time)."""
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    search = Search(pos)
    values, _done = search.analyse(Limits(depth=depth))
    return Analysis(game, values, search.win, pos.tables.typical, pos.tables.scale.point)


def net_points(line: Sequence[Move], side: int, variant: str) -> Score:
    """What ``side`` scores less what the other side scores over the line's first moves."""
    kind = kind_of(variant)
    counted = line[:HORIZON]
    mine = sum_scores(
        (score_move(m, variant).score for m in counted if m.chip and m.chip.side == side), kind
    )
    theirs = sum_scores(
        (score_move(m, variant).score for m in counted if m.chip and m.chip.side != side), kind
    )
    return mine - theirs


def _clear(an: Analysis, margin: Fraction) -> bool:
    return len(an.values) > 1 and an.margin() >= margin * an.typical


def _gain(an: Analysis) -> Score:
    side = an.game.side_to_move
    variant = an.game.variant or ""
    best = net_points(an.line(an.values[0]), side, variant)
    second = net_points(an.line(an.values[1]), side, variant)
    return best - second


def _refutations(an: Analysis, step: int) -> dict[str, tuple[Path_, ...]]:
    """The engine's line after every move of the position, the best's included (a wrong try
    is explained against it)."""
    out = {}
    for rv in an.values:
        line = an.line(rv)[:HORIZON]
        out[refutation_key(step, line[0].path)] = tuple(m.path for m in line)
    return out


def puzzle_at(game: Game, source: dict[str, Any], depth: int = FIND_DEPTH) -> Puzzle | None:
    """The puzzle of this position (the side to move solves it), or None when no move is
    clearly best. The position is taken without its history (a puzzle starts from it)."""
    if game.variant is None or game.profile is None or game.ending() is not None:
        return None
    start = game_from_json(game_to_json(game))
    legal = start.legal_moves()
    if len(legal) < 2:
        return None  # a forced move is no question
    first = analyse(start, depth)
    if not _clear(first, MARGIN):
        return None
    gain = _gain(first)
    if compare(gain, Fraction(0)) <= 0:
        return None  # the reason lies beyond what a child can count: no puzzle
    variant = start.variant or ""
    best = first.move(first.values[0].move)
    solution: list[Move] = [best]
    refutations = _refutations(first, 0)
    line = first.line(first.values[0])
    after = start.copy()
    after.push(best)
    if len(line) >= 2 and after.ending() is None and len(after.legal_moves()) == 1:
        reply = after.legal_moves()[0]
        after.push(reply)
        if after.ending() is None and len(after.legal_moves()) > 1:
            second = analyse(after, depth)
            if _clear(second, MARGIN) and compare(_gain(second), Fraction(0)) > 0:
                solution += [reply, second.move(second.values[0].move)]
                refutations.update(_refutations(second, 1))
    kind = kind_of(variant)
    won = first.margin() >= 1 << 61
    puzzle = Puzzle(
        id=puzzle_id(game_to_json(start), tuple(m.path for m in solution)),
        variant=variant,
        profile=start.profile.name if start.profile else "official",
        position=game_to_json(start),
        solution=tuple(m.path for m in solution),
        themes=themes_of(legal, solution, variant),
        source=dict(source),
        margin="win" if won else _estimate(Fraction(first.margin(), first.point)),
        gain=format_score(gain, kind),
        depth=depth,
        verified=0,
        refutations=refutations,
    )
    return puzzle


def _estimate(points: Fraction) -> str:
    """The engine's estimate in points, to 2 decimals (the teacher's figure, never the game's
    arithmetic: it holds the evaluation's heuristic terms)."""
    return format_decimal(round_2dp(points), 2)


def verify(puzzle: Puzzle, depth: int) -> bool:
    """A deeper search agrees: at each of the solver's moves it chooses the solution's move,
    ahead of the second best by at least ``VERIFY_MARGIN`` ordinary takings."""
    game = puzzle.game()
    for i, path in enumerate(puzzle.solution):
        if i % 2 == 0:
            an = analyse(game, depth)
            if an.move(an.values[0].move).path != path or not _clear(an, VERIFY_MARGIN):
                return False
        game.push(game.find_move(list(path)))
    return True


def find_in_game(
    start: Game,
    paths: Iterable[Sequence[Square]],
    source: dict[str, Any],
    *,
    depth: int = FIND_DEPTH,
    verify_depth: int | None = None,
    plies: range | None = None,
) -> list[Puzzle]:
    """Every verified puzzle of a game (its positions before each move, ``plies`` of them)."""
    deeper = verify_depth if verify_depth is not None else depth + VERIFY_EXTRA
    found = []
    game = start.copy()
    moves: list[Sequence[Square] | None] = [*paths, None]
    for ply, path in enumerate(moves):
        if plies is None or ply in plies:
            puzzle = puzzle_at(game, {**source, "ply": ply}, depth)
            if puzzle is not None and verify(puzzle, deeper):
                found.append(_verified(puzzle, deeper))
        if path is None or game.ending() is not None:
            break
        game.push(game.find_move([(sq[0], sq[1]) for sq in path]))
    return found


def _verified(puzzle: Puzzle, depth: int) -> Puzzle:
    return replace(puzzle, verified=depth)


def engine_game(
    variant: str,
    levels: tuple[int, int],
    seed: int,
    *,
    profile: str = "official",
    max_plies: int = 80,
) -> tuple[Game, list[tuple[Square, ...]]]:
    """A game the engine plays against itself at two children's levels (seeded: the same seed
    plays the same game), for a starting set of puzzles."""
    start = Game.new(variant, profile)
    game = start.copy()
    paths: list[tuple[Square, ...]] = []
    while game.ending() is None and len(paths) < max_plies:
        level = levels[game.side_to_move]
        answer = think(game, level=level, seed=seed * 1000 + len(paths))
        paths.append(answer.move.path)
        game.push(answer.move)
    return start, paths
