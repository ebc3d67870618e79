"""A tournament table on a board of a game other than Damath: what the hub's link drives on it
(``BoardGame.linked``), as it drives Damath's session: the assignment's players put on the game,
the first move held until the table is confirmed on the board (and, when the event says so,
until the arbiter's start from the desk), the desk's pause and resume. Every act is a ``table``
record in the game's own journal (``record.table``), checked before it is written, so a board
killed at any moment resumes as it was, and the hub re-reads the same records.

What is held is the first move (the display says so) and the board's clocks (``clocks.py``: each
side's game time and move time, run for the side to move, journaled, a flag ending the game); a
pause refuses every move and stops the clocks until the desk resumes. The players' own buttons
(``blue``, ``red``) confirm the table (both of them, or the board's Confirm alone), sign the
finished game (a press), and raise a dispute (held), which carries the board's last sensor
changes and pauses the game until the desk resumes it, as on a Damath board. The arbiter's Pause
and menu (``arbiter.py``) pause the game and end it by the arbiter's decision (a stop, a
resignation, a no-show), as a Damath board's do.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.i18n import _, side_word
from controller.record.table import TABLE, TableState
from controller.rules.move import Square
from controller.session.signing import PLAYER_BUTTONS, SensorTrace
from controller.view.outputs import page_lines
from controller.view.scoresheet_pages import menu_page

from .arbiter import POINTS, Sides, TableArbiter
from .clocks import CHECKPOINT, ClockRule, SideClocks
from .kind import SessionGame

Record = dict[str, Any]


@dataclass(frozen=True)
class _Ply:
    ply: int


class TableDesk:
    """The link's view of one game's table (the names ``link.board.Driven`` asks for)."""

    def __init__(
        self,
        game: str,
        table: Callable[[], TableState],
        write: Callable[[Record], bool],
        played: Callable[[], int],
        over: Callable[[], bool],
        journal: Callable[[], Any],
        colours: tuple[str, str] = ("first", "second"),
        stop_rule: str = "draw",
        stop: Callable[[], bool] | None = None,
        side: Callable[[], int] = lambda: 0,
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        self.link_game = game
        """The game the link says this board plays."""
        self._table = table
        self._write = write
        self._played = played
        self._over = over
        self._journal = journal
        self.awaiting: str | None = None
        """The assignment shown on the board and waiting to be confirmed (not journaled: the
        link puts it back after a restart, its confirmation is in the journal)."""
        self.sensed = SensorTrace()
        """The last sensor changes: a dispute's evidence."""
        self._frame: frozenset[Any] | None = None
        self._ply = played()
        self.said = ""
        """What the board last said of a player's button (signed, disputed)."""
        self.sides = Sides(colours)
        self.arbiter = TableArbiter(self.sides, stop_rule, self.record, self.over,
                                    lambda: self.table.paused, stop)  # fmt: skip
        """The arbiter's Pause and menu (``stop_rule``: what a stop gives; ``stop``: the game's
        own stop, for a game whose points decide)."""
        self._stop = stop
        self._side = side
        self._ready = ready
        self.clocks: SideClocks | None = None
        """The board's clocks (``set_clock``), None: none."""
        self._clock_ply = played()
        self._checkpoint = 0.0

    def set_clock(self, rule: ClockRule) -> None:
        """The game's clocks (``clocks.timed``), with the time left as last journaled."""
        self.clocks = SideClocks(rule)
        self._clock_ply = self._played()
        last = self.table.clock
        if last is not None:  # a resume
            move = last["move_ms"] if last["ply"] == self._clock_ply else 0
            self.clocks.restore(last["used"], move, self._side())
        else:
            self.clocks.side = self._side()

    # ------------------------------------------------------------------ what the link reads

    @property
    def table(self) -> TableState:
        return self._table()

    @property
    def journal(self) -> Any:
        return self._journal()

    @property
    def state(self) -> TableState:
        return self.table  # ``started_asg``

    @property
    def game(self) -> _Ply:
        return _Ply(self._played())

    @property
    def phase(self) -> str:
        return "over" if self.over() else "play"

    def over(self) -> bool:
        """The game ended, by its rules or by the arbiter's decision (``table.ending``)."""
        return self._over() or self.table.ending is not None

    @property
    def info(self) -> Mapping[str, str]:
        return self.table.info

    # ------------------------------------------------------------------ records

    def record(self, act: str, **fields: Any) -> bool:
        """A ``table`` record, checked on a copy first, then journaled and applied: one that
        cannot be is never written. True when it was."""
        rec: Record = {"k": TABLE, "act": act, **fields}
        try:
            copy.deepcopy(self.table).apply(rec, bool(self._played()), self.over())
        except ValueError:
            return False
        return self._write(rec)

    # ------------------------------------------------------------------ what the link does

    def set_info(self, t: float, info: Mapping[str, str]) -> None:
        """The assignment's players, journaled with its id once the link names it
        (``expect_assignment``, which follows at once)."""
        self._info = dict(info)

    _info: dict[str, str] | None = None

    def expect_assignment(self, asg: str) -> None:
        """The assignment is on the board: its players on the game (only before its first
        move), and the board waits for the table to be confirmed."""
        info, self._info = self._info, None
        if info is not None and (info != self.table.info or asg != self.table.asg):
            self.record("players", info=info, asg=asg)
        self.awaiting = asg

    def hold_clocks(self, t: float, until: str, asg: str | None = None) -> bool:
        """The first move waits for the round's start of this table (``desk`` or ``table``);
        these boards wait for nothing without a table of their own game (``round``)."""
        table = self.table
        if until not in ("desk", "table") or asg is None or self._played():
            return False
        if table.started_by is not None or (table.held, table.held_asg) == (until, asg):
            return False
        done = self.record("hold", until=until, asg=asg)
        if done and until == "table" and table.is_confirmed(asg):
            self.start("table")
        return done

    def start(self, by: str) -> bool:
        return self.table.held is not None and self.record("go", by=by)

    def desk_start(self, t: float, asg: str) -> bool:
        table = self.table
        if table.held is None or table.held_asg != asg:
            return False
        return self.start("desk")

    def desk_pause(self, t: float, pause: bool) -> bool:
        if self.over() or self.table.paused == pause:
            return False
        if not pause:
            self.said = ""  # a dispute's line goes with the pause it made
        return self.record("pause" if pause else "resume", by="desk")

    # ------------------------------------------------------------------ the clocks

    def _clock_runs(self) -> bool:
        """The clocks run while the game is played: the board set, the table confirmed and
        started, not paused, the arbiter's menu closed, the game not over."""
        table = self.table
        return (
            self._ready()
            and not self.over()
            and not table.paused
            and table.held is None
            and self.waiting() is None
            and self.arbiter.menu is None
            and (table.clock or {}).get("flag") is None
        )

    def _journal_clocks(self, t: float, **extra: Any) -> bool:
        assert self.clocks is not None
        return self.record("clock", **self.clocks.state(t), ply=self._played(), **extra)

    def tick(self, t: float) -> bool:
        """Time passed: a move made turns the clocks to the side to move, they start or stop
        as the table allows, a flag ends the game, a checkpoint is journaled. True when
        something visible changed."""
        clocks = self.clocks
        if clocks is None:
            return False
        changed = False
        played = self._played()
        if played != self._clock_ply:
            self._clock_ply = played
            clocks.turn(t, self._side())
            self._journal_clocks(t)
            changed = True
        runs = self._clock_runs()
        if runs and not clocks.running:
            clocks.start(t)
            self._checkpoint = t
            changed = True
        elif not runs and clocks.running:
            clocks.stop(t)
            self._journal_clocks(t)
            changed = True
        if not clocks.running:
            return changed
        flagged = clocks.flag(t)
        if flagged is not None:
            self._flag(t, flagged)
            return True
        if t - self._checkpoint >= CHECKPOINT:
            self._checkpoint = t
            self._journal_clocks(t)
        return changed

    def _flag(self, t: float, side: int) -> None:
        """A side's time fell: journaled, and the game ended, the side lost (a game whose
        points decide: its own stop, the points decide)."""
        self._journal_clocks(t, flag=side)
        if self.arbiter.rule == POINTS and self._stop is not None:
            self._stop()
        else:
            self.record("end", reason="time", side=side)
        self.arbiter.cues.append("game_over")
        self.said = _("{SIDE}: time is over").format(SIDE=self.sides.word(side))

    def close_clocks(self, t: float) -> None:
        """A deliberate stop: the clocks journaled as they stand (no time lost)."""
        if self.clocks is not None and self.clocks.running:
            self.clocks.stop(t)
            self._journal_clocks(t)

    def clock_faces(self, t: float) -> tuple[str, str, bool] | None:
        """The clock displays (None: a game without clocks)."""
        return None if self.clocks is None else self.clocks.faces(t, self.over())

    def clock_page(self, t: float) -> dict[str, Any]:
        """The page's clocks (``--:--`` without)."""
        if self.clocks is None:
            return {"game": "--:--", "move": "--:--"}
        names = [_(colour.capitalize()) for colour in self.sides.colours]
        return {**self.clocks.page(t), "names": names}

    def next_deadline(self) -> float | None:
        return None if self.clocks is None else self.clocks.next_deadline()

    # ------------------------------------------------------------------ the board's buttons

    def waiting(self) -> str | None:
        """The assignment still to be confirmed on the board, or None."""
        asg = self.awaiting
        if asg is None or self.table.is_confirmed(asg) or self._played() or self.over():
            return None
        return asg

    def confirm(self, by: str = "arbiter") -> bool:
        """Confirm (the board's button, ``arbiter``; or a player's own, ``blue``, ``red``)
        while the table waits for it: the table confirmed (by the arbiter, or both players),
        and its first move free at once when the event starts each table at its confirmation;
        False when there was nothing to confirm (the button then does what it does in the
        game)."""
        asg = self.waiting()
        if asg is None:
            return False
        self.record("confirm", asg=asg, by=by)
        table = self.table
        if not table.is_confirmed(asg):
            self.said = _("{SIDE} confirmed; {other} to confirm").format(
                SIDE=side_word(PLAYER_BUTTONS[by]).upper(),
                other=side_word(1 - PLAYER_BUTTONS[by]),
            )
            return True
        self.said = ""
        if table.held == "table" and table.held_asg == asg:
            self.start("table")
        return True

    def frame(self, t: float, occupied: frozenset[Any]) -> None:
        """A scan of the board, before the game reads it: its changes kept as evidence (those
        of the last move and of the one being made)."""
        played = self._played()
        if played != self._ply:
            self._ply = played
            self.sensed.mark()
        if occupied != self._frame:
            self.sensed.frame(t, self._frame, occupied)
            self._frame = occupied

    def button(self, t: float, name: str, kind: str) -> bool:
        """A player's own button (or Confirm) read for the table: confirming it, signing the
        finished game (a press), a dispute (held); Confirm held while the table waits for its
        start starts it (the board's arbiter, as on a Damath board); Pause and the arbiter's
        menu first (``arbiter.TableArbiter``). True when the press was the table's."""
        if self.arbiter.button(name, kind):
            self.said = ""
            return True
        side = PLAYER_BUTTONS.get(name)
        if name == "confirm" and kind == "hold" and self.table.held is not None:
            self.said = ""
            return self.start("arbiter")  # the board's arbiter starts this table (no hub)
        confirming = kind == "press" and (name == "confirm" or side is not None)
        if confirming and self.confirm("arbiter" if side is None else name):
            return True
        if side is None:
            return False
        table = self.table
        if kind == "hold":
            rec = {"side": side, "ply": self._played(), "t": round(t, 3)}
            if self.record("dispute", **rec, sensed=self.sensed.evidence()):
                if not self.over() and not table.paused:
                    self.record("pause", by="dispute")
                self.said = _("{SIDE} disputes: the arbiter is called").format(
                    SIDE=side_word(side).upper()
                )
            return True
        if self.over() and side not in table.signed:
            if self.record("sign", side=side):
                both = len(self.table.signed) == 2
                self.said = (
                    _("Signed by both players")
                    if both
                    else _("{SIDE} signed; {other} to sign").format(
                        SIDE=side_word(side).upper(), other=side_word(1 - side)
                    )
                )
            return True
        return self.over()  # signed already: nothing more

    def lines(self) -> list[str]:
        """What the display says of the table before the game's own lines: what the board
        waits for (the confirmation, the start, the desk's resume; first: the display is
        small), then the players."""
        table = self.table
        info = table.info
        out: list[str] = [said for said in (self.arbiter.said, self.said) if said]
        if table.paused and table.paused_by == "arbiter":
            if not self.arbiter.said:
                out.append(_("Paused by the arbiter: Pause again to go on"))
        elif table.paused:
            out.append(_("Paused by the arbiter's desk"))
        elif self.waiting() is not None:
            out.append(_("Confirm the table: press Confirm"))
        elif table.held == "desk":
            out.append(_("Wait for the arbiter's start"))
        elif table.held == "table":
            out.append(_("Wait for the table's confirmation"))
        if info.get("blue") or info.get("red"):
            out.append(
                _("Table {table}: {blue} vs {red}").format(
                    table=info.get("table", "?"),
                    blue=info.get("blue", "?"),
                    red=info.get("red", "?"),
                )
            )
        return out

    def menu_page(self, cols: int, rows: int) -> tuple[str, ...] | None:
        """The display while the arbiter's menu is open (None: it is closed)."""
        menu = self.arbiter.menu
        return None if menu is None else page_lines(menu_page(menu, cols, rows), cols, rows)

    def take_cues(self) -> list[str]:
        """The buzzer's cues of the arbiter's decisions since the last call."""
        out, self.arbiter.cues = self.arbiter.cues, []
        return out

    def ending_text(self) -> str:
        """The arbiter's end of the game in words (``BLACK resigned; WHITE wins``), or ""."""
        ending = self.table.ending
        return "" if ending is None else ending.text(self.sides.colours)

    def blocks(self) -> str | None:
        """Why no move may be played now, or None (the table's confirmation, its start, the
        desk's pause)."""
        if self.waiting() is not None and not self.table.paused:
            return _("the round has not started: confirm the table on the board first")
        return self.table.blocks()


class TableSessionGame(SessionGame):
    """A session game that a tournament table can hold (Dam, English draughts, Dadama): the
    desk takes the table's buttons and frames first, written once for them all."""

    desk: TableDesk

    def linked(self) -> TableDesk:
        """A tournament table's players, start and pause, driven by the hub's link."""
        return self.desk

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """The table's buttons first (its confirmation, the players' signatures and
        disputes, the arbiter's Pause and menu: ``TableDesk.button``); otherwise the buttons
        are the game's."""
        if self.desk.button(t, name, kind):
            self.session.message = ""
            return
        super().press(t, name, kind)

    def feed_frame(self, t: float, occupied: frozenset[Square]) -> None:
        self.desk.frame(t, occupied)
        super().feed_frame(t, occupied)

    def tick(self, t: float) -> bool:
        """The game's time (settling) and the board's clocks (``TableDesk.tick``)."""
        game = bool(self.session.tick(t))
        return self.desk.tick(t) or game

    def close(self, t: float) -> None:
        self.desk.close_clocks(t)
        super().close(t)

    def take_cues(self) -> list[str]:
        return [*self.desk.take_cues(), *super().take_cues()]

    def menu_open(self) -> bool:
        return self.desk.arbiter.menu is not None
