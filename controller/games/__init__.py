"""The games of the board as the board runs them: ``GAMES`` holds each registered game's
``GameKind`` (``controller.registry`` lists them, one line each), ``find_game(name)`` finds one,
``game_of_journal(records)`` says which game a journal holds. Everything above the rules engine
that runs a game (the scan loop, the service, the simulator, ``selftest``, the keeper of
finished games) asks here and talks to a ``BoardGame``; none names a game
(docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache

from controller import registry

from .kind import BoardGame, GameKind, Geometry, Opening, Outputs, Record


@cache
def kinds() -> dict[str, GameKind]:
    """Every game the board plays, by name, in the registry's order (the first is a profile's
    default): each loaded on first use, so that a game's record reader in its folder
    (``controller/games/<name>/``) is read by the hub without loading every game's board."""
    found: dict[str, GameKind] = {}
    for entry in registry.ENTRIES:
        kind = entry.load_board()
        assert isinstance(kind, GameKind) and kind.name == entry.name, entry
        found[entry.name] = kind
    return found


class _Kinds(Mapping[str, GameKind]):
    """``GAMES``: the registry's games as the board runs them, each loaded on first use."""

    def __getitem__(self, name: str) -> GameKind:
        return kinds()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(kinds())

    def __len__(self) -> int:
        return len(kinds())


GAMES: Mapping[str, GameKind] = _Kinds()
"""Every game the board plays, by name, in the registry's order; the first is a profile's
default."""


DEFAULT = registry.DAMATH


def find_game(name: object) -> GameKind:
    """The game called ``name``; ValueError listing the games for any other."""
    return kinds()[registry.entry(name).name]


def game_of_journal(records: Sequence[Record]) -> GameKind | None:
    """The game a journal holds, known by its first record; None for an empty journal or one
    no game owns."""
    if not records:
        return None
    return next((kind for kind in kinds().values() if kind.owns(records[0])), None)


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
    "kinds",
]
