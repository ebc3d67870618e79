"""Properties over many random games and digits: the arithmetic is exact, a record replays to
the same positions, undo is exact, positions survive JSON, and the engine's answers agree with
what it accepts."""

from __future__ import annotations

import json
import random
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.mathchess import (
    Done,
    IllegalAction,
    MathChessGame,
    Op,
    Pass,
    Phase,
    Position,
    Remove,
    explain,
    from_level,
    game_from_record,
    partial_values,
    position_from_json,
    position_to_json,
    turns,
)

digits = st.lists(st.integers(0, 9), min_size=1, max_size=5).map(tuple)


@given(st.sampled_from(list(Op)), digits, st.sampled_from(["smallest", "every"]))
def test_every_partial_value_is_exact_arithmetic_of_its_digits(op, ds, roots):
    points = tuple((i, 0) for i in range(len(ds)))
    for v in partial_values(op, points, ds, roots):
        assert v.added % 10 == 0 and v.added >= 0
        if op is Op.ADD:
            assert v.value == sum(v.digits) and (len(v.digits) >= 2 or len(ds) == 1)
        elif op is Op.MUL:
            assert v.value == prod(v.digits)
        elif op is Op.SUB and len(v.digits) == 2:
            a, b = v.digits
            assert v.value == a + v.added - b and 0 <= v.value < 10
            assert v.added == (10 if a < b else 0)
        elif op is Op.DIV and len(v.digits) == 2:
            a, b = v.digits
            assert b != 0 and v.value * b == a + v.added and a + v.added < 100
            assert all((a + k) % b for k in range(0, v.added, 10))  # the smallest ten
        elif op is Op.POW:
            assert v.value == v.digits[0] ** v.power and v.power in (2, 3)
        elif op is Op.ROOT:
            assert v.value**v.power == v.digits[0] + v.added and 0 <= v.value < 10
        assert set(v.points) <= set(points)


def playout(seed: int, level: int, turns_at_most: int = 40) -> MathChessGame:
    """A random game from an empty board: random placements, then random whole turns."""
    rng = random.Random(seed)
    game = MathChessGame(Position.start(from_level(level, digits=4)))
    for _ in range(turns_at_most):
        if game.position.phase is Phase.OVER:
            break
        turn = rng.choice(turns(game.position))
        if turn.place is not None:
            game.play(turn.place)
        elif turn.passes:
            game.play(Pass())
        else:
            if turn.move is not None:
                game.play(turn.move)
            for _, part in turn.steps:
                game.play(Remove(part))
            if game.position.phase is not Phase.OVER:
                game.play(Done())
    return game


games = st.builds(playout, st.integers(0, 2**32), st.integers(1, 10))


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(games)
def test_a_record_replays_to_the_same_positions(game):
    record = json.loads(json.dumps(game.record_json()))
    again = game_from_record(record)
    assert again.positions == game.positions
    assert again.result() == game.result()


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(games)
def test_every_position_survives_json_and_undo_is_exact(game):
    for position in game.positions:
        assert position_from_json(json.dumps(position_to_json(position))) == position
    history = list(game.positions)
    while game.actions:
        game.undo()
        assert game.position == history[len(game.actions)]


@settings(max_examples=10, deadline=None)
@given(games)
def test_scores_only_grow_by_two_an_operator_and_one_a_digit(game):
    for before, action, after in zip(
        game.positions[:-1], game.actions, game.positions[1:], strict=True
    ):
        if isinstance(action, Remove):
            taken = [before.board.at(p) for p in action.points]
            gained = sum(1 if piece.is_digit else 2 for piece in taken)
            side = before.to_move
            assert after.score()[side] - before.score()[side] == gained
            assert after.score()[1 - side] == before.score()[1 - side]


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(games, st.randoms(use_true_random=False))
def test_what_the_engine_offers_it_accepts_and_what_it_does_not_offer_it_refuses(game, rng):
    for position in game.positions:
        if position.phase is not Phase.PLAY:
            continue
        offered = position.removable()
        for match in position.removal_options():
            assert set(match.removable) <= offered
            position.apply(Remove(frozenset(match.removable)))
            assert explain(position, frozenset(match.removable))
        others = [p for p, _ in position.board.pieces() if p not in offered]
        for point in rng.sample(others, min(3, len(others))):
            try:
                position.apply(Remove(frozenset({point})))
            except IllegalAction as refused:
                assert refused.rule.startswith(("R", "C-"))
            else:
                raise AssertionError(f"{point} was removed though not offered")
