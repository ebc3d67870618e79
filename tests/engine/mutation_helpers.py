"""What the engine's mutation tests (test_mutants_position.py, test_mutants_search*.py) build
their positions from: a game of a few chips placed by hand, and positions of random games."""

from __future__ import annotations

import random

from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.notation import game_from_json

Piece = tuple[tuple[int, int], str, str, bool]
"""(square, side, value, dama), e.g. ((2, 3), "blue", "2", False)."""


def chips_game(
    to_move: str, pieces: list[Piece], variant: str = "integer", profile: str | None = None
) -> Game:
    """A game of the given chips only, ``to_move`` ("blue" or "red") to play."""
    data: dict[str, object] = {
        "variant": variant,
        "to_move": to_move,
        "pieces": [
            {"square": list(square), "side": side, "value": value, "dama": dama}
            for square, side, value, dama in pieces
        ],
    }
    if profile is not None:
        data["profile"] = profile
    return game_from_json(data)


def random_positions(seed: int, count: int) -> list[Game]:
    """Positions of random games in every variant, some with takings to make, some endings."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        variant = rng.choice(damath_data.VARIANTS)
        game = Game.new(variant, rng.choice(("official", "online")))
        for _ in range(rng.randrange(6, 70)):
            if game.ending() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        if game.ending() is None:
            out.append(game)
    return out


GAMES = random_positions(23, 10)
"""The positions the search's mutation tests (test_mutants_search*.py) ask about."""
