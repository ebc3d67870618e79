"""Dadama's search: expectiminimax over its turns, the dice's chances weighed exactly.

A turn is a string of choices broken by throws. Before a throw the player chooses which die
throws (``Roll``), or a quiet move, or to stop (G-3); the dice then fall (a chance node, each
face 1/6, a dadama's two dice 1/36 a pair) and the player chooses among ``throw_options``.
Values are exact (``Fraction``) and from White's view: White maximizes, Black minimizes,
a chance node averages. Alpha-beta prunes at the choices; Star1 prunes at the throws, bounded
by the range every value lies in (``evaluation.LOW``..``HIGH``). Depth counts whole turns: a
search never stops inside one. With ``quiescence`` a turn that must throw (a taking is
threatened) is followed past the horizon, ``QUIESCENCE_TURNS`` at most.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from controller.rules.dadama import DadamaGame, Phase, Quiet, Step, Stop, Throw
from controller.rules.move import Square

from .evaluation import HIGH, LOW, end_value, evaluate

QUIESCENCE_TURNS = 2
SIXTH = Fraction(1, 6)


@dataclass(frozen=True, slots=True)
class Roll:
    """The choice before a throw: the die on ``square`` throws (the dice decide the rest)."""

    square: Square


Choice = Quiet | Stop | Roll | Throw


def choices(game: DadamaGame) -> list[Choice]:
    """What the side to move may choose now, before any dice fall (empty when it is over)."""
    phase = game.phase
    if phase is Phase.MOVE:
        return list(game.quiet_moves())
    if phase is Phase.THROW:
        return [Roll(square) for square in game.throwers()]
    if phase is Phase.GO_ON:
        square = game.throwers()[0]
        return [Roll(square), Stop(square)] if game.can_stop else [Roll(square)]
    return []


def outcomes(game: DadamaGame, square: Square) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every way the dice of the piece on ``square`` may fall, with its exact chance (a
    dadama's two dice as an unordered pair: the order never changes what it may keep)."""
    if game.dice_to_throw(square) == 1:
        return [((face,), SIXTH) for face in range(1, 7)]
    return [((a, b), Fraction(1 if a == b else 2, 36)) for a in range(1, 7) for b in range(a, 7)]


class OutOfTime(Exception):
    """The time cap ran out: the depth under way is abandoned."""


class Expectimax:
    """One search: ``value`` of a choice at a depth, with its counters."""

    def __init__(
        self,
        quiescence: bool = True,
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.quiescence = quiescence
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0

    # ------------------------------------------------------------------ entry points

    def value(
        self, game: DadamaGame, choice: Choice, depth: int, alpha: Fraction, beta: Fraction
    ) -> Fraction:
        """The value (White's view) of ``choice`` now, searching ``depth`` turns; exact when
        it lies strictly inside (alpha, beta), else a bound on that side (fail-soft)."""
        if isinstance(choice, Roll):
            return self._chance(game, choice.square, depth, alpha, beta)
        return self._step(game, choice, depth, alpha, beta)

    # ------------------------------------------------------------------ the tree

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 128 == 0 and self.clock() > self.deadline:
            raise OutOfTime

    def _decide(self, game: DadamaGame, depth: int, alpha: Fraction, beta: Fraction) -> Fraction:
        """A choice point before any dice (a turn's start, or going on after a taking)."""
        self._tick()
        over = end_value(game)
        if over is not None:
            return over
        if depth <= 0 and (
            not self.quiescence or game.phase is not Phase.THROW or depth <= -QUIESCENCE_TURNS
        ):
            return evaluate(game)
        return self._best(game, choices(game), depth, alpha, beta)

    def _best(
        self,
        game: DadamaGame,
        options: list[Choice] | list[Throw],
        depth: int,
        alpha: Fraction,
        beta: Fraction,
    ) -> Fraction:
        if game.side_to_move == 0:
            best = LOW - 1
            for choice in options:
                best = max(best, self.value(game, choice, depth, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        best = HIGH + 1
        for choice in options:
            best = min(best, self.value(game, choice, depth, alpha, beta))
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def _step(
        self, game: DadamaGame, step: Step, depth: int, alpha: Fraction, beta: Fraction
    ) -> Fraction:
        played = game.play(step)
        try:
            return self._decide(game, depth - 1 if played.turn_ends else depth, alpha, beta)
        finally:
            game.undo()

    def _chance(
        self, game: DadamaGame, square: Square, depth: int, alpha: Fraction, beta: Fraction
    ) -> Fraction:
        """Star1: the faces in turn; the ones still to come bounded by LOW and HIGH, so the
        node is cut as soon as its average cannot reach into (alpha, beta)."""
        self._tick()
        known = Fraction(0)
        rest = Fraction(1)
        for dice, chance in outcomes(game, square):
            rest -= chance
            low = max(LOW, (alpha - known - rest * HIGH) / chance)
            high = min(HIGH, (beta - known - rest * LOW) / chance)
            known += chance * self.thrown(game, square, dice, depth, low, high)
            if known + rest * HIGH <= alpha:
                return known + rest * HIGH
            if known + rest * LOW >= beta:
                return known + rest * LOW
        return known

    def thrown(
        self,
        game: DadamaGame,
        square: Square,
        dice: tuple[int, ...],
        depth: int,
        alpha: Fraction,
        beta: Fraction,
    ) -> Fraction:
        """The choice once the dice have fallen: which taking, which value a dadama keeps."""
        options = game.throw_options(square, dice)
        if len(options) == 1:
            return self._step(game, options[0], depth, alpha, beta)
        return self._best(game, options, depth, alpha, beta)
