"""What a simulated table needs of the board it stands on (``engine.SimBoard``): its clock, its
game, the mock hands that press and set chips, and a pass of the scan loop after each change.
A Protocol, so that the tables and the board they belong to import each other in one direction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.games import BoardGame, GameKind
from drivers.factory import MockControls


class TableBoard(Protocol):
    clock: Callable[[], float]
    game: BoardGame
    hands: MockControls

    @property
    def kind(self) -> GameKind: ...

    def sense(self, force: bool = False) -> None: ...
