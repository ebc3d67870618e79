"""The arbiter's clocks (RULES.md §6): one game clock for the whole game, one move clock.

Time is never counted tick by tick: the clocks keep the time *used* up to the last start or stop
and the instant they were last started, and every reading is ``used + (now - started)`` from the
injected monotonic time. Ticking often or rarely changes nothing, so a 20-minute game cannot
drift (PicoChess users' first complaint). Deadlines (the reminder, the move time-out, the end of
the game time) are reported with the exact instant they fell, not the instant they were noticed,
so a replay from the journal gives the same events at the same times.

Pure state: no thread, no I/O. The session calls ``poll(t)`` and acts on what it returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from controller.i18n import _


def clock_text(seconds: float) -> str:
    """Seconds left -> ``m:ss``, rounded up so ``0:00`` means the time is really over; capped at
    99:59 (four digits on the display)."""
    whole = min(max(0, math.ceil(seconds - 1e-9)), 99 * 60 + 59)
    return f"{whole // 60}:{whole % 60:02d}"


@dataclass(frozen=True)
class ClockEvent:
    """A deadline that fell: ``warning`` (the reminder), ``move_timeout`` or ``game_over``."""

    t: float
    kind: str


@dataclass(frozen=True)
class ClockReading:
    """What the displays show: seconds left on both clocks, and whether time runs."""

    game_left: float
    move_left: float
    running: bool
    warned: bool
    move_timed_out: bool
    game_over: bool


class ArbiterClocks:
    """A game clock of ``game_seconds`` and a move clock of ``move_seconds`` with a reminder
    ``warn_seconds`` before the move clock runs out. Both run together or not at all."""

    def __init__(self, game_seconds: float, move_seconds: float, warn_seconds: float) -> None:
        if game_seconds <= 0 or move_seconds <= 0:
            raise ValueError(_("the game and move clocks need a positive number of seconds"))
        if not 0 <= warn_seconds < move_seconds:
            raise ValueError(_("the reminder must come before the move clock runs out"))
        self.game_seconds = float(game_seconds)
        self.move_seconds = float(move_seconds)
        self.warn_seconds = float(warn_seconds)
        self.game_used = 0.0
        self.move_used = 0.0
        self.started_at: float | None = None
        self.warned = False
        self.move_timed_out = False
        self.game_over = False

    # ------------------------------------------------------------------ control

    @property
    def running(self) -> bool:
        return self.started_at is not None

    def start(self, t: float) -> None:
        """Let time run from ``t`` (after setup, a resume, a restore). Idempotent."""
        if self.started_at is None and not self.game_over:
            self.started_at = t

    def stop(self, t: float) -> None:
        """Stop both clocks at ``t``, banking the time used (the arbiter's pause)."""
        if self.started_at is not None:
            elapsed = max(0.0, t - self.started_at)
            self.game_used = min(self.game_seconds, self.game_used + elapsed)
            self.move_used += elapsed
            self.started_at = None

    def new_move(self, t: float) -> None:
        """A move was played at ``t``: the move clock starts again from its full minute."""
        running = self.running
        self.stop(t)
        self.move_used = 0.0
        self.warned = False
        self.move_timed_out = False
        if running:
            self.start(t)

    def restart_move_clock(self, t: float) -> None:
        """The online rule: after a time-out the opponent gets a fresh move clock to move."""
        self.new_move(t)

    def restore(self, game_used: float, move_used: float) -> None:
        """Set the used times (resuming from the journal); the clocks stay stopped."""
        self.started_at = None
        self.game_used = min(self.game_seconds, max(0.0, game_used))
        self.move_used = max(0.0, move_used)
        self.warned = self.move_used >= self.move_seconds - self.warn_seconds
        self.move_timed_out = self.move_used >= self.move_seconds
        self.game_over = self.game_used >= self.game_seconds

    # ------------------------------------------------------------------ reading

    def used(self, t: float) -> tuple[float, float]:
        """(game seconds used, move seconds used) at ``t``."""
        if self.started_at is None:
            return self.game_used, self.move_used
        elapsed = max(0.0, t - self.started_at)
        return min(self.game_seconds, self.game_used + elapsed), self.move_used + elapsed

    def reading(self, t: float) -> ClockReading:
        game, move = self.used(t)
        return ClockReading(
            game_left=max(0.0, self.game_seconds - game),
            move_left=max(0.0, self.move_seconds - move),
            running=self.running,
            warned=self.warned,
            move_timed_out=self.move_timed_out,
            game_over=self.game_over,
        )

    def next_deadline(self) -> float | None:
        """The instant of the next event if time keeps running (for a loop that sleeps)."""
        if self.started_at is None:
            return None
        times = [self.started_at + self.game_seconds - self.game_used]
        if not self.warned:
            times.append(self.started_at + self.move_seconds - self.warn_seconds - self.move_used)
        elif not self.move_timed_out:
            times.append(self.started_at + self.move_seconds - self.move_used)
        return min(times)

    def poll(self, t: float) -> list[ClockEvent]:
        """The deadlines that fell by ``t``, in order, each stamped with its exact instant.

        The game clock's end stops both clocks at that instant (the game is over); a move
        time-out does not stop anything: what follows is the profile's business.
        """
        if self.started_at is None:
            return []
        start = self.started_at
        due: list[ClockEvent] = []
        if not self.warned:
            at = start + self.move_seconds - self.warn_seconds - self.move_used
            if at <= t:
                due.append(ClockEvent(at, "warning"))
        if not self.move_timed_out:
            at = start + self.move_seconds - self.move_used
            if at <= t:
                due.append(ClockEvent(at, "move_timeout"))
        game_end = start + self.game_seconds - self.game_used
        if game_end <= t:
            due = [e for e in due if e.t <= game_end]
            due.append(ClockEvent(game_end, "game_over"))
        for event in due:
            if event.kind == "warning":
                self.warned = True
            elif event.kind == "move_timeout":
                self.warned = True
                self.move_timed_out = True
            else:
                self.stop(event.t)
                self.game_used = self.game_seconds
                self.game_over = True
        return due

    def state(self, t: float) -> dict[str, int]:
        """Used times in whole milliseconds, for the journal (exact integers, no float text)."""
        game, move = self.used(t)
        return {"game_ms": round(game * 1000), "move_ms": round(move * 1000)}
