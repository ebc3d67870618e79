"""Dam's records: its rules on the board (the 12 × 12 draughts of Sri Lanka, docs/rules-dam.md:
its settings and JSON position) and the reader the hub and the link apply its records with.
Pure: the rules engine and the records' shared machinery only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller import registry
from controller.games.draughts.record import DraughtsRecorded, DraughtsRules
from controller.record.games import Recorded
from controller.rules.dam import COLOURS as DAM_COLOURS
from controller.rules.dam import DEFAULT as DAM_DEFAULT
from controller.rules.dam import DamGame
from controller.rules.dam_notation import dam_from_json, dam_to_json
from controller.rules.game import Game


def _dam_opening(settings: Mapping[str, Any]) -> Game:
    return DamGame.opening(DAM_DEFAULT.with_settings(settings))


def _dam_from_json(position: dict[str, Any], settings: Mapping[str, Any]) -> Game:
    return dam_from_json({**position, "settings": dict(settings)})


def _dam_to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, DamGame)
    return dam_to_json(game)


RULES = DraughtsRules(
    name="dam",
    title=registry.GAMES["dam"].title,
    colours=DAM_COLOURS,
    opening=_dam_opening,
    from_json=_dam_from_json,
    to_json=_dam_to_json,
)
"""Dam, the 12 × 12 draughts of Sri Lanka (docs/rules-dam.md)."""


def recorded() -> Recorded:
    """A new reader of a Dam game's records (``controller.registry``'s entry)."""
    return DraughtsRecorded(RULES)
