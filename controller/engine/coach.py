"""The coach: a hint during the game, a review after it (pure; the board shows them later).

- ``hint(game)``: the engine's best move, the chip to lift as a first, smaller hint, and the
  move's arithmetic as the scoresheet would write it.
- ``review(start, paths)``: every move of a game searched again: the engine's best move there
  and how many points the move played lost against it (the engine's estimate, at a fixed depth
  so a review is reproducible), the three biggest mistakes with the better move, its line and
  the arithmetic of its takings, and per-operation accuracy: for each operator (+ − × ÷), how
  many of a player's takings were made in moves as good as the engine's best. One definition of
  a **best move** for the review and the progress pages: a move with a choice (not the only
  legal one) as good as the engine's best; a forced move, and its takings, count in neither.

A loss is a difference of search values in points (exact part and heuristic terms), shown as a
float rounded to 2 decimal places, halves away from zero; it is an estimate and never enters
the game's arithmetic: it is the teacher's figure. "As good as the best" allows a tenth of an
ordinary taking of the variant (``ScoreTables.typical``), so two moves the engine can hardly
tell apart both count as accurate.

A child compares something else (``MoveReview.better_by``): the points each side scores on the
engine's line over the move and the three after it (two moves a side, ``HORIZON``), once after
the move played and once after the better move, exact and added as the sheet adds them. "The
better move gives you 12 points more" is then a sum of takings a child can check on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key

from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.rules.movegen import RawMove
from controller.rules.scoring import (
    Score,
    compare,
    kind_of,
    round_2dp,
    score_move,
    sum_scores,
)

from .evaluation import DEFAULT_WEIGHTS, EvalWeights
from .position import Position
from .search import Limits, RootValue, Search, SearchResult
from .think import Answer, think

OPERATORS = (damath_data.PLUS, damath_data.MINUS, damath_data.TIMES, damath_data.DIVIDE)
REVIEW_DEPTH = 6
ACCURATE_WITHIN = 0.1
"""A move within this many ordinary takings of the engine's best counts as accurate."""
HORIZON = 4
"""A child's comparison of two moves: the move and the three after it on the engine's line
(two moves a side), as far as the line goes."""


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
    """One move of the engine's line, with the arithmetic of its takings and its exact score."""

    side: int
    move: Move
    takings: tuple[str, ...]
    score: Score


@dataclass(frozen=True)
class Exchange:
    """What a line scores for each side over its first moves, exact (the sheet's sums)."""

    mine: Score
    """The takings of the side that made the line's first move."""
    theirs: Score
    """The other side's takings."""
    plies: int
    """How many moves of the line were counted (``HORIZON``, fewer when the game ends)."""

    @property
    def net(self) -> Score:
        return self.mine - self.theirs


def exchange(line: Sequence[LineMove], side: int, kind: str, plies: int = HORIZON) -> Exchange:
    """The points each side scores over the first ``plies`` moves of ``line``."""
    counted = line[:plies]
    mine = sum_scores((m.score for m in counted if m.side == side), kind)
    theirs = sum_scores((m.score for m in counted if m.side != side), kind)
    return Exchange(mine, theirs, len(counted))


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
    """The engine's line from the better move (up to ``HORIZON`` moves), for the lesson."""
    played_line: tuple[LineMove, ...]
    """The engine's line from the move played (the same as ``best_line`` when it was the
    best): what the opponent answers and what follows."""
    loss_points: Fraction
    """Points lost against the engine's best (≥ 0): the engine's estimate (the teacher's)."""
    accurate: bool
    forced: bool
    """The only legal move: nothing to choose, never a mistake."""
    missed_win: bool
    """The engine had proven a win here, and the move played gave it away."""
    kind: str
    """The variant's kind of number (``scoring.kind_of``): how its scores add and print."""

    @property
    def played_exchange(self) -> Exchange:
        return exchange(self.played_line, self.side, self.kind)

    @property
    def best_exchange(self) -> Exchange:
        return exchange(self.best_line, self.side, self.kind)

    @property
    def better_by(self) -> Score:
        """The child's measure: how many more points (takings, yours less the opponent's) the
        better move gives over the next ``HORIZON`` moves than the move played. Exact; 0 or
        less when the engine's reason lies further ahead than that."""
        return self.best_exchange.net - self.played_exchange.net

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
        """The biggest mistakes (of one side, or both), biggest first: by the points a child
        sees the better move give (``better_by``), then by the engine's estimate, then by move
        order. Ranked so, the list reads right to a child ("18 points more" before "5")."""
        pool = [m for m in self.moves if not m.accurate and (side is None or m.side == side)]
        pool.sort(key=cmp_to_key(_bigger_first))
        return tuple(pool[:count])


def _bigger_first(a: MoveReview, b: MoveReview) -> int:
    by_points = compare(b.better_by, a.better_by)
    if by_points:
        return by_points
    if a.loss_points != b.loss_points:
        return -1 if a.loss_points > b.loss_points else 1
    return a.index - b.index


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
    best_line = _line(game, result.pv[:HORIZON], variant)
    played_line = best_line
    if len(legal) == 1 or best_move == played:
        loss_key, missed = 0, False
    else:
        index_of = game.geo.index
        raw = tuple(index_of[sq] for sq in played.path)
        (played_raw,) = [m for m in pos.moves() if m[0] == raw]
        mine = search.value_of(played_raw, depth)
        loss_key = _points_key(result, search, mine)
        missed = result.value > result.win >= mine.value
        played_line = _line(game, mine.pv[:HORIZON], variant)
    return MoveReview(
        index=index,
        side=side,
        move=played,
        takings=played_takings,
        best=best_move,
        best_takings=_arithmetic(best_move, variant),
        best_line=best_line,
        played_line=played_line,
        loss_points=Fraction(loss_key, pos.tables.scale.point),
        accurate=len(legal) == 1 or loss_key <= ACCURATE_WITHIN * pos.tables.typical,
        forced=len(legal) == 1,
        missed_win=missed,
        kind=kind_of(variant),
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
    return tuple(t.written for t in score_move(move, variant).takings)


def _line(game: Game, raws: Sequence[RawMove], variant: str) -> tuple[LineMove, ...]:
    copy = game.copy()
    squares = copy.geo.squares
    out = []
    for raw in raws:
        side = copy.side_to_move
        move = copy.push(copy.find_move([squares[i] for i in raw[0]]))
        score = score_move(move, variant).score
        out.append(LineMove(side, move, _arithmetic(move, variant), score))
    return tuple(out)


def _summary(moves: list[MoveReview], side: int) -> SideSummary:
    mine = [m for m in moves if m.side == side]
    counts = {op: [0, 0] for op in OPERATORS}
    choices = [m for m in mine if not m.forced]
    for m in choices:  # a forced taking is no choice: counted neither best nor not
        for taking in m.move.takings:
            counts[taking.operator][0] += 1
            counts[taking.operator][1] += m.accurate
    total = float(round_2dp(sum((m.loss_points for m in mine), Fraction(0))))
    return SideSummary(
        side=side,
        moves=len(mine),
        best_moves=sum(1 for m in choices if m.accurate),
        choices=len(choices),
        total_loss=total,
        accuracy=tuple(Accuracy(op, n, ok) for op, (n, ok) in counts.items()),
    )
