"""English draughts' computer opponent: the draughts games' one
(``controller.games.draughts.computer``) with English draughts' rules and weights."""

from __future__ import annotations

from fractions import Fraction

from controller.games.computer import Request
from controller.games.draughts.computer import LEVELS, Opponent
from controller.games.draughts.evaluation import Weights

from .record import RULES

WEIGHTS = Weights(
    king=Fraction(3, 2), advance=Fraction(1, 40), centre=Fraction(1, 20), guard=Fraction(1, 10)
)
"""A king is worth a man and a half: it moves both ways, one square at a time."""

OPPONENT = Opponent(RULES, WEIGHTS, LEVELS, review_depth=4)
COMPUTER = OPPONENT.computer(__name__)


def choose(request: Request) -> Request:
    return OPPONENT.choose(request)


def review(request: Request) -> Request:
    return OPPONENT.review(request)
