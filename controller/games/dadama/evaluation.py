"""How good a Dadama position is, in pieces, from White's view, inside a known range.

The expectiminimax's pruning at the throws (Star1) needs the range every value lies in:
an evaluation stays within ``±EVAL_BOUND``, a won game is ``WIN``, a lost one ``-WIN``.
"""

from __future__ import annotations

from fractions import Fraction

from controller.rules.dadama import SIZE, DadamaGame, Phase

WIN = Fraction(100)
"""A won game, in pieces: beyond any evaluation."""
LOW, HIGH = -WIN, WIN
"""Every value the search returns lies in ``[LOW, HIGH]`` (Star1's bounds)."""

DADAMA = Fraction(5, 2)
"""A dadama is worth two and a half dice: it moves and takes both ways."""
VALUE_STEP = Fraction(1, 30)
"""A higher value defends better (a taker needs a throw that equals or beats it)."""
ROW_STEP = Fraction(1, 50)
"""A die nearer its far row is nearer to becoming a dadama."""
EVAL_BOUND = 12 * (DADAMA + 5 * VALUE_STEP + SIZE * ROW_STEP)


def end_value(game: DadamaGame) -> Fraction | None:
    """``±WIN`` or 0 (a draw) when the game is over, else None."""
    if game.phase is not Phase.OVER:
        return None
    ending = game.ending()
    assert ending is not None
    if ending.winner is None:
        return Fraction(0)
    return WIN if ending.winner == 0 else -WIN


def evaluate(game: DadamaGame) -> Fraction:
    """Material in dice (a dadama 5/2), a little for higher values and for advanced dice;
    White's view, within ``±EVAL_BOUND``."""
    total = Fraction(0)
    for (_, y), die in game.pieces().items():
        worth = DADAMA if die.dadama else 1 + ROW_STEP * (y if die.side == 0 else SIZE - 1 - y)
        # a 6 is as safe as a 5 against a taker, and brings the all-sixes loss nearer
        worth += VALUE_STEP * (min(die.value, 5) - 1)
        total += worth if die.side == 0 else -worth
    return total
