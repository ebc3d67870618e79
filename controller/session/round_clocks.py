"""A Damath table's clocks through its life: held at full time until the round starts (the
desk's start, the table's confirmation, or the board's arbiter), started, run again after a
pause, a menu or a disk that refused records; and what they say as they run (the move's
warning, a move's time out, the game's time out). The session hands this part itself as a
``ClockHost`` (``host.py``): the part reaches the members named there and nothing else.
"""

from __future__ import annotations

from controller.i18n import side_word
from controller.record.kinds import RecordKind

from . import texts
from .clocks import ClockEvent
from .host import ClockHost, Record
from .kinds import CueName, Phase


class RoundClocks:
    def __init__(self, session: ClockHost) -> None:
        self.s = session

    # ------------------------------------------------------------------ the round's start

    def hold(self, t: float, until: str, asg: str | None = None) -> bool:
        """A tournament game: its clocks wait at full time until the round starts (``until``:
        ``round``, ``desk`` or ``table``, ``record/start.py``); the board's link says so at
        every pass. Clocks that ran before the board knew are put back to full time, as long
        as no move was made. Journaled, so a power cut keeps the wait. Never in practice, and
        never once the game has started. True when something changed."""
        s = self.s
        started = s.state.started_by is not None
        if s.play.practice or s.phase == Phase.OVER or s.game.ply or started:
            return False
        changed = False
        if (s.state.held, s.state.held_asg) != (until, asg):
            s.clocks.stop(t)
            s.clocks.restore(0.0, 0.0)
            record: Record = {"k": RecordKind.HOLD, "t": t, "until": until, **s.clocks.state(t)}
            if asg:
                record["asg"] = asg
            if not s.write(record):
                return False
            s.apply(record)
            if not s.paused:
                self.say_waiting()
            s.log_event(t, "hold", {"until": until, "asg": asg})
            changed = True
        if until == "table" and s.signing.is_confirmed(asg):
            return self.start(t, "table") or changed
        return changed

    def start(self, t: float, by: str) -> bool:
        """The round's start for this game (``by``: desk, table, or the board's arbiter): the
        clocks may run from now, at once if the chips stand. False when they were not held."""
        s = self.s
        if s.state.held is None:
            return False
        record: Record = {"k": RecordKind.GO, "t": t, "by": by, **s.clocks.state(t)}
        if s.state.held_asg:
            record["asg"] = s.state.held_asg
        if not s.write(record):
            return False
        s.apply(record)
        s.say(texts.STARTED)
        self.resume(t)
        s.log_event(t, "go", {"by": by})
        return True

    def desk_start(self, t: float, asg: str) -> bool:
        """The arbiter's start from the desk for assignment ``asg`` (a command over the link):
        this game's clocks start if they wait for that table. False when there was nothing to
        start (another table's start, a game under way, a game not held)."""
        if self.s.state.held is None or self.s.state.held_asg != asg:
            return False
        return self.start(t, "desk")

    def say_waiting(self) -> None:
        """What the board waits for before play, in order: the table's confirmation, then the
        round's start; nothing: the message is cleared."""
        s = self.s
        table = s.info.get("table") or "?"
        if s.signing.waiting is not None:
            names = {k: s.info.get(k) or "?" for k in ("table", "blue", "red")}
            s.say(texts.CONFIRM_TABLE, **names)
        elif s.state.held == "desk":
            s.say(texts.HELD_DESK, table=table)
        elif s.state.held == "table":
            s.say(texts.HELD_TABLE, table=table)
        elif s.state.held == "round":
            s.say(texts.HELD_ROUND)
        else:
            s.message = ""

    def resume(self, t: float) -> None:
        """Start the clocks again, unless paused, in a menu, no move can be saved now, or the
        round has not started yet (a tournament game held: ``hold``)."""
        s = self.s
        if (
            not s.paused
            and s.phase == Phase.PLAY
            and s.menu is None
            and not s.journal_problem
            and not s.clocks.running
            and s.state.held is None
        ):
            s.clocks.start(t)
            s.last_checkpoint = t

    # ------------------------------------------------------------------ as they run

    def poll(self, t: float) -> None:
        s = self.s
        if s.phase != Phase.PLAY or not s.play.timed:
            return
        for ev in s.clocks.poll(t):
            self._on_clock(ev)

    def _on_clock(self, ev: ClockEvent) -> None:
        s = self.s
        side = s.game.side_to_move
        who = side_word(side).upper()
        if ev.kind == "warning":
            s.write({"k": "warning", "t": ev.t, "side": side, **s.clocks.state(ev.t)})
            s.cue(ev.t, CueName.WARNING)
            seconds = round(s.clocks.move_seconds - s.clocks.used(ev.t)[1])
            s.say(texts.WARNING, SIDE=who, seconds=max(1, seconds))
        elif ev.kind == "move_timeout":
            rule = s.rules_profile.move_timeout
            record: Record = {
                "k": RecordKind.TIMEOUT, "t": ev.t, "side": side, "rule": rule,
                **s.clocks.state(ev.t),
            }  # fmt: skip
            s.write(record)
            s.apply(record)
            s.cue(ev.t, CueName.TIME_UP)
            if rule == "opponent-moves":
                other = side_word(1 - side).upper()
                s.clocks.restart_move_clock(ev.t)
                s.say(texts.TIMEOUT_OPPONENT, SIDE=who, OTHER=other)
            else:
                s.say(texts.TIMEOUT_ARBITER, SIDE=who)
        elif ev.kind == "game_over":
            s.end_game(ev.t, "time", None)
        s.log_event(ev.t, ev.kind, {"side": side})
