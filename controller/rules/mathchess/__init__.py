"""Mathematical Chess: digit and operator pieces on the points of a grid, removing each other by
arithmetic (docs/rules-mathchess.md). Pure and exact: no I/O, integers only.

    from controller.rules.mathchess import Position, Place, Move, Remove, Done
    position = Position.start()                  # Prepare now!, White to place
    position = position.apply(Place("+", (4, 1)))
    ...
    position.removal_options()                   # what the player may remove now, and why
"""

from .arithmetic import PartialValue, key, partial_values
from .board import Board
from .conditions import LEVELS, Conditions, ConditionsError, from_level, own_level
from .grid import Point, point_text
from .matches import Match, Scope
from .moves import Move
from .notation import NotationError, position_from_json, position_to_json
from .pieces import BLACK, SIDES, WHITE, Op, Piece, digit, operator
from .position import (
    Action,
    Done,
    Ending,
    IllegalAction,
    Pass,
    Phase,
    Place,
    Position,
    Remove,
    Stop,
    TurnState,
)
from .record import MathChessGame, TurnRecord, game_from_record
from .settings import DEFAULT, MathChessSettings
from .turns import (
    Turn,
    explain,
    perft,
    play_turn,
    removal_sets,
    still_removable,
    still_removable_rules,
    turns,
)

__all__ = [
    "BLACK",
    "DEFAULT",
    "LEVELS",
    "SIDES",
    "WHITE",
    "Action",
    "Board",
    "Conditions",
    "ConditionsError",
    "Done",
    "Ending",
    "IllegalAction",
    "Match",
    "MathChessGame",
    "MathChessSettings",
    "Move",
    "NotationError",
    "Op",
    "PartialValue",
    "Pass",
    "Phase",
    "Piece",
    "Place",
    "Point",
    "Position",
    "Remove",
    "Scope",
    "Stop",
    "Turn",
    "TurnRecord",
    "TurnState",
    "digit",
    "explain",
    "from_level",
    "game_from_record",
    "key",
    "operator",
    "own_level",
    "partial_values",
    "perft",
    "play_turn",
    "point_text",
    "position_from_json",
    "position_to_json",
    "removal_sets",
    "still_removable",
    "still_removable_rules",
    "turns",
]
