"""The points where the seed allows more than one reading, each a named choice with the
project's default (docs/rules-mathchess.md lists them with their decision numbers)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..settings import SettingsError, changed_settings, checked_settings
from .grid import SIZES

CHOICES = {
    "placement": ("own-half", "anywhere"),
    "without_moving": ("own-operators", "any-match"),
    "after_move": ("moved-piece", "whole-board"),
    "roots": ("smallest", "every"),
    "digit_matches": ("uses-digit", "its-operators"),
}


@dataclass(frozen=True)
class MathChessSettings:
    size: int = 9
    """C-1: lines each way; 6 to 12 (the seed suggests 6 for one-operator levels, 8, 9, 10)."""
    placement: str = "own-half"
    """C-2: ``own-half`` (rows below the middle for White, above for Black) or ``anywhere``."""
    without_moving: str = "own-operators"
    """C-10/R12: ``own-operators``: without moving, the matches around the player's own
    operators (C-7); ``any-match``: also those around the opponent's operators that use one of
    their digits, which then remove that operator (the seed's two R12 examples)."""
    after_move: str = "moved-piece"
    """C-3: after a move, the matches of the moved operator (C-7) or of the moved digit (C-8)
    only; ``whole-board``: every match the player could claim."""
    digit_matches: str = "uses-digit"
    """C-8: after a digit's move, the matches that use the moved digit; ``its-operators``:
    every match around the operators the moved digit is attached to, on that line (the seed's
    R10 example 1 removes by a pair that does not use the moved digit)."""
    roots: str = "smallest"
    """C-6: a root of ``d + 10k`` for the smallest ``k`` only; ``every``: every ``k`` whose root
    is below 10 (then ``√64 = 8`` is a root of 4, as one of the seed's R11 sums needs)."""
    match_after_direct: bool = True
    """C-4: a piece that took by its move may still remove by matches where it landed."""
    time_limit: int = 1800
    """C-11: seconds of a game (30:00) before it is scored; 0 for none (the board's clock)."""

    def __post_init__(self) -> None:
        if self.size not in SIZES:
            raise SettingsError(
                f"setting size: a board of {self.size} lines; sizes are {SIZES[0]} to {SIZES[-1]}"
            )

    def with_settings(self, settings: Mapping[str, Any]) -> MathChessSettings:
        return replace(self, **checked_settings(self, settings, CHOICES))

    def changed(self) -> dict[str, Any]:
        return changed_settings(self)


DEFAULT = MathChessSettings()
