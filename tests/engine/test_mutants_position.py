"""The search's position, where mutation testing found slips the first tests let through
(bench/mutation.sh engine-position): a position read from a game in the middle (takings made,
damas crowned, moves that repeat) must be the one the search reaches by playing the same moves
from the start, key for key; repetitions inside the search and in the game end it as the rules
say; a snapshot restores everything; Red's view of a position is Blue's negated."""

from __future__ import annotations

import random

import pytest

from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position, game_totals
from controller.rules import damath_data
from controller.rules.game import EndReason, Game
from controller.rules.values import Sqrt2

from .mutation_helpers import chips_game
from .test_position import exact_grand_difference, raw_for


def state(pos: Position) -> dict:
    return {
        "cells": list(pos.cells),
        "values": [pos.tables.values[v] if v >= 0 else None for v in pos.vid],
        "side": pos.side,
        "zob": pos.zob,
        "key": pos.key(),
        "grand": pos.grand,
        "totd": pos.totd,
        "psq": pos.psq,
        "count": list(pos.count),
        "quiet": list(pos.quiet_run),
        "evaluate": pos.evaluate(),
    }


def played_games(seed: int, plies: int):
    """Games of every variant and profile played at random, with the game at each ply."""
    rng = random.Random(seed)
    for variant in damath_data.VARIANTS:
        for profile in ("official", "online"):
            game = Game.new(variant, profile)
            moves = []
            for _ in range(plies):
                if game.ending() is not None:
                    break
                legal = game.legal_moves()
                # damas walk back and forth when they can: positions repeat
                dama = [m for m in legal if m.chip is not None and m.chip.dama and not m.captures]
                move = rng.choice(dama if dama and rng.random() < 0.7 else legal)
                moves.append(move)
                game.push(move)
            yield variant, profile, moves


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_a_position_read_from_a_game_is_the_one_its_moves_reach(seed):
    checked = 0
    for variant, profile, moves in played_games(seed, 140):
        game = Game.new(variant, profile)
        start = Position.from_game(game, DEFAULT_WEIGHTS)
        for n, move in enumerate(moves):
            start.make(raw_for(start, move))
            game.push(move)
            if n % 7 and n != len(moves) - 1:
                continue
            read = Position.from_game(game, DEFAULT_WEIGHTS)
            if read.tables.values != start.tables.values:
                continue  # the tables of a game's start list every value it began with
            assert state(read) == state(start), (variant, profile, n)
            assert read.rep == start.rep[start.rep_start :], (variant, profile, n)
            assert read.grand == read.tables.key(exact_grand_difference(game))
            ending = game.ending()
            reason = ending.reason if ending is not None else None
            if reason in (None, EndReason.REPETITION):
                at_root = read.terminal(at_root=True)
                assert (at_root is not None) == (reason == EndReason.REPETITION)
            checked += 1
    assert checked > 100


def test_the_transposition_key_is_the_placement_and_the_takings_so_far():
    game = Game.new("integer")
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    assert pos.totd == 0 and pos.key() == pos.zob
    rng = random.Random(3)
    while not any(m.captures for m in game.legal_moves()):
        game.push(rng.choice(game.legal_moves()))
    taking = next(m for m in game.legal_moves() if m.captures)
    game.push(taking)
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    totals = game_totals(game)
    assert pos.totd == pos.tables.key(totals[0] - totals[1]) != 0
    assert pos.key() != pos.zob
    other = Position.from_game(game, DEFAULT_WEIGHTS, (totals[1], totals[0]))
    assert other.zob == pos.zob and other.key() != pos.key()


def test_totals_given_with_a_position_count_for_each_side():
    game = chips_game("red", [((1, 0), "blue", "2", False), ((6, 7), "red", "-3", False)])
    plain = Position.from_game(game, DEFAULT_WEIGHTS)
    given = Position.from_game(game, DEFAULT_WEIGHTS, (Sqrt2(7, 0).a, Sqrt2(2, 0).a))
    key = given.tables.key
    assert given.totd == key(7) - key(2) and plain.totd == 0
    assert given.grand - plain.grand == key(5)
    # Red to move: its evaluation is Blue's negated
    assert given.evaluate() == -(given.grand + given.psq)
    assert given.final() == -given.grand


def test_a_radical_game_totals_are_radical_numbers_from_the_start():
    blue, red = game_totals(Game.new("radical"))
    assert isinstance(blue, Sqrt2) and isinstance(red, Sqrt2) and blue == red == Sqrt2(0, 0)


def test_only_damath_games_have_a_position():
    game = Game.new("integer")
    game.variant = None
    with pytest.raises(ValueError) as info:
        Position.from_game(game, DEFAULT_WEIGHTS)
    assert str(info.value) == "the engine plays Damath: a game with a variant and a profile"


def test_a_side_without_chips_has_lost_and_says_so():
    game = chips_game("blue", [((2, 3), "blue", "2", False), ((3, 4), "red", "-3", False)])
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    (taking,) = pos.moves()
    pos.make(taking)
    assert pos.terminal() is not None and pos.terminal().reason == EndReason.NO_CHIPS


def dama_game(profile: str = "official") -> Game:
    return chips_game(
        "blue",
        [
            ((0, 1), "blue", "2", True),
            ((7, 0), "blue", "5", False),
            ((7, 6), "red", "-3", True),
            ((0, 7), "red", "9", False),
        ],
        profile=profile,
    )


def step(pos: Position, game: Game, a, b) -> None:
    move = game.find_move([a, b])
    pos.make(raw_for(pos, move))
    game.push(move)


def test_a_cycle_inside_the_search_ends_it_and_one_at_the_root_does_not():
    game = dama_game()
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    step(pos, game, (0, 1), (1, 2))
    step(pos, game, (7, 6), (6, 5))
    step(pos, game, (1, 2), (0, 1))
    assert pos.terminal() is None
    step(pos, game, (6, 5), (7, 6))  # back where the search began: a cycle
    assert pos.terminal() is not None and pos.terminal().reason == EndReason.REPETITION
    assert pos.terminal(at_root=True) is None  # the game has seen it twice, not three times
    assert game.ending() is None


def test_the_games_own_repetitions_count_toward_the_third():
    game = dama_game()
    for _ in range(2):
        for a, b in (((0, 1), (1, 2)), ((7, 6), (6, 5)), ((1, 2), (0, 1)), ((6, 5), (7, 6))):
            game.push(game.find_move([a, b]))
    assert game.ending().reason == EndReason.REPETITION
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    assert pos.terminal(at_root=True).reason == EndReason.REPETITION
    game.pop()
    before = Position.from_game(game, DEFAULT_WEIGHTS)
    assert before.terminal(at_root=True) is None
    step(before, game, (6, 5), (7, 6))
    assert before.terminal(at_root=True).reason == EndReason.REPETITION


def test_online_a_lone_chip_that_only_walks_ends_the_game():
    game = chips_game(
        "blue",
        [((0, 1), "blue", "2", True), ((7, 0), "blue", "5", False), ((7, 6), "red", "-3", True)],
        profile="online",
    )
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    walks = [((0, 1), (1, 2)), ((7, 6), (6, 5)), ((1, 2), (0, 1)), ((6, 5), (7, 6))]
    for n in range(10):
        if pos.terminal(at_root=True) is not None:
            break
        a, b = walks[n % 4]
        step(pos, game, a, b)
    assert pos.terminal(at_root=True).reason == EndReason.REPETITION
    assert pos.quiet_run[1] == 5 and game.ending().reason == EndReason.REPETITION
    again = Position.from_game(game, DEFAULT_WEIGHTS)
    assert again.quiet_run == pos.quiet_run
    assert again.terminal(at_root=True).reason == EndReason.REPETITION


def test_a_snapshot_restores_everything_the_moves_changed():
    rng = random.Random(5)
    game = Game.new("rational")
    for _ in range(30):
        game.push(rng.choice(game.legal_moves()))
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    before = (state(pos), list(pos.rep), pos.rep_start)
    snap = pos.snapshot()
    for _ in range(12):
        moves = pos.moves()
        if not moves or pos.terminal() is not None:
            break
        pos.make(rng.choice(moves))
    pos.restore(snap)
    assert (state(pos), list(pos.rep), pos.rep_start) == before
