"""The coach: a hint during the game, a review after it (pure; the board shows them later).

- ``hint(game)``: the engine's best move, the chip to lift as a first, smaller hint, and the
  move's arithmetic as the scoresheet would write it.
- ``review(start, paths)``: every move of a game searched again: the engine's best move there
  and how many points the move played lost against it (the engine's estimate, at a fixed depth
  so a review is reproducible), the three biggest mistakes with the better move, its line and
  the arithmetic of its takings, and per-operation accuracy: for each operator (+ − × ÷), how
  many of a player's takings were made in moves as good as the engine's best.

A loss is a difference of search values in points (exact part and heuristic terms), shown as a
float rounded to 2 decimal places, halves away from zero; it is an estimate and never enters
the game's arithmetic. "As good as the best" allows a tenth of an ordinary taking of the variant
(``ScoreTables.typical``), so two moves the engine can hardly tell apart both count as accurate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.rules.movegen import RawMove
from controller.rules.scoring import Score, round_2dp, score_move

from .evaluation import DEFAULT_WEIGHTS, EvalWeights
from .position import Position
from .search import Limits, RootValue, Search, SearchResult
from .think import Answer, think

OPERATORS = (damath_data.PLUS, damath_data.MINUS, damath_data.TIMES, damath_data.DIVIDE)
REVIEW_DEPTH = 6
ACCURATE_WITHIN = 0.1
"""A move within this many ordinary takings of the engine's best counts as accurate."""


def _never() -> float:
    return 0.0


# ---------------------------------------------------------------------------- hint


@dataclass(frozen=True)
class Hint:
    move: Move
    chip: Square
    """The square of the chip to move: the first, smaller hint."""
    score_text: str
    """The move's score as the sheet writes it (``0`` for a move without a taking)."""
    takings: tuple[str, ...]
    """Each taking's arithmetic: ``-9 + (-1) = -10``."""
    answer: Answer


def hint(
    game: Game,
    *,
    depth: int | None = None,
    seconds: float | None = None,
    totals: tuple[Score, Score] | None = None,
    clock: Callable[[], float] = _never,
) -> Hint:
    """The best move for the side to move (full strength within the limits given)."""
    assert game.variant is not None
    answer = think(game, depth=depth, seconds=seconds, totals=totals, clock=clock)
    return Hint(
        move=answer.move,
        chip=answer.move.start,
        score_text=score_move(answer.move, game.variant).text,
        takings=_arithmetic(answer.move, game.variant),
        answer=answer,
    )


# ---------------------------------------------------------------------------- review


@dataclass(frozen=True)
class LineMove:
    """One move of the engine's line, with the arithmetic of its takings."""

    side: int
    move: Move
    takings: tuple[str, ...]


@dataclass(frozen=True)
class MoveReview:
    index: int
    """0 for the game's first move."""
    side: int
    move: Move
    takings: tuple[str, ...]
    """The arithmetic of the move played."""
    best: Move
    best_takings: tuple[str, ...]
    best_line: tuple[LineMove, ...]
    """The engine's line from the better move (up to four moves), for the lesson."""
    loss_points: Fraction
    """Points lost against the engine's best (≥ 0): the engine's estimate."""
    accurate: bool
    forced: bool
    """The only legal move: nothing to choose, never a mistake."""
    missed_win: bool
    """The engine had proven a win here, and the move played gave it away."""

    @property
    def loss(self) -> float:
        """``loss_points`` for display: 2 decimals, halves away from zero."""
        return float(round_2dp(self.loss_points))

    @property
    def number(self) -> int:
        """The move number as on the sheet: each Blue–Red pair is one number."""
        return self.index // 2 + 1


@dataclass(frozen=True)
class Accuracy:
    operator: str
    takings: int
    accurate: int

    @property
    def percent(self) -> float | None:
        return None if not self.takings else round(100 * self.accurate / self.takings, 1)


@dataclass(frozen=True)
class SideSummary:
    side: int
    moves: int
    best_moves: int
    """Moves as good as the engine's best (accurate), forced ones not counted."""
    choices: int
    """Moves with more than one legal move."""
    total_loss: float
    accuracy: tuple[Accuracy, ...]


@dataclass(frozen=True)
class Review:
    variant: str
    profile: str
    depth: int
    moves: tuple[MoveReview, ...]
    sides: tuple[SideSummary, SideSummary]

    def mistakes(self, side: int | None = None, count: int = 3) -> tuple[MoveReview, ...]:
        """The biggest losses (of one side, or both), biggest first, ties by move order."""
        pool = [m for m in self.moves if not m.accurate and (side is None or m.side == side)]
        pool.sort(key=lambda m: (-m.loss_points, m.index))
        return tuple(pool[:count])


def review(
    start: Game,
    paths: Sequence[Sequence[Square]],
    *,
    totals: tuple[Score, Score] | None = None,
    depth: int = REVIEW_DEPTH,
    weights: EvalWeights = DEFAULT_WEIGHTS,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review the game that starts at ``start`` and plays ``paths`` (raises ValueError naming
    the first illegal move). Fixed depth: the same game gets the same review every time."""
    if start.variant is None or start.profile is None:
        raise ValueError("the coach reviews Damath games")
    variant = start.variant
    game = start.copy()
    reviewed: list[MoveReview] = []
    for index, path in enumerate(paths):
        if progress is not None:
            progress(index, len(paths))
        if game.ending() is not None:
            raise ValueError(f"move {index + 1}: the game was already over")
        played = game.find_move([tuple(sq) for sq in path])  # type: ignore[misc]
        reviewed.append(_review_move(game, played, index, totals, depth, weights, variant))
        game.push(played)
    sides = (_summary(reviewed, 0), _summary(reviewed, 1))
    return Review(variant, start.profile.name, depth, tuple(reviewed), sides)


def _review_move(
    game: Game,
    played: Move,
    index: int,
    totals: tuple[Score, Score] | None,
    depth: int,
    weights: EvalWeights,
    variant: str,
) -> MoveReview:
    side = game.side_to_move
    legal = game.legal_moves()
    played_takings = _arithmetic(played, variant)
    pos = Position.from_game(game, weights, totals)
    search = Search(pos)
    result = search.run(Limits(depth=depth))
    squares = game.geo.squares
    best_move = game.find_move([squares[i] for i in result.move[0]])
    if len(legal) == 1 or best_move == played:
        loss_key, missed = 0, False
    else:
        index_of = game.geo.index
        raw = tuple(index_of[sq] for sq in played.path)
        (played_raw,) = [m for m in pos.moves() if m[0] == raw]
        mine = search.value_of(played_raw, depth)
        loss_key = _points_key(result, search, mine)
        missed = result.value > result.win >= mine.value
    return MoveReview(
        index=index,
        side=side,
        move=played,
        takings=played_takings,
        best=best_move,
        best_takings=_arithmetic(best_move, variant),
        best_line=_line(game, result.pv[:4], variant),
        loss_points=Fraction(loss_key, pos.tables.scale.point),
        accurate=len(legal) == 1 or loss_key <= ACCURATE_WITHIN * pos.tables.typical,
        forced=len(legal) == 1,
        missed_win=missed,
    )


def _points_key(best: SearchResult, search: Search, mine: RootValue) -> int:
    """The loss in keys, without the bonus that marks proven results."""

    def plain(v: int) -> int:
        if v > search.win:
            return v - search.win
        if v < -search.win:
            return v + search.win
        return v

    return max(0, plain(best.value) - plain(mine.value))


def _arithmetic(move: Move, variant: str) -> tuple[str, ...]:
    """Each taking written out with its score: ``6 - 8 = -2``, ``-7 ÷ 2 = -3.5 ≈ -4``."""
    return tuple(
        t.expression if "=" in t.expression else f"{t.expression} = {t.text}"
        for t in score_move(move, variant).takings
    )


def _line(game: Game, raws: Sequence[RawMove], variant: str) -> tuple[LineMove, ...]:
    copy = game.copy()
    squares = copy.geo.squares
    out = []
    for raw in raws:
        side = copy.side_to_move
        move = copy.push(copy.find_move([squares[i] for i in raw[0]]))
        out.append(LineMove(side, move, _arithmetic(move, variant)))
    return tuple(out)


def _summary(moves: list[MoveReview], side: int) -> SideSummary:
    mine = [m for m in moves if m.side == side]
    counts = {op: [0, 0] for op in OPERATORS}
    for m in mine:
        for taking in m.move.takings:
            counts[taking.operator][0] += 1
            counts[taking.operator][1] += m.accurate
    choices = [m for m in mine if not m.forced]
    total = float(round_2dp(sum((m.loss_points for m in mine), Fraction(0))))
    return SideSummary(
        side=side,
        moves=len(mine),
        best_moves=sum(1 for m in choices if m.accurate),
        choices=len(choices),
        total_loss=total,
        accuracy=tuple(Accuracy(op, n, ok) for op, (n, ok) in counts.items()),
    )
