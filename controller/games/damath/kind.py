"""Damath on the board, its folder: the kind (its settings checked, a game opened or resumed,
its journal known), one game on a board (``game.py``) and the puzzle mode (``puzzle.py``: a
puzzle of the class's store set up, judged and kept)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller import registry
from controller.games.kind import GameKind, Geometry, Opening, Record
from controller.record.games import DAMATH as NAME
from controller.rules import variants

from . import puzzle
from .game import DamathGame

if TYPE_CHECKING:
    from controller.session import SessionConfig

CHOSEN = ("variant", "rules")
"""Settings that choose the game rather than set it: the variant and the rules profile."""


def config(settings: Mapping[str, Any], opening: Opening | None = None) -> SessionConfig:
    """A Damath game's config from its settings (the variant, the rules profile, the rule,
    play and event settings, by name); ValueError names what is wrong."""
    from controller.session import SessionConfig

    given = dict(settings)
    variant = given.pop("variant", "integer")
    rules = given.pop("rules", "official")
    for name, value in (("variant", variant), ("rules", rules)):
        if not isinstance(value, str):
            raise ValueError(f"{name}: a name, not {value!r}")
    carried: dict[str, Any] = dict(opening.carried) if opening is not None else {}
    made = SessionConfig(
        variant=variant,
        rules=rules,
        rule_settings=given,
        tracker_settings=dict(opening.tracker) if opening is not None else {},
        position=opening.position if opening is not None else None,
        info=dict(carried.get("info") or {}),
        roster=opening.roster if opening is not None else None,
    )
    made.profile()  # a wrong rule setting or variant fails here, clearly
    variants.get_variant(made.variant)
    return made


def check(settings: Mapping[str, Any], opening: Opening | None = None) -> object:
    """The settings of a game (``config``), or of a puzzle (``puzzle``, ``child``: the puzzle
    mode, ``puzzle.py``)."""
    if puzzle.wanted(settings):
        return puzzle.check(settings, opening)
    return config(settings, opening)


def open_damath(settings: Mapping[str, Any], opening: Opening) -> DamathGame:
    from controller.coach.board import BoardCoach
    from controller.session import Session

    if isinstance(opening.config, puzzle.PuzzleRequest) or (
        opening.config is None and puzzle.wanted(settings)
    ):
        return puzzle.open_puzzle(settings, opening, DAMATH)

    made = opening.config if opening.config is not None else config(settings, opening)
    if opening.journal is None:
        session = Session.start(made, opening.t)
    else:
        session = Session.open(made, str(opening.journal), opening.t, sync=opening.sync)
    session.wall = opening.wall or time.time
    return DamathGame(DAMATH, session, BoardCoach())


def owns(first: Record) -> bool:
    from controller.record.games import game_of

    return game_of(first) == NAME


DAMATH = GameKind(
    name=NAME,
    title=registry.GAMES[NAME].title,
    geometry=Geometry(8),
    table="chips",
    renderer="damath",
    check=check,
    open=open_damath,
    owns=owns,
    settings=(
        "variant",
        "rules",
        "practice",
        "clocks",
        "computer",
        "level",
        "hints",
        "puzzle",
        "child",
    ),
    clocks=True,
    variants=variants.NAMES,
    dated=True,
    stops=("tally",),
)


__all__ = ["DAMATH", "DamathGame", "check", "config", "open_damath", "owns"]
