"""How good a Mathematical Chess position is for the side to move, in the game's own points
(C-11: 2 for an operator taken, 1 for a digit), exact.

The score difference is the material difference (both boxes hold the same pieces), so the
points already count the pieces by the game's own values; to them is added a share of the
threats: the best piece each side could take by a move itself (R02–R05) or by removals without
moving (R12). The side to move may take its threat now (a half of it counts), the other side
only if it is not parried (a quarter). During Prepare now! the same threats judge a placement:
a piece put where it can be taken at once is a piece lost.
"""

from __future__ import annotations

from fractions import Fraction

from controller.games.search import WIN
from controller.rules.mathchess import Position
from controller.rules.mathchess.board import Board
from controller.rules.mathchess.matches import OWN_OPERATORS, Scope, find_matches
from controller.rules.mathchess.moves import legal_moves
from controller.rules.mathchess.pieces import Piece

OPERATOR_POINTS = 2
DIGIT_POINTS = 1
MINE = Fraction(1, 2)
"""The share of the side to move's best threat: it may take it now, or be parried first."""
THEIRS = Fraction(1, 4)
"""The share of the other side's best threat: it is taken only if the mover leaves it."""


def points(piece: Piece) -> int:
    """What taking ``piece`` scores (C-11)."""
    return DIGIT_POINTS if piece.is_digit else OPERATOR_POINTS


def score_difference(position: Position) -> int:
    """The side to move's score minus the other side's."""
    scores = position.score()
    return scores[position.to_move] - scores[1 - position.to_move]


def end_value(position: Position) -> Fraction | None:
    """``WIN`` or ``-WIN`` for the side to move, 0 for a draw, when the game is over."""
    ending = position.ending()
    if ending is None:
        return None
    if ending.winner is None:
        return Fraction(0)
    return WIN if ending.winner == position.to_move else -WIN


def threat(position: Position, side: int) -> int:
    """The most points ``side`` could take at once on this board: one piece by a move itself,
    or the pieces its own operators' matches remove without moving (C-10's default)."""
    board = position.board
    best = 0
    for move in legal_moves(board, side):
        if move.rule is not None:
            target = board.at(move.end)
            assert target is not None
            best = max(best, points(target))
    return max(best, _without_moving(position, board, side))


def _without_moving(position: Position, board: Board, side: int) -> int:
    matches = find_matches(
        board,
        side,
        Scope(OWN_OPERATORS),
        "R12",
        position.conditions.compare,
        position.settings.roots,
    )
    taken = {p for m in matches for p in m.removable}
    total = 0
    for point in taken:
        piece = board.at(point)
        assert piece is not None
        total += points(piece)
    return total


def evaluate(position: Position) -> Fraction:
    """The points difference and a share of each side's best threat, for the side to move."""
    side = position.to_move
    return (
        score_difference(position)
        + MINE * threat(position, side)
        - THEIRS * threat(position, 1 - side)
    )
