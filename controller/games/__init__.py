"""The games of the board as the board runs them: ``GAMES`` holds each registered game's
``GameKind`` (``controller.registry`` lists them, one line each), ``find_game(name)`` finds one,
``game_of_journal(records)`` says which game a journal holds. Everything above the rules engine
that runs a game (the scan loop, the service, the simulator, ``selftest``, the keeper of
finished games) asks here and talks to a ``BoardGame``; none names a game
(docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller import registry

from .kind import BoardGame, GameKind, Geometry, Opening, Outputs, Record


def _kinds() -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = {}
    for entry in registry.ENTRIES:
        kind = entry.load_board()
        assert isinstance(kind, GameKind) and kind.name == entry.name, entry
        kinds[entry.name] = kind
    return kinds


GAMES: dict[str, GameKind] = _kinds()
"""Every game the board plays, by name, in the registry's order; the first is a profile's
default."""
DEFAULT = registry.DAMATH


def find_game(name: object) -> GameKind:
    """The game called ``name``; ValueError listing the games for any other."""
    return GAMES[registry.entry(name).name]


def game_of_journal(records: Sequence[Record]) -> GameKind | None:
    """The game a journal holds, known by its first record; None for an empty journal or one
    no game owns."""
    if not records:
        return None
    return next((kind for kind in GAMES.values() if kind.owns(records[0])), None)


__all__ = [
    "DEFAULT",
    "GAMES",
    "BoardGame",
    "GameKind",
    "Geometry",
    "Opening",
    "Outputs",
    "find_game",
    "game_of_journal",
]
