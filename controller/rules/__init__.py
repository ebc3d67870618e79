"""The rules engine: pure, exact, no I/O, no time, no hardware (docs/architecture.md).

The vocabulary, importable from here::

    from controller.rules import Game, Move
    game = Game.new("integer")
    move = game.legal_moves()[0]
    game.push(move); game.pop()
"""

from .game import Ending, EndReason, Game, IllegalMove
from .move import BLUE, RED, Chip, Move, Square, Taking, side_name
from .notation import NotationError, game_from_json, game_to_json
from .profiles import Profile, RulesProfileError, get_profile

__all__ = [
    "BLUE",
    "RED",
    "Chip",
    "EndReason",
    "Ending",
    "Game",
    "IllegalMove",
    "Move",
    "NotationError",
    "Profile",
    "RulesProfileError",
    "Square",
    "Taking",
    "game_from_json",
    "game_to_json",
    "get_profile",
    "side_name",
]
