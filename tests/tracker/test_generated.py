"""Property: a legal game played by realistic hands (generator.human_trace) replays to the same
game, move for move and score for score, in every variant and both profiles."""

from __future__ import annotations

import random

import pytest

from controller.cli.replay import move_score, replay_trace
from controller.rules.damath_data import VARIANTS
from controller.rules.game import Game
from controller.tracker.generator import human_trace, random_game
from controller.tracker.trace import header_line, read_trace

GAMES_PER_VARIANT = 30
MUTATION_VARIANT = "integer"
"""Its games stay at 100: bench/mutation.sh's tracker run reads only this variant's (the
tracker moves chips alike in every variant). The other variants' 100 and more are the soak's:
``bench/soak_human_traces.py`` (docs/testing.md)."""
PLIES = 40


def replay_differences(variant: str, seeds: range) -> list[str]:
    """Each seed whose game, played by realistic hands and read back by the tracker, is not
    the game played, move for move and score for score."""
    wrong: list[str] = []
    for seed in seeds:
        rng = random.Random(f"{variant}-{seed}")
        profile = "online" if seed % 2 else "official"
        game = Game.new(variant, profile)
        moves = random_game(game, PLIES, rng)
        lines = human_trace(game, moves, rng, header=header_line(variant, profile))
        got = [m for _, m in replay_trace(read_trace(lines)).moves]
        if got != moves or [move_score(m, variant) for m in got] != [
            move_score(m, variant) for m in moves
        ]:
            wrong.append(f"{variant} seed {seed}")
    return wrong


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_human_traces_replay_to_the_original_game(variant: str) -> None:
    games = 100 if variant == MUTATION_VARIANT else GAMES_PER_VARIANT
    assert replay_differences(variant, range(games)) == []


def test_long_games_reach_damas_and_still_replay() -> None:
    """Long games make damas, long moves and D-5 ambiguities; they must replay too."""
    promoted = 0
    for seed in range(12):
        rng = random.Random(f"long-{seed}")
        variant = VARIANTS[seed % len(VARIANTS)]
        game = Game.new(variant)
        moves = random_game(game, 150, rng)
        promoted += sum(m.promotes for m in moves)
        rep = replay_trace(read_trace(human_trace(game, moves, rng, header=header_line(variant))))
        assert [m for _, m in rep.moves] == moves, f"{variant} seed {seed}"
    assert promoted > 0
