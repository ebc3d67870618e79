"""A kind's settings check and opening with the board's clocks (``clocks.py``) added: the
clock settings read and taken out before the game's own check, and the clocks handed to the
game's table (``desk.TableDesk``) once it is open. Apart from ``clocks.py`` because the table
imports the clocks, and this joins the two."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .clocks import ClockRule, clock_rule, without_clocks
from .desk import TableDesk

if TYPE_CHECKING:
    from .kind import BoardGame, Opening


@dataclass(frozen=True)
class Timed:
    """A game's checked settings with its clocks (what ``timed``'s check gives)."""

    config: object
    clock: ClockRule | None


Check = Callable[[Mapping[str, Any], "Opening | None"], object]
Open = Callable[[Mapping[str, Any], "Opening"], "BoardGame"]


def timed(check: Check, open_game: Open, default: ClockRule) -> tuple[Check, Open]:
    """A kind's check and open with the board's clocks: the clock settings read (``clock_rule``,
    ``default``: the game's) and taken out before the game's own check, the clocks handed to
    the game's table once it is open (``TableDesk.set_clock``)."""

    def check_timed(given: Mapping[str, Any], opening: Opening | None = None) -> Timed:
        rule = clock_rule(given, default)
        return Timed(check(without_clocks(given), opening), rule)

    def open_timed(given: Mapping[str, Any], opening: Opening) -> BoardGame:
        made = opening.config if isinstance(opening.config, Timed) else check_timed(given, opening)
        game = open_game(without_clocks(given), replace(opening, config=made.config))
        desk = game.linked()
        if made.clock is not None and isinstance(desk, TableDesk):
            desk.set_clock(made.clock)
        return game

    return check_timed, open_timed
