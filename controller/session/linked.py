"""What a tournament hub's link drives on a board, whatever its game: Damath's ``Session``, or
another game's table (``games.desk.TableDesk``). The link reads how far the game is (its
journal's count, its plies, whether it is over, the round it started in) and gives it the
assignment's players, the clocks' hold and the desk's start and pause; each game answers
through these names and nothing else (mypy holds both to them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Counted(Protocol):
    """The game's journal, as the link watches it grow."""

    @property
    def count(self) -> int: ...


class Started(Protocol):
    """The table's state: the assignment whose round started its clocks, if any."""

    @property
    def started_asg(self) -> str | None: ...


class Played(Protocol):
    @property
    def ply(self) -> int: ...


class Linked(Protocol):
    @property
    def journal(self) -> Counted | None: ...
    @property
    def state(self) -> Started: ...
    @property
    def game(self) -> Played: ...
    @property
    def phase(self) -> str: ...
    @property
    def info(self) -> Mapping[str, str]: ...
    def set_info(self, t: float, changes: dict[str, str]) -> None: ...
    def expect_assignment(self, asg: str) -> None: ...
    def hold_clocks(self, t: float, until: str, asg: str | None = None) -> bool: ...
    def desk_start(self, t: float, asg: str) -> bool: ...
    def desk_pause(self, t: float, pause: bool) -> bool: ...
