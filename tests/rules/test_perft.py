"""The generic core against the published perft tables (listed in docs/rules.md).

Every capture path is counted (D-5). Deeper depths run in bench/bench_perft.py.
"""

from __future__ import annotations

import pytest

from controller.rules.game import Game
from controller.rules.pdn import board_from_fen
from controller.rules.perft import divide, perft

PUBLISHED = {
    "english": [7, 49, 302, 1469, 7361, 36768, 179740],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302],
    "international": [9, 81, 658, 4265, 27117, 167140],
}

# Recorded in docs/rules.md and docs/benchmarks.md: the Damath opening, official profile,
# every variant alike (values do not change movement). It equals Brazilian draughts this
# shallow: the same movement until a dama appears.
DAMATH_OPENING = [7, 49, 302, 1469, 7473, 37628]


@pytest.mark.slow
@pytest.mark.parametrize("game", PUBLISHED)
def test_perft_from_the_start_equals_the_published_table(game):
    board = board_from_fen(game)
    expected = PUBLISHED[game]
    assert [perft(board, d) for d in range(1, len(expected) + 1)] == expected


def test_perft_of_the_damath_opening_to_depth_6():
    board = Game.new("integer").generator_board()
    assert [perft(board, d) for d in range(1, 7)] == DAMATH_OPENING


@pytest.mark.parametrize("variant", ["polynomial", "radical"])
def test_damath_movement_does_not_depend_on_the_variant(variant):
    board = Game.new(variant).generator_board()
    assert perft(board, 4) == DAMATH_OPENING[3]


def test_online_profile_perft_differs_only_once_damas_appear():
    board = Game.new("integer", "online").generator_board()
    assert [perft(board, d) for d in range(1, 6)] == DAMATH_OPENING[:5]


def test_divide_sums_to_perft_and_leaves_the_board_unchanged():
    board = board_from_fen("international")
    before = list(board.cells)
    rows = divide(board, 3)
    assert len(rows) == 9
    assert sum(n for _, n in rows) == 658
    assert board.cells == before and board.side == 0


def test_unique_convention_counts_same_start_end_and_taken_set_once():
    """D-5 keeps every path; the published tables count a ring capture once."""
    from controller.rules.notation import game_from_json

    ring = [((2, 1), "blue"), ((3, 2), "red"), ((3, 4), "red"), ((1, 4), "red"), ((1, 2), "red")]
    game = game_from_json(
        {"pieces": [{"square": list(sq), "side": side, "value": "1"} for sq, side in ring]}
    )
    board = game.generator_board()
    assert perft(board, 1) == 2
    assert perft(board, 1, unique=True) == 1


@pytest.mark.parametrize("game", ["brazilian", "international"])
def test_both_conventions_agree_at_the_tested_depths(game):
    board = board_from_fen(game)
    depth = len(PUBLISHED[game]) - 1
    assert perft(board, depth, unique=True) == PUBLISHED[game][depth - 1]


def test_perft_depth_zero_is_one_node():
    assert perft(board_from_fen("english"), 0) == 1
