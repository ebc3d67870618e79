"""Dam, the 12×12 draughts of Sri Lanka (docs/rules-dam.md), as a rule set of the generic core.

The movement is data (``draughts.DAM``); this module adds what a game needs on top of it: the
settings where the seed leaves English draughts to decide (each one a named choice), the end of
the game with the draw by quiet moves, and the colour names (Black moves first, as in English
draughts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .draughts import DAM, start_cells
from .game import Ending, EndReason, Game
from .geometry import geometry
from .move import Chip, Square
from .movegen import KING
from .ruleset import Priority, RuleSet
from .settings import changed_settings, checked_settings

COLOURS = ("black", "white")
"""Side 0 (moves first, sits at ``y = 0``) is Black, as in English draughts (ME-2)."""

PRIORITIES = {"any": Priority.ANY, "most": Priority.MOST}
REPETITION = ("threefold", "off")
CHOICES = {"capture_priority": tuple(PRIORITIES), "repetition": REPETITION}


@dataclass(frozen=True)
class DamSettings:
    """Every point where the seed falls back to English draughts and another reading exists."""

    capture_priority: str = "any"
    """M-3: ``any`` (English: the player chooses among all takings) or ``most`` (the takings of
    the most pieces, as in the Polish game the seed compares Dam with)."""
    crowning_ends_move: bool = True
    """M-4: a man reaching the far row during a taking is crowned and stops (English); false: it
    goes on as a man and is crowned only where the move ends (International)."""
    quiet_move_limit: int = 50
    """M-9: a draw when this many moves of each side pass with no taking and no man moved;
    0 turns the rule off."""
    repetition: str = "threefold"
    """M-9: ``threefold`` (the third occurrence of a position is a draw) or ``off``."""

    def with_settings(self, settings: Mapping[str, Any]) -> DamSettings:
        return replace(self, **checked_settings(self, settings, CHOICES))

    def changed(self) -> dict[str, Any]:
        """The settings that differ from the defaults, for records and positions."""
        return changed_settings(self)


DEFAULT = DamSettings()


def dam_rules(settings: DamSettings = DEFAULT) -> RuleSet:
    return replace(
        DAM.rules,
        priority=PRIORITIES[settings.capture_priority],
        crowning_ends_capture=settings.crowning_ends_move,
    )


class DamEnding(Ending):
    """An ending told with Dam's colours; ``quiet-moves`` is the draw of M-9."""

    def describe(self) -> str:
        who = COLOURS[self.side].capitalize()
        return {
            EndReason.NO_CHIPS: f"{who} has no piece left",
            EndReason.NO_MOVES: f"{who} cannot move",
            EndReason.REPETITION: "the same position occurred a third time (draw)",
            EndReason.QUIET_MOVES: "moves without a taking or a man moved reached the limit (draw)",
        }[self.reason]

    @property
    def winner(self) -> int | None:
        """The side that won, None for a draw."""
        return 1 - self.side if self.reason in (EndReason.NO_CHIPS, EndReason.NO_MOVES) else None


class DamGame(Game):
    """A Dam game: ``Game`` (legal moves, push, pop, repetition) with Dam's rules and endings."""

    def __init__(
        self,
        pieces: Mapping[Square, Chip],
        to_move: int = 0,
        settings: DamSettings = DEFAULT,
    ) -> None:
        super().__init__(dam_rules(settings), pieces, to_move)
        self.settings = settings

    @classmethod
    def opening(cls, settings: DamSettings = DEFAULT) -> DamGame:
        """Thirty men a side on the first five rows (M-1), Black to move."""
        geo = geometry(DAM.rules.size, DAM.rules.parity)
        pieces = {
            geo.squares[i]: Chip(0 if c > 0 else 1, None, abs(c) == KING)
            for i, c in enumerate(start_cells(DAM))
            if c
        }
        return cls(pieces, 0, settings)

    def copy(self) -> DamGame:
        return DamGame(self.chips(), self.side_to_move, self.settings)

    def quiet_run(self) -> int:
        """Moves in a row, at the end of the game so far, with no taking and no man moved."""
        run = 0
        for move in reversed(self._moves):
            if move.captures or move.chip is None or not move.chip.dama:
                break
            run += 1
        return run

    def ending(self) -> DamEnding | None:
        ending = super().ending()
        if ending is None:
            limit = self.settings.quiet_move_limit
            if limit and self.quiet_run() >= 2 * limit:
                return DamEnding(EndReason.QUIET_MOVES, self.side_to_move)
            return None
        return DamEnding(ending.reason, ending.side)

    def _repetition_reached(self) -> bool:
        return self.settings.repetition == "threefold" and self.repetitions() >= 3

    def __repr__(self) -> str:
        return f"<DamGame ply={self.ply} to_move={COLOURS[self.side_to_move]}>"
