"""An independent referee for the engine's tests: plain minimax over the rules engine's own
``Game``, exact scores from its scorer, no keys, no pruning, no heuristics.

It only answers for positions where every line ends the game within the depth, so its value
is the exact result of best play: the grand-total difference for the side to move.
"""

from __future__ import annotations

from controller.engine.position import game_totals
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.scoring import Score, compare, remaining_chips_score


class TooDeep(Exception):
    """Some line does not end within the depth."""


def final_difference(game: Game) -> Score:
    """The grand-total difference for the side to move, counted as the game's end."""
    assert game.variant is not None and game.profile is not None
    totals = game_totals(game)
    rc = "official" if game.profile.remaining_dama_double else "online"
    chips = game.chips()
    side = game.side_to_move
    mine = totals[side] + remaining_chips_score(chips, side, game.variant, rc).score
    theirs = totals[1 - side] + remaining_chips_score(chips, 1 - side, game.variant, rc).score
    return mine - theirs


def minimax(game: Game, depth: int) -> Score:
    if game.ending() is not None:
        return final_difference(game)
    if depth == 0:
        raise TooDeep
    best: Score | None = None
    for move in game.legal_moves():
        game.push(move)
        try:
            v = -minimax(game, depth - 1)
        finally:
            game.pop()
        if best is None or compare(v, best) > 0:
            best = v
    assert best is not None
    return best


def best_moves(game: Game, depth: int) -> tuple[Score, list[Move]]:
    """The exact value and every move that achieves it."""
    values = []
    for move in game.legal_moves():
        game.push(move)
        try:
            values.append((move, -minimax(game, depth - 1)))
        finally:
            game.pop()
    best = values[0][1]
    for _, v in values[1:]:
        if compare(v, best) > 0:
            best = v
    return best, [m for m, v in values if compare(v, best) == 0]
