"""Dam, the 12 × 12 draughts of Sri Lanka, on the board (docs/rules-dam.md): a plain draughts
game with its own rules, settings and JSON position (``controller/rules/dam*.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.i18n import N_
from controller.rules.dam import COLOURS, DEFAULT, DamGame
from controller.rules.dam_notation import dam_from_json, dam_to_json
from controller.rules.game import Game
from controller.session.draughts import DraughtsRules

from .draughts import draughts_kind
from .kind import Geometry


def _opening(settings: Mapping[str, Any]) -> Game:
    return DamGame.opening(DEFAULT.with_settings(settings))


def _from_json(position: dict[str, Any], settings: Mapping[str, Any]) -> Game:
    return dam_from_json({**position, "settings": dict(settings)})


def _to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, DamGame)
    return dam_to_json(game)


RULES = DraughtsRules(
    name="dam",
    title=N_("Dam"),
    colours=COLOURS,
    opening=_opening,
    from_json=_from_json,
    to_json=_to_json,
)

DAM = draughts_kind(
    RULES,
    Geometry(12),
    ("capture_priority", "crowning_ends_move", "quiet_move_limit", "repetition"),
)
