"""The one search every turn-by-turn game's computer plays with: a game brings its rules as a
``Searchable``, a ``Level`` says how far to look and how to pick.

Negamax with alpha-beta pruning, deepened one move at a time until the level's depth or its
time is reached (the last depth finished decides); at the horizon, takings are followed to the
end (``noisy``) so a search never stops in the middle of an exchange. Values are exact
(``Fraction``), from the view of the side to move. A game of chance (Dadama's throws) brings its
own search over the same levels and the same answer.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

from .computer import Level

S = TypeVar("S")
M = TypeVar("M")

INFINITY = Fraction(10**12)
"""Above any value a game gives (a win is ``WIN`` minus the plies to reach it)."""
WIN = Fraction(10**9)


class Searchable(Protocol[S, M]):
    """A game's rules as the search sees them: pure functions of a state."""

    def moves(self, state: S) -> Sequence[M]:
        """The legal moves (the game's own order); empty when the game is over."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after ``move``; ``state`` itself is left as it was."""
        ...

    def end(self, state: S) -> Fraction | None:
        """The game's value for the side to move when it is over (a loss ``-WIN``, a draw 0,
        Damath's kind: the score difference), else None."""
        ...

    def evaluate(self, state: S) -> Fraction:
        """How good the state is for the side to move, in the game's unit."""
        ...

    def noisy(self, state: S, move: M) -> bool:
        """A move the horizon must not cut off (a taking)."""
        ...


@dataclass(frozen=True)
class Found(Generic[M]):
    move: M
    value: Fraction
    """The chosen move's value for the side that chose it."""
    depth: int
    nodes: int
    seconds: float
    values: tuple[tuple[M, Fraction], ...] = ()
    """Every move weighed at the root at the last finished depth (a review's best and played)."""


class _OutOfTime(Exception):
    pass


class Search(Generic[S, M]):
    """One search of one position: ``choose`` at a level."""

    QUIESCENCE_LIMIT = 12
    """Takings followed at most 12 plies past the horizon (a long chain still ends)."""

    def __init__(
        self,
        rules: Searchable[S, M],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rules = rules
        self.clock = clock
        self.nodes = 0
        self._deadline: float | None = None

    # ------------------------------------------------------------------ the root

    def choose(
        self, state: S, level: Level, seed: int | None = None, weigh_all: bool = False
    ) -> Found[M]:
        """The move at ``level`` (ValueError when the game is over). ``weigh_all``: every root
        move gets its exact value (a review), not only those near the best."""
        moves = list(self.rules.moves(state))
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        start = self.clock()
        self._deadline = None if level.seconds is None else start + level.seconds
        window = Fraction(level.temperature * 3) if level.temperature > 0 else Fraction(0)
        done: list[tuple[M, Fraction]] = [(m, Fraction(0)) for m in moves]
        depth_done = 0
        for depth in range(1, max(1, level.depth) + 1):
            try:
                done = self._root(state, moves, depth, window, level.quiescence, weigh_all)
            except _OutOfTime:
                break
            depth_done = depth
            moves = [m for m, _ in sorted(done, key=lambda mv: -mv[1])]  # best first next time
            if len(moves) == 1 or abs(max(v for _, v in done)) >= WIN - 1000:
                break
        move, value = _pick(done, level.temperature, seed)
        return Found(move, value, depth_done, self.nodes, self.clock() - start, tuple(done))

    def _root(
        self,
        state: S,
        moves: list[M],
        depth: int,
        window: Fraction,
        quiescence: bool,
        weigh_all: bool,
    ) -> list[tuple[M, Fraction]]:
        out: list[tuple[M, Fraction]] = []
        best = -INFINITY
        for move in moves:
            alpha = -INFINITY if weigh_all else best - window
            value = -self._negamax(
                self.rules.play(state, move), depth - 1, -INFINITY, -alpha, 1, quiescence
            )
            out.append((move, value))
            best = max(best, value)
        return out

    # ------------------------------------------------------------------ below the root

    def _negamax(
        self, state: S, depth: int, alpha: Fraction, beta: Fraction, ply: int, quiescence: bool
    ) -> Fraction:
        self.nodes += 1
        if self._deadline is not None and self.nodes % 256 == 0 and self.clock() > self._deadline:
            raise _OutOfTime
        over = self.rules.end(state)
        if over is not None:
            return _sooner(over, ply)
        moves = self.rules.moves(state)
        if not moves:  # a game that says nothing at the end: no move loses
            return -WIN + ply
        if depth <= 0:
            noisy = [m for m in moves if self.rules.noisy(state, m)] if quiescence else []
            if not noisy or depth <= -self.QUIESCENCE_LIMIT:
                return self.rules.evaluate(state)
            if len(noisy) < len(moves):  # a quiet move was possible: standing pat is allowed
                stand = self.rules.evaluate(state)
                if stand >= beta:
                    return stand
                alpha = max(alpha, stand)
            moves = noisy
        else:
            moves = sorted(moves, key=lambda m: not self.rules.noisy(state, m))
        best = -INFINITY
        for move in moves:
            value = -self._negamax(
                self.rules.play(state, move), depth - 1, -beta, -alpha, ply + 1, quiescence
            )
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best


def _sooner(value: Fraction, ply: int) -> Fraction:
    """A win found sooner is better, a loss later is better (so the search finishes a won
    game instead of wandering)."""
    if value >= WIN - 1000:
        return value - ply
    if value <= -WIN + 1000:
        return value + ply
    return value


def _pick(
    weighed: Sequence[tuple[M, Fraction]], temperature: float, seed: int | None
) -> tuple[M, Fraction]:
    """The best move, or (``temperature`` > 0) one near it by weight ``exp(-Δ/T)``; ties by
    the game's order (the first found), so a seed replays a game."""
    best = max(v for _, v in weighed)
    if temperature <= 0:
        return next((m, v) for m, v in weighed if v == best)
    near = [(m, v) for m, v in weighed if best - v <= 3 * temperature]
    weights = [math.exp(-float(best - v) / temperature) for _, v in near]
    chosen = random.Random(seed).choices(range(len(near)), weights=weights)[0]
    return near[chosen]
