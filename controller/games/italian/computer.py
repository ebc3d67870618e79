"""Italian draughts' computer opponent: the draughts games' one
(``controller.games.draughts.computer``) with Italian draughts' rules and weights."""

from __future__ import annotations

from fractions import Fraction

from controller.games.computer import Request
from controller.games.draughts.computer import LEVELS, Opponent
from controller.games.draughts.evaluation import Weights

from .record import RULES

WEIGHTS = Weights(
    king=Fraction(8, 5), advance=Fraction(1, 40), centre=Fraction(1, 20), guard=Fraction(1, 10)
)
"""A king is worth a little more than in English draughts: men may not take it (Italian)."""

OPPONENT = Opponent(RULES, WEIGHTS, LEVELS, review_depth=4)
COMPUTER = OPPONENT.computer(__name__)


def choose(request: Request) -> Request:
    return OPPONENT.choose(request)


def review(request: Request) -> Request:
    return OPPONENT.review(request)
