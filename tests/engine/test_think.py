"""The engine's answers: legal, exact, reproducible, and right where the right answer is known.

Positions with a known answer are small endgames where every line ends the game within a few
moves; the referee (``oracle.py``) plays them out completely over the rules engine with exact
scores, and the engine must find one of its best moves and report its exact value.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.levels import LEVELS
from controller.engine.position import Position
from controller.engine.search import FULL, Limits, Search
from controller.engine.think import GameOver, think
from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.notation import game_from_json
from controller.rules.scoring import compare, score_move, sign

from .oracle import best_moves, final_difference

DATA = Path(__file__).parent / "data"


def _cases(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize(
    "case", _cases("forced_wins.jsonl"), ids=lambda c: c["position"]["variant"]
)
def test_finds_the_forced_win_that_the_biggest_taking_misses(case: dict) -> None:
    game = game_from_json(case["position"])
    value, best = best_moves(game, case["plies"])
    assert str(value) == case["value"] and sorted(map(str, best)) == sorted(case["best"])
    assert sign(value) > 0  # the referee agrees Blue wins with best play
    greedy = _biggest_takings(game)
    assert not set(greedy) & set(best)  # so winning takes more than the biggest score now
    answer = think(game, depth=case["plies"] + 2)
    assert answer.move in best
    assert answer.eval == value
    assert answer.outcome == "win"


@pytest.mark.parametrize(
    "case", _cases("best_takings.jsonl"), ids=lambda c: c["position"]["variant"]
)
def test_chooses_the_taking_with_the_best_final_result(case: dict) -> None:
    game = game_from_json(case["position"])
    value, best = best_moves(game, case["plies"])
    assert str(value) == case["value"] and sorted(map(str, best)) == sorted(case["best"])
    assert len(best) < len(game.legal_moves())
    assert all(m.captures for m in game.legal_moves())
    answer = think(game, depth=case["plies"] + 2)
    assert answer.move in best
    assert answer.eval == value


def test_every_variant_has_a_forced_win_and_a_best_taking_case() -> None:
    for name in ("forced_wins.jsonl", "best_takings.jsonl"):
        variants = {c["position"]["variant"] for c in _cases(name)}
        assert variants == set(damath_data.VARIANTS), name


def _biggest_takings(game: Game) -> list:
    assert game.variant is not None
    moves = game.legal_moves()
    scores = [score_move(m, game.variant).score for m in moves]
    top = scores[0]
    for s in scores:
        if compare(s, top) > 0:
            top = s
    return [m for m, s in zip(moves, scores, strict=True) if compare(s, top) == 0]


# ------------------------------------------------------------------ legality and exactness

RANDOM_GAMES = st.tuples(
    st.sampled_from(damath_data.VARIANTS),
    st.sampled_from(("official", "online")),
    st.lists(st.integers(min_value=0, max_value=50), min_size=0, max_size=90),
    st.integers(min_value=1, max_value=3),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RANDOM_GAMES)
def test_never_answers_an_illegal_move_and_its_eval_is_exact(case) -> None:
    variant, profile, choices, depth = case
    game = Game.new(variant, profile)
    for choice in choices:
        if game.ending() is not None:
            break
        game.push(game.legal_moves()[choice % len(game.legal_moves())])
    if game.ending() is not None:
        with pytest.raises(GameOver):
            think(game, depth=depth)
        return
    before = game.chips(), game.ply
    answer = think(game, depth=depth)
    assert (game.chips(), game.ply) == before  # the caller's game is untouched
    assert answer.move in game.legal_moves()
    line = game.copy()
    for move in answer.pv:
        assert move in line.legal_moves()
        line.push(move)
    assert answer.pv[0] == answer.move
    # eval: the exact grand-total difference at the end of the line, for the side to move.
    end = Game.new(variant, profile)
    for _, move in game.played():
        end.push(move)
    for move in answer.pv:
        end.push(move)
    diff = final_difference(end)
    assert answer.eval == (diff if len(answer.pv) % 2 == 0 else -diff)


PIECES = st.lists(
    st.tuples(
        st.sampled_from(sorted(damath_data.OPERATORS)),
        st.booleans(),
        st.integers(min_value=0, max_value=11),
        st.booleans(),
    ),
    min_size=2,
    max_size=12,  # a side has at most 12 chips (the position reader refuses more, rightly)
    unique_by=lambda p: p[0],
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(damath_data.VARIANTS), PIECES, st.booleans())
def test_never_answers_an_illegal_move_in_random_positions(variant, pieces, red) -> None:
    labels = damath_data.PLACEMENTS[variant]
    listed = []
    for sq, blue, value, dama in pieces:
        side = 0 if blue else 1
        dama = dama or sq in damath_data.DAMA_SQUARES[side]
        listed.append(
            {
                "square": list(sq),
                "side": "blue" if blue else "red",
                "value": labels[value],
                "dama": dama,
            }
        )
    game = game_from_json(
        {"variant": variant, "to_move": "red" if red else "blue", "pieces": listed}
    )
    if game.ending() is not None:
        return
    answer = think(game, depth=3)
    assert answer.move in game.legal_moves()


# ------------------------------------------------------------------ reproducible


def test_a_fixed_depth_gives_the_same_answer_every_time() -> None:
    game = Game.new("rational")
    for path in ([(1, 2), (2, 3)], [(2, 5), (1, 4)], [(5, 2), (4, 3)]):
        game.push(game.find_move(path))
    first = think(game, depth=7)
    for _ in range(2):
        again = think(game, depth=7)
        assert (again.move, again.pv, again.eval, again.nodes) == (
            first.move,
            first.pv,
            first.eval,
            first.nodes,
        )


def test_a_time_limit_is_read_from_the_injected_clock_only() -> None:
    ticks = [0.0]

    def clock() -> float:  # a clock that advances 1 ms each time it is read
        ticks[0] += 0.001
        return ticks[0]

    game = Game.new("integer")
    answer = think(game, seconds=0.05, clock=clock)
    assert answer.move in game.legal_moves()
    assert 1 <= answer.depth < 64
    assert answer.seconds <= 0.06
    frozen = think(game, seconds=0.05, depth=4, clock=lambda: 0.0)
    assert frozen.depth == 4  # a clock that never moves never stops it: the depth does


def test_totals_given_with_a_position_count_exactly() -> None:
    position = {
        "variant": "fraction",
        "pieces": [
            {"square": [3, 4], "side": "blue", "value": "-5/10"},
            {"square": [4, 5], "side": "red", "value": "10/10", "dama": True},
        ],
    }
    plain = think(game_from_json(position), depth=3)
    given = think(game_from_json(position), depth=3, totals=(Fraction(7, 3), Fraction(1, 5)))
    assert given.move == plain.move
    assert given.eval - plain.eval == Fraction(7, 3) - Fraction(1, 5)
    assert plain.outcome == given.outcome == "win"


# ------------------------------------------------------------------ levels


CLOSE_TAKINGS = [
    [(1, 2), (0, 3)], [(0, 5), (1, 4)], [(5, 2), (4, 3)], [(4, 5), (3, 4)], [(4, 1), (5, 2)],
    [(3, 4), (2, 3)], [(2, 1), (1, 2)], [(2, 3), (4, 1), (6, 3)], [(7, 2), (5, 4)],
    [(2, 5), (3, 4)], [(4, 3), (2, 5)], [(1, 6), (3, 4)], [(0, 3), (2, 5), (4, 3)],
    [(3, 6), (2, 5)], [(5, 0), (4, 1)], [(0, 7), (1, 6)], [(3, 0), (2, 1)], [(6, 5), (7, 4)],
    [(5, 4), (6, 5)], [(7, 6), (5, 4), (3, 2), (5, 0), (7, 2)], [(2, 1), (3, 2)],
    [(2, 5), (3, 4)], [(7, 0), (6, 1)], [(7, 2), (5, 0)], [(1, 2), (0, 3)], [(5, 0), (0, 5)],
    [(0, 3), (1, 4)],
]  # fmt: skip


def _position_with_close_takings() -> Game:
    """An Integer game (a seeded random one) where Red has four takings to choose from."""
    game = Game.new("integer")
    for path in CLOSE_TAKINGS:
        game.push(game.find_move(path))
    assert len(game.legal_moves()) == 4 and all(m.captures for m in game.legal_moves())
    return game


def test_a_level_is_reproducible_for_a_seed_and_varies_between_seeds() -> None:
    game = _position_with_close_takings()
    picks = {think(game, level=1, seed=s).move for s in range(40)}
    assert len(picks) > 1  # a beginner does not always find the best
    assert think(game, level=1, seed=5).move == think(game, level=1, seed=5).move
    assert len({think(game, level=8, depth=4, seed=s).move for s in range(5)}) == 1


def test_a_level_never_picks_a_move_far_below_the_best() -> None:
    game = _position_with_close_takings()
    for lvl in LEVELS:
        if lvl.temperature == 0:
            continue
        config = replace(FULL, quiescence=lvl.quiescence)
        pos = Position.from_game(game, DEFAULT_WEIGHTS)
        values, _ = Search(pos, config).analyse(Limits(depth=lvl.depth))
        allowed = 3 * lvl.temperature * pos.tables.typical
        squares = game.geo.squares
        value_of = {tuple(squares[i] for i in rv.move[0]): rv.value for rv in values}
        for seed in range(15):
            move = think(game, level=lvl.number, seed=seed).move
            assert values[0].value - value_of[move.path] <= allowed


def test_levels_look_further_as_they_go_up() -> None:
    depths = [lvl.depth for lvl in LEVELS]
    temps = [lvl.temperature for lvl in LEVELS]
    assert depths == sorted(depths) and temps == sorted(temps, reverse=True)
    assert LEVELS[-1].temperature == 0 and LEVELS[0].quiescence is False


def test_the_temperature_samples_near_moves_and_never_far_ones() -> None:
    from controller.engine.search import RootValue
    from controller.engine.think import choose

    far = RootValue(((0, 4), (), False, False), -31, ())
    values = [
        RootValue(((0, 5), (), False, False), 0, ()),
        RootValue(((1, 5), (), False, False), -10, ()),
        RootValue(((2, 5), (), False, False), -25, ()),
        far,
    ]
    picks = [choose(values, 10.0, seed) for seed in range(400)]
    assert far not in picks  # 3.1 T below the best: never
    counts = [picks.count(v) for v in values[:3]]
    assert counts[0] > counts[1] > counts[2] > 0  # nearer is likelier, all are possible
