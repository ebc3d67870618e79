"""Build positions for rule tests the way a teacher draws them: square -> chip."""

from __future__ import annotations

from typing import Any

from controller.rules.game import Game
from controller.rules.notation import game_from_json


def make_game(
    pieces: dict[tuple[int, int], str],
    to_move: str = "blue",
    variant: str = "integer",
    profile: str = "official",
    **settings: Any,
) -> Game:
    """``pieces`` maps a square to ``"b"``/``"r"`` (a chip) or ``"B"``/``"R"`` (a dama),
    optionally with a value: ``"b:-9"``. The default value is 2."""
    listed = []
    for (x, y), spec in pieces.items():
        code, _, value = spec.partition(":")
        listed.append(
            {
                "square": [x, y],
                "side": "blue" if code.lower() == "b" else "red",
                "value": value or "2",
                "dama": code.isupper(),
            }
        )
    position: dict[str, Any] = {
        "variant": variant,
        "profile": profile,
        "to_move": to_move,
        "pieces": listed,
    }
    if settings:
        position["settings"] = settings
    return game_from_json(position)


def paths(game: Game) -> set[tuple[tuple[int, int], ...]]:
    return {m.path for m in game.legal_moves()}
