"""Property tests over random games in every variant (hypothesis).

Undo restores the position exactly; no move jumps an own chip, a chip twice, or lands on an
occupied square; the capture priority (D-1) holds in every position visited. The captures the
priority chooses from are listed by the reference generator (tests/oracles/moves.py), not by
the engine whose choice is being checked.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.geometry import DIRECTIONS
from controller.rules.ruleset import Priority
from tests.oracles.moves import RULES, Piece, legal_moves

GAMES = st.tuples(
    st.sampled_from(damath_data.VARIANTS),
    st.sampled_from(("official", "online")),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=160),
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """Squares strictly between two squares on one diagonal."""
    dx = (b[0] > a[0]) - (b[0] < a[0])
    dy = (b[1] > a[1]) - (b[1] < a[1])
    assert (dx, dy) in DIRECTIONS and abs(b[0] - a[0]) == abs(b[1] - a[1])
    return [(a[0] + k * dx, a[1] + k * dy) for k in range(1, abs(b[0] - a[0]))]


def _check_move_shape(game: Game, move) -> None:
    chips = game.chips()
    mover = game.side_to_move
    start = move.path[0]
    assert chips[start].side == mover
    taken = []
    for k, (a, b) in enumerate(zip(move.path, move.path[1:], strict=False)):
        assert b == start or b not in chips, "lands on an occupied square"
        between = [sq for sq in _between(a, b) if sq in chips and sq != start]
        if move.captures:
            assert len(between) == 1, "a capture jumps exactly one chip per leg"
            (jumped,) = between
            assert chips[jumped].side != mover, "jumps an own chip"
            assert jumped == move.captures[k]
            taken.append(jumped)
        else:
            assert between == [] and len(move.path) == 2
    assert len(set(taken)) == len(taken), "jumps a chip twice"


# Every capture sequence, before any priority: the reference generator with "any capture".
_ANY_CAPTURE = replace(RULES["damath-official"], priority="any")


def _every_capture(game: Game) -> list:
    pieces = {sq: Piece(c.side, c.dama) for sq, c in game.chips().items()}
    moves = legal_moves(_ANY_CAPTURE, pieces, game.side_to_move)
    return [(m.path, m.captures, m.by_king) for m in moves if m.captures]


def _check_priority(game: Game) -> None:
    every = _every_capture(game)
    legal = game.legal_moves()
    if not every:
        assert not any(m.captures for m in legal)
        return
    assert legal and all(m.captures for m in legal), "taking is mandatory"
    most = max(len(c[1]) for c in every)
    dama_can = any(c[2] for c in every)
    if game.rules.priority is Priority.MOST_THEN_DAMA:
        best_by_dama = any(c[2] and len(c[1]) == most for c in every)
        allowed = [c for c in every if len(c[1]) == most and (c[2] or not best_by_dama)]
    else:
        if dama_can:
            most = max(len(c[1]) for c in every if c[2])
        allowed = [c for c in every if len(c[1]) == most and (c[2] or not dama_can)]
    assert sorted((m.path, m.captures, m.chip.dama) for m in legal) == sorted(allowed)


@pytest.mark.slow
@SETTINGS
@given(GAMES)
def test_random_games_keep_every_invariant(spec):
    variant, profile, choices = spec
    game = Game.new(variant, profile)
    snapshots = []
    for choice in choices:
        if game.is_over():
            break
        _check_priority(game)
        moves = game.legal_moves()
        move = moves[choice % len(moves)]
        _check_move_shape(game, move)
        snapshots.append((game.chips(), game.side_to_move, game.repetitions()))
        game.push(move)
        after = game.chips()
        for sq in move.captures:
            assert sq not in after
        assert after[move.end].dama == (move.chip.dama or move.promotes)
    while snapshots:
        game.pop()
        assert (game.chips(), game.side_to_move, game.repetitions()) == snapshots.pop()
    assert game.chips() == Game.new(variant).chips()
