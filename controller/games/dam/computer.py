"""Dam's computer opponent: the draughts games' one (``controller.games.draughts.computer``)
with Dam's flying kings, its men that step back, and its draw by quiet moves."""

from __future__ import annotations

from fractions import Fraction

from controller.games.computer import Request
from controller.games.draughts.computer import LEVELS, Opponent
from controller.games.draughts.evaluation import Weights
from controller.rules.dam import DamGame
from controller.rules.game import Game

from .record import RULES

WEIGHTS = Weights(
    king=Fraction(3), advance=Fraction(1, 60), centre=Fraction(1, 30), guard=Fraction(1, 20)
)
"""A flying king sweeps whole diagonals: worth three men, as in the international game."""


def quiet(game: Game) -> tuple[int, int]:
    """The run of quiet moves so far and the limit that draws (M-9), in plies."""
    assert isinstance(game, DamGame)
    return game.quiet_run(), 2 * game.settings.quiet_move_limit


OPPONENT = Opponent(RULES, WEIGHTS, LEVELS, review_depth=3, quiet=quiet)
COMPUTER = OPPONENT.computer(__name__)


def choose(request: Request) -> Request:
    return OPPONENT.choose(request)


def review(request: Request) -> Request:
    return OPPONENT.review(request)
