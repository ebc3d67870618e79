"""The board's clocks for every game but Damath (whose session keeps its own, ``session/
round_clocks.py``): a game time for each side and, where the game wants it, a move time, run for
the side to move. Built from the same pure clocks as Damath's (``session.clocks.ArbiterClocks``,
one per side), so time is never counted tick by tick and a deadline falls at its exact instant.

Set per game with Damath's names: ``clocks`` (``on``, ``off``), ``game_seconds`` (each side's
game time) and ``move_seconds`` (``0``: no move time); each game's defaults are its kind's
``clock_rule`` and are written in its rules page. The table (``games.desk.TableDesk``) runs
them: held until the table is confirmed and started from the desk, stopped while paused or in
the arbiter's menu, a ``table`` record ``clock`` journaled at every move and every
``CHECKPOINT`` seconds so a restart resumes the time left, and a flag (a side's game time or
move time over) ends the game: the side that flagged loses, or, in a game whose points decide
(its stop is ``points``), the points decide.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.i18n import _
from controller.session.clocks import ArbiterClocks, clock_text

NAMES = ("clocks", "game_seconds", "move_seconds")
"""The clock settings, Damath's names."""
CHECKPOINT = 10.0
"""While time runs, the clocks are journaled this often: the most a power cut gives back."""
NO_CLOCK = "--:--"
LIMIT = 24 * 3600
"""A day at most, as Damath's profile settings."""


@dataclass(frozen=True)
class ClockRule:
    """A game's clocks: each side's game time, and its move time (None: none)."""

    game_seconds: int
    move_seconds: int | None = None
    warn_seconds: int = 10


def _seconds(name: str, raw: object, least: int) -> int:
    text = str(raw).strip()
    if not text.isdigit() or not least <= int(text) <= LIMIT:
        raise ValueError(
            _("{name}={value}: a whole number of seconds, {least} to {most}").format(
                name=name, value=str(raw)[:20], least=least, most=LIMIT
            )
        )
    return int(text)


def clock_rule(given: Mapping[str, Any], default: ClockRule | None) -> ClockRule | None:
    """The clocks the settings ask for (None: ``clocks=off``, or a game without clocks);
    ValueError, one line, for a value they cannot take."""
    on = str(given.get("clocks", "on")).strip().lower()
    if on not in ("on", "off"):
        raise ValueError(_("clocks={value}: on or off").format(value=str(given["clocks"])[:20]))
    if on == "off" or default is None:
        return None
    game = default.game_seconds
    move = default.move_seconds
    if "game_seconds" in given:
        game = _seconds("game_seconds", given["game_seconds"], 1)
    if "move_seconds" in given:
        move = _seconds("move_seconds", given["move_seconds"], 0) or None
    warn = min(default.warn_seconds, move - 1) if move else 0
    return ClockRule(game, move, max(0, warn))


def without_clocks(given: Mapping[str, Any]) -> dict[str, Any]:
    """The settings without the clocks' (never the rules engine's)."""
    return {k: v for k, v in given.items() if k not in NAMES}


class SideClocks:
    """Each side's game time and move time (``ArbiterClocks`` per side); only the side to
    move's runs. Pure state: the table starts, stops and polls it."""

    def __init__(self, rule: ClockRule) -> None:
        move = math.inf if rule.move_seconds is None else rule.move_seconds
        self.rule = rule
        self.sides = tuple(
            ArbiterClocks(rule.game_seconds, move, rule.warn_seconds) for _side in (0, 1)
        )
        self.side = 0
        """The side whose clock runs (or would run): the side to move."""

    @property
    def running(self) -> bool:
        return self.sides[self.side].running

    def start(self, t: float) -> None:
        self.sides[self.side].start(t)

    def stop(self, t: float) -> None:
        for clock in self.sides:
            clock.stop(t)

    def turn(self, t: float, side: int) -> None:
        """A move was made: the move time starts again, for ``side`` (the side to move now)."""
        running = self.running
        self.stop(t)
        for clock in self.sides:
            clock.new_move(t)
        self.side = side
        if running:
            self.start(t)

    def flag(self, t: float) -> int | None:
        """The side whose game time or move time fell by ``t`` (the clocks stop at that
        instant), or None."""
        for event in self.sides[self.side].poll(t):
            if event.kind in ("move_timeout", "game_over"):
                self.stop(event.t)
                return self.side
        return None

    def next_deadline(self) -> float | None:
        return self.sides[self.side].next_deadline()

    def state(self, t: float) -> dict[str, Any]:
        """The used times in whole milliseconds, for the journal."""
        used = [c.state(t)["game_ms"] for c in self.sides]
        return {"used": used, "move_ms": self.sides[self.side].state(t)["move_ms"]}

    def restore(self, used: list[int], move_ms: int, side: int) -> None:
        """Set the used times (a resume); the clocks stay stopped."""
        self.side = side
        for n, clock in enumerate(self.sides):
            clock.restore(used[n] / 1000, move_ms / 1000 if n == side else 0.0)

    def faces(self, t: float, over: bool) -> tuple[str, str, bool]:
        """The two clock displays: each side's game time left (the first mover's left); the
        colon blinks while time runs."""
        left, right = (clock_text(c.reading(t).game_left) for c in self.sides)
        colon = True if over or not self.running else (t % 1.0) < 0.5
        return left, right, colon

    def page(self, t: float) -> dict[str, Any]:
        """The page's clocks: the side to move's game time and move time, both sides'."""
        reading = self.sides[self.side].reading(t)
        left, right, colon = self.faces(t, False)
        timed = self.rule.move_seconds is not None
        return {
            "left": left,
            "right": right,
            "colon": colon,
            "game": clock_text(reading.game_left),
            "move": clock_text(reading.move_left) if timed else NO_CLOCK,
            "running": reading.running,
            "warned": reading.warned and timed,
            "sides": [left, right],
        }
