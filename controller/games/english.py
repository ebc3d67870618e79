"""English draughts (checkers) on the 8 × 8 board: the rules engine's English rule set
(``controller/rules/draughts.py``), its opening and positions as PDN FEN, registered as a plain
draughts game. Black moves first; a side with no piece or no move loses; the third occurrence of
a position is a draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.i18n import N_
from controller.rules.game import Game
from controller.rules.pdn import fen_of
from controller.rules.pdn_game import new_game
from controller.session.draughts import DraughtsRules

from .draughts import draughts_kind
from .kind import Geometry


def _opening(settings: Mapping[str, Any]) -> Game:
    return new_game("english", None, dict(settings) or None)


def _from_json(position: dict[str, Any], settings: Mapping[str, Any]) -> Game:
    if set(position) - {"game", "fen"} or position.get("game", "english") != "english":
        raise ValueError('an English draughts position is {"game": "english", "fen": "…"}')
    fen = position.get("fen")
    if not isinstance(fen, str):
        raise ValueError("fen: the position as PDN FEN, e.g. B:W21,22,23:B1,2,3")
    return new_game("english", fen, dict(settings) or None)


def _to_json(game: Game) -> dict[str, Any]:
    return {"game": "english", "fen": fen_of(game.generator_board())}


RULES = DraughtsRules(
    name="english",
    title=N_("English draughts"),
    colours=("black", "white"),
    opening=_opening,
    from_json=_from_json,
    to_json=_to_json,
)

ENGLISH = draughts_kind(RULES, Geometry(8), ())
