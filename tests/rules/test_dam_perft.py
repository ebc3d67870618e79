"""Dam's move generator against a second, independent one (tests/rules/dam_reference.py).

The generic core and the plain reference agree on perft from the opening and, move for move,
on random positions full of flying kings; a hand-made position shows the random ones do reach
the edge turns of M-6.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.dam import DamGame, DamSettings
from controller.rules.draughts import DAM
from controller.rules.geometry import geometry
from controller.rules.movegen import KING, MAN, Board
from controller.rules.pdn import board_from_fen
from controller.rules.perft import perft

from . import dam_reference as ref

# Recorded in docs/rules-dam.md and docs/benchmarks.md (every path counted, M-8).
OPENING = [11, 121, 1324, 12191, 116270]
GEO = geometry(DAM.rules.size, DAM.rules.parity)


def test_perft_of_the_opening_to_depth_5():
    board = DamGame.opening().generator_board()
    assert [perft(board, d) for d in range(1, 6)] == OPENING


@pytest.mark.slow
def test_the_reference_counts_the_same_opening_tree():
    assert [ref.perft(ref.opening(), 0, d) for d in range(1, 6)] == OPENING


def test_the_fen_start_is_the_opening():
    assert board_from_fen("dam").cells == DamGame.opening().generator_board().cells


def _engine_moves(pieces: dict, side: int, most: bool = False) -> list:
    cells = [0] * GEO.count
    for sq, (owner, king) in pieces.items():
        cells[GEO.index[sq]] = (KING if king else MAN) * (1 if owner == 0 else -1)
    rules = DamGame.opening(DamSettings(capture_priority="most" if most else "any")).rules
    board = Board(rules, cells, side)
    squares = GEO.squares
    return sorted(
        (tuple(squares[i] for i in m[0]), tuple(squares[i] for i in m[1])) for m in board.moves()
    )


def _turns(path: tuple) -> int:
    """How many times a path changes direction."""
    steps = [
        ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])) for a, b in pairwise(path)
    ]
    return sum(1 for s, t in pairwise(steps) if s != t)


POSITIONS = st.tuples(
    st.dictionaries(
        st.sampled_from(GEO.squares),
        st.tuples(st.integers(0, 1), st.booleans()),
        min_size=2,
        max_size=30,
    ),
    st.integers(0, 1),
    st.booleans(),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(POSITIONS)
def test_every_random_position_gets_the_same_moves_from_both_generators(spec):
    pieces, side, most = spec
    pieces = {
        sq: (owner, king or sq[1] == ref.far_row(owner)) for sq, (owner, king) in pieces.items()
    }
    assert _engine_moves(pieces, side, most) == sorted(ref.legal_moves(pieces, side, most))


def test_a_king_can_turn_at_the_edge_more_than_once_in_both_generators():
    # Up-right over (7, 2) to the right edge, up-left over (8, 9) to the top edge, down-left
    # over (3, 8) to the left edge at (0, 5).
    pieces = {(5, 0): (0, True), (7, 2): (1, False), (8, 9): (1, False), (3, 8): (1, False)}
    mine = _engine_moves(pieces, 0)
    assert mine == sorted(ref.legal_moves(pieces, 0))
    assert max(_turns(path) for path, _ in mine) == 2
    assert ((5, 0), (11, 6), (6, 11), (0, 5)) in [path for path, _ in mine]
