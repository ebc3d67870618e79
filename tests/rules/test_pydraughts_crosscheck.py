"""Cross-check against pydraughts, an independent implementation: from positions reached by
random play, both programs must list the same moves, step by step, in every rule set.

This also proves our PDN numbering is the one pydraughts and the published positions use.
"""

from __future__ import annotations

import random

import pytest
from draughts import Board as PyBoard

from controller.rules.draughts import number_map
from controller.rules.pdn import board_from_fen, fen_of

VARIANTS = {"english": "english", "italian": "italian", "international": "standard"}
VARIANTS["brazilian"] = "brazilian"


def _random_positions(variant: str, count: int, seed: int) -> list[PyBoard]:
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = PyBoard(variant=variant)
        for _ in range(rng.randint(0, 70)):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


@pytest.mark.slow
@pytest.mark.parametrize("game", VARIANTS)
def test_same_moves_as_pydraughts_from_random_positions(game):
    _, by_square = number_map(game)
    checked = 0
    for theirs in _random_positions(VARIANTS[game], 12, seed=sum(map(ord, game))):
        ours = board_from_fen(game, theirs.fen)
        squares = ours.geo.squares
        our_moves = {tuple(by_square[squares[i]] for i in m[0]) for m in ours.moves()}
        their_moves = {tuple(m.steps_move) for m in theirs.legal_moves()}
        assert our_moves == their_moves, theirs.fen
        checked += 1
    assert checked == 12


@pytest.mark.slow
@pytest.mark.parametrize("game", VARIANTS)
def test_fen_round_trips_through_our_board(game):
    for theirs in _random_positions(VARIANTS[game], 5, seed=7):
        ours = board_from_fen(game, theirs.fen)
        again = board_from_fen(game, fen_of(ours))
        assert again.cells == ours.cells and again.side == ours.side
