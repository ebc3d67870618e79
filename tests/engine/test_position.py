"""The search's position keeps exactly what the rules engine would compute, move after move.

Over random games in every variant and both profiles: the cells, the grand-total difference if
the game ended now (takings and remaining chips, recomputed by the rules engine's scorer), the
takings difference, the Zobrist key and the heuristic tables equal a position built afresh from
the rules engine's game; each move's score key equals the scorer's; the rules' endings are seen
at the same moves; unmaking every move restores the start exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position, game_totals
from controller.engine.tables import key_scale, score_tables
from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.scoring import compare, remaining_chips_score, score_move
from controller.rules.values import Sqrt2
from controller.rules.variants import placement_values

GAMES = st.tuples(
    st.sampled_from(damath_data.VARIANTS),
    st.sampled_from(("official", "online")),
    st.integers(min_value=0, max_value=2**32).map(
        # Whole random games (a seed, not a list hypothesis would keep short): long enough for
        # damas to appear, take and be taken.
        lambda seed: [random.Random(seed).randrange(1000) for _ in range(160)]
    ),
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exact_grand_difference(game: Game):
    assert game.variant is not None and game.profile is not None
    totals = game_totals(game)
    rc = "official" if game.profile.remaining_dama_double else "online"
    chips = game.chips()
    blue = totals[0] + remaining_chips_score(chips, 0, game.variant, rc).score
    red = totals[1] + remaining_chips_score(chips, 1, game.variant, rc).score
    return blue - red


def from_scratch(pos: Position) -> tuple[int, int]:
    """The Zobrist key and the heuristic sum recomputed over the whole board."""
    zob = pos._side_key if pos.side else 0
    psq = 0
    for sq, c in enumerate(pos.cells):
        if c:
            zob ^= pos._zkeys[(sq * 5 + c + 2) * pos.n_values + pos.vid[sq]]
            psq += pos.psq_table[sq * 5 + c + 2]
    return zob, psq


def raw_for(pos: Position, move) -> tuple:
    index = pos.board.geo.index
    path = tuple(index[sq] for sq in move.path)
    (raw,) = [m for m in pos.moves() if m[0] == path]
    return raw


@pytest.mark.slow
@SETTINGS
@given(GAMES)
def test_incremental_state_equals_the_rules_engine_after_every_move(case) -> None:
    variant, profile, choices = case
    game = Game.new(variant, profile)
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    start = pos.snapshot()
    played = []
    for choice in choices:
        if game.ending() is not None:
            break
        move = game.legal_moves()[choice % len(game.legal_moves())]
        raw = raw_for(pos, move)
        assert pos.capture_gain(raw) == pos.tables.key(score_move(move, variant).score)
        played.append((raw, pos.make(raw)))
        game.push(move)
        assert pos.cells == game.generator_board().cells
        assert pos.side == game.side_to_move
        assert pos.grand == pos.tables.key(exact_grand_difference(game))
        totals = game_totals(game)
        assert pos.totd == pos.tables.key(totals[0] - totals[1])
        assert pos.count == [sum(1 for c in pos.cells if c > 0), sum(1 for c in pos.cells if c < 0)]
        assert (pos.zob, pos.psq) == from_scratch(pos)
        values = [pos.tables.values[v] if v >= 0 else None for v in pos.vid]
        assert values == [
            game.chip_at(sq).value if game.chip_at(sq) else None for sq in pos.board.geo.squares
        ]
        over = pos.terminal(at_root=True) is not None or not pos.moves()
        assert over == (game.ending() is not None)
    for raw, undo in reversed(played):
        pos.unmake(raw, undo)
    assert pos.snapshot() == start


def test_zobrist_keys_are_the_same_for_the_same_position_reached_two_ways() -> None:
    a = Game.new("integer")
    b = Game.new("integer")
    for path in ([(1, 2), (0, 3)], [(6, 5), (7, 4)], [(3, 2), (2, 3)]):
        a.push(a.find_move(path))
    for path in ([(3, 2), (2, 3)], [(6, 5), (7, 4)], [(1, 2), (0, 3)]):
        b.push(b.find_move(path))
    pa = Position.from_game(a, DEFAULT_WEIGHTS)
    pb = Position.from_game(b, DEFAULT_WEIGHTS)
    assert pa.zob == pb.zob and pa.key() == pb.key()
    other = Game.new("integer")
    for path in ([(1, 2), (0, 3)], [(6, 5), (7, 4)], [(5, 2), (4, 3)]):
        other.push(other.find_move(path))
    assert Position.from_game(other, DEFAULT_WEIGHTS).zob != pa.zob


def test_the_key_scale_orders_radical_totals_exactly_even_when_they_nearly_agree() -> None:
    values = placement_values("radical")
    tables = score_tables(values, "radical", "official")
    key = tables.key
    # a + b√2 close to zero (convergents of √2) and close to each other.
    near = [
        Sqrt2(Fraction(99), Fraction(-70)),
        Sqrt2(Fraction(-99), Fraction(70)),
        Sqrt2(Fraction(577), Fraction(-408)),
        Sqrt2(Fraction(3363), Fraction(-2378)),
        Sqrt2(Fraction(0), Fraction(0)),
        Sqrt2(Fraction(1, 6), Fraction(0)),
        Sqrt2(Fraction(0), Fraction(1, 6)),
        Sqrt2(Fraction(19601), Fraction(-13860)),
    ]
    for x in near:
        for y in near:
            assert (key(x) > key(y)) - (key(x) < key(y)) == compare(x, y), (x, y)


@pytest.mark.slow
@SETTINGS
@given(GAMES)
def test_keys_of_totals_reached_in_games_order_as_the_exact_totals(case) -> None:
    variant, profile, choices = case
    game = Game.new(variant, profile)
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    seen = [exact_grand_difference(game)]
    for choice in choices[:60]:
        if game.ending() is not None:
            break
        game.push(game.legal_moves()[choice % len(game.legal_moves())])
        seen.append(exact_grand_difference(game))
    key = pos.tables.key
    for x in seen:
        for y in seen[:8]:
            assert (key(x) > key(y)) - (key(x) < key(y)) == compare(x, y)


def test_scale_is_a_multiple_of_every_denominator() -> None:
    scale = key_scale("fraction", [Fraction(1, 7), Fraction(3, 10)], Fraction(1))
    assert scale.denominator % 70 == 0
    assert scale.key(Fraction(1, 7)) * 7 == scale.point


@pytest.mark.slow
@SETTINGS
@given(GAMES)
def test_the_search_orders_a_positions_takings_as_their_exact_scores(case) -> None:
    """What the search compares at the root (keys) ranks the moves as the exact scores do."""
    variant, profile, choices = case
    game = Game.new(variant, profile)
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    played = []
    for choice in choices:
        if game.ending() is not None:
            break
        moves = game.legal_moves()
        exact = [score_move(m, variant).score for m in moves]
        keys = [pos.capture_gain(raw_for(pos, m)) for m in moves]
        for i in range(len(moves)):
            for j in range(len(moves)):
                assert (keys[i] > keys[j]) - (keys[i] < keys[j]) == compare(exact[i], exact[j])
        move = moves[choice % len(moves)]
        raw = raw_for(pos, move)
        played.append((raw, pos.make(raw)))
        game.push(move)
