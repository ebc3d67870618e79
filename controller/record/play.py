"""How a game is played: a tournament game by the rules, or practice in a class.

Practice changes what the rules of a tournament do not allow: clocks off (or longer, with the
rule settings ``move_seconds`` and ``game_seconds``), players taking back their own move without
the arbiter, and the capture preview (a lifted chip's landing squares show what each taking would
score). Outside practice those helps are always off, whatever was asked: a tournament board never
shows a score before the move.

``run --set practice=true --set clocks=off`` and ``sim --set …`` use the same names as the
simulator's page; the setting travels in the journal with the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from controller.i18n import _

CHOICES: dict[str, tuple[str, ...]] = {
    "clocks": ("on", "off"),
    "takeback": ("arbiter", "players"),
    "computer": ("off", "blue", "red"),
}
RANGES: dict[str, tuple[int, int]] = {"level": (1, 8)}


class PlayError(ValueError):
    """A play setting that does not exist or a value it cannot take."""


@dataclass(frozen=True)
class PlaySettings:
    practice: bool = False
    """A practice game: the helps below may be turned on."""
    clocks: str = "on"
    """``on``: the rules' clocks; ``off`` (practice only): no time limit, no reminder."""
    takeback: str = "arbiter"
    """``arbiter``: only the arbiter takes a move back; ``players`` (practice): the players too."""
    capture_preview: bool = False
    """Practice only: a lifted chip's landing squares show what each taking would score."""
    computer: str = "off"
    """Practice only: the side the computer plays (``blue``, ``red``) or ``off``."""
    level: int = 4
    """The computer's level, 1 (beginner) to 8 (full strength): docs/engine.md."""
    hints: bool = False
    """Practice only: the players may ask the board for a hint."""

    @property
    def computer_side(self) -> int | None:
        """The side the computer plays (0 Blue, 1 Red), None when nobody plays the computer."""
        if not self.practice or self.computer == "off":
            return None
        return 0 if self.computer == "blue" else 1

    @property
    def hints_on(self) -> bool:
        return self.practice and self.hints

    @property
    def timed(self) -> bool:
        return not (self.practice and self.clocks == "off")

    @property
    def preview(self) -> bool:
        return self.practice and self.capture_preview

    @property
    def players_take_back(self) -> bool:
        return self.practice and self.takeback == "players"

    def json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def with_changes(self, changes: Mapping[str, Any]) -> PlaySettings:
        """A copy with some settings changed; unknown names and wrong values are refused."""
        known = {f.name for f in fields(self)}
        out: dict[str, Any] = {}
        for key, raw in changes.items():
            if key not in known:
                raise PlayError(
                    _("unknown play setting {key!r}; play settings are: {join}").format(
                        key=key, join=", ".join(sorted(known))
                    )
                )
            current = getattr(self, key)
            if key in RANGES:
                lo, hi = RANGES[key]
                if isinstance(raw, bool) or not isinstance(raw, int | str):
                    raise PlayError(f"play setting {key}: expected a whole number {lo}-{hi}")
                number = int(raw) if str(raw).strip().isdigit() else None
                if number is None or not lo <= number <= hi:
                    raise PlayError(f"play setting {key}: expected a whole number {lo}-{hi}")
                out[key] = number
            elif isinstance(current, bool):
                if not isinstance(raw, bool):
                    raise PlayError(
                        _("play setting {key}: expected true or false, got {raw!r}").format(
                            key=key, raw=raw
                        )
                    )
                out[key] = raw
            elif isinstance(raw, bool) and set(CHOICES[key]) == {"on", "off"}:
                out[key] = "on" if raw else "off"  # the command line reads on/off as booleans
            elif raw not in CHOICES[key]:
                raise PlayError(
                    _("play setting {key}: {raw!r} is not one of {join}").format(
                        key=key, raw=raw, join=", ".join(CHOICES[key])
                    )
                )
            else:
                out[key] = raw
        return replace(self, **out)


NAMES = tuple(f.name for f in fields(PlaySettings))


def parse(raw: Mapping[str, Any] | None) -> PlaySettings:
    return PlaySettings().with_changes(raw or {})
