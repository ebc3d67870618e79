"""The games of the board, in one registry, as python-chess keeps its variants in one list:
``GAMES`` names each game, ``find_game(name)`` finds one, ``game_of_journal(records)`` says
which game a journal holds. Everything above the rules engine that runs a game (the scan loop,
the service, the simulator, ``selftest``, the keeper of finished games) asks here and talks to a
``BoardGame``; none names a game. A new game registers one line below
(docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.i18n import _

from .dadama import DADAMA
from .dam import DAM
from .damath import DAMATH
from .english import ENGLISH
from .kind import BoardGame, GameKind, Geometry, Opening, Outputs, Record
from .mathchess import MATHCHESS

GAMES: dict[str, GameKind] = {kind.name: kind for kind in (DAMATH, DADAMA, DAM, MATHCHESS, ENGLISH)}
"""Every game the board plays, by name; the first is a profile's default."""
DEFAULT = DAMATH.name


def find_game(name: object) -> GameKind:
    """The game called ``name``; ValueError listing the games for any other."""
    kind = GAMES.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ValueError(
            _("unknown game {name!r}; the board plays {games}").format(
                name=name, games=", ".join(GAMES)
            )
        )
    return kind


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
