"""One game's life on the board: setup, play, pause, takeback, end and tally, journal and resume.

The session owns the game, the tracker, the clocks and the journal. Time comes in with every
call (``t``, seconds on an injected monotonic clock); there is no thread and no I/O besides the
journal. Everything it accepts (a move, an arbiter action, a clock event) is appended to the
journal and synced before it is applied and confirmed (a cue, the LEDs).

Phases: ``setup`` (the opening checked on the sensors; the arbiter may change variant and rules),
``play``, ``restore`` (the board must be brought back to the expected position: after a takeback
or a restart), ``over`` (tally shown). ``paused`` and ``menu`` are orthogonal to the phase.

The board runtime calls: ``feed_frame``, ``press``, ``advance`` (or ``tick``), ``view_input``,
``take_cues``, ``close`` (docs/session.md). Every record the session journals is read by the
one applier of a Damath game's records (``controller.record.state.DamathState``, which the
board's link and the hub read records through too), the same for play as it happens and for a
resume; the session adds what the live board does besides (the tracker, the running clocks).

Its parts, each with one job: ``writer`` (the journal, and what waits while the disk refuses),
``resume`` (a game read back after a restart), ``arbiter`` (the buttons and the arbiter's
menus), ``review`` (the coach's review on the display); this module is the game's life.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.record import info as game_info
from controller.record import play as play_mode
from controller.record.journal_file import JournalLoad, Record
from controller.record.kinds import RecordKind
from controller.record.outcome import Outcome
from controller.record.signing import Signing
from controller.record.state import DamathState, Setup
from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.rules.profiles import Profile
from controller.scoresheet.model import Row, Scoresheet
from controller.tracker import (
    BoardNeeded,
    BoardReady,
    ButtonIgnored,
    Event,
    Lifted,
    Mismatch,
    MoveCommitted,
    Settings,
    Tracker,
)

from . import coach_texts, texts
from .arbiter import Arbiter
from .clocks import ArbiterClocks
from .config import SessionConfig
from .journal import Journal, JournalError
from .kinds import Cue, CueName, Phase
from .menu import Menu
from .resume import resume
from .review import ShownReview
from .round_clocks import RoundClocks
from .shown import Shown, move_text
from .signing import SensorTrace
from .view_input import ViewInput, view_input
from .writer import JournalWriter

JOURNAL_VERSION = 1


class Session:
    def __init__(self, config: SessionConfig, journal: Journal | None = None) -> None:
        # what belongs to the board, and stays from one game to the next
        self.recent_cues: deque[Cue] = deque(maxlen=20)
        self._cue_seq = 0
        self.problems: list[str] = []
        self.board: frozenset[Square] | None = None
        self.roster: tuple[str, ...] = config.roster or ()
        """The class list the board's buttons choose the players' names from."""
        self.wall: Callable[[], float] = time.time
        """The wall clock, for naming a kept game only (``journal.kept_name``)."""
        self.now = 0.0
        self.state = DamathState()
        """The game as its records build it: the one applier (``controller.record.state``)."""
        self.writer = JournalWriter(self, journal)
        """The journal, and what waits for it while the disk refuses (``writer.py``)."""
        self.arbiter = Arbiter(self)
        """What the board's buttons and the arbiter's menus do (``arbiter.py``)."""
        self.round = RoundClocks(self)
        """The table's clocks: held until the round starts, run, their warnings."""
        self.sensed = SensorTrace()
        self.fresh(config)

    def fresh(self, config: SessionConfig) -> None:
        """Everything of one game, as it stands before its start: ``__init__`` and each new
        game on the same board begin here."""
        self.config = config
        self.cues: list[Cue] = []
        self.log: list[tuple[float, str, dict[str, Any]]] = []
        self._message = ""
        self._said: texts.Said | None = None
        """The display's short form of ``message`` (when the message came from ``say``)."""
        self.writer.reset()
        self.menu: Menu | None = None
        self.last_checkpoint = 0.0
        self.hint_requests = 0
        """Confirm pressed during play with nothing to confirm and hints on: the board's own
        hint button (the coach answers it, ``controller/coach``)."""
        self.reviewed = ShownReview()
        """The coach's review of this finished game on the display (``review.py``)."""
        self.new_game_objects(config)
        self.phase = Phase.SETUP

    # ------------------------------------------------------------------ the game's state

    @property
    def journal(self) -> Journal | None:
        return self.writer.journal

    @property
    def signing(self) -> Signing:
        """The assignment's confirmation, the game's signatures and disputes."""
        return self.state.signing

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def info(self) -> dict[str, str]:
        """Players and event (``record/info.py``)."""
        return self.state.info

    @property
    def play(self) -> play_mode.PlaySettings:
        """Practice or tournament (``record/play.py``): clocks, takeback, capture preview."""
        return self.state.play

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def paused(self) -> bool:
        return self.state.paused

    @property
    def proxy(self) -> bool:
        return self.state.proxy

    @property
    def rows(self) -> list[Row]:
        return self.state.rows

    @property
    def move_clocks(self) -> list[tuple[int, int]]:
        """Per played move, the clocks' used time when it was made (game ms, move ms)."""
        return self.state.move_clocks

    @property
    def last_move(self) -> Move | None:
        return self.state.last_move

    @property
    def start_position(self) -> dict[str, Any]:
        return self.state.start

    @property
    def journal_problem(self) -> str:
        """While the journal cannot be written: what the board says instead of anything else."""
        return self.writer.problem

    @property
    def message(self) -> str:
        """The message of the moment; a journal that cannot be written outranks every other."""
        return self.journal_problem or self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message = text

    # ------------------------------------------------------------------ construction

    def new_game_objects(self, config: SessionConfig) -> None:
        setup = Setup(
            variant=config.variant,
            rules=config.rules,
            rule_settings=config.rule_settings,
            tracker_settings=config.tracker_settings,
            position=config.position,
            info=config.info,
            play=config.play,
        )
        self.state.begin(setup)
        profile = self.state.profile
        self.settings = Settings().with_overrides(config.tracker_settings)
        self.tracker = Tracker(self.game, self.settings, mode="setup")
        self.clocks = ArbiterClocks(
            profile.game_seconds,
            profile.move_seconds,
            min(profile.warn_seconds, profile.move_seconds - 1),
        )
        self.shown: Shown | None = None
        """The computer's move or a hint, shown on the board before it is made (coach)."""

    @classmethod
    def open(
        cls, config: SessionConfig, journal_path: str, t: float, *, sync: bool = True
    ) -> Session:
        """The session for the game in the journal (resumed exactly), or a new game.

        Never fails because of the journal's contents: damage is reported in ``problems`` and on
        the display, and what was good is resumed.
        """
        journal, loaded = Journal.open(journal_path, sync=sync)
        session = cls(config, journal)
        if journal.failure is not None:
            session.problems.append(str(journal.failure))
        if config.roster is None:  # the teacher's class list, kept beside the journal
            session.roster = game_info.read_roster(
                Path(journal_path).parent / game_info.ROSTER_FILE
            )
        session.now = t
        session._resume(loaded, t)
        return session

    @classmethod
    def start(cls, config: SessionConfig, t: float, journal: Journal | None = None) -> Session:
        """A new game from ``config`` (its start journaled, when there is a journal): the
        tracker waits for the opening on the board."""
        session = cls(config, journal)
        session.now = t
        session.begin(t)
        return session

    def close(self, t: float) -> None:
        """A deliberate stop: the clocks journaled as they stand (no time lost), the journal
        closed. The game resumes from it at the next start."""
        self.checkpoint(t)
        if self.journal is not None:
            self.journal.close()

    @classmethod
    def replayed(cls, records: list[Record], problems: list[str] | None = None) -> Session:
        """A kept game read back in memory (no journal, nothing written): its sheet, record and
        position as the board left them."""
        session = cls(SessionConfig(), None)
        session._resume(JournalLoad(records=list(records), problems=list(problems or [])), 0.0)
        return session

    def start_record(self, t: float) -> Record:
        return {
            "k": "start",
            "v": JOURNAL_VERSION,
            "t": t,
            "variant": self.game.variant,
            "rules": self.config.rules,
            "rule_settings": self.config.rule_settings,
            "tracker_settings": self.config.tracker_settings,
            "position": self.start_position,
            "info": self.info,
            "play": self.play.json(),
        }

    # ------------------------------------------------------------------ records

    def _resume(self, loaded: JournalLoad, t: float) -> None:
        resume(self, loaded, t)

    def apply(self, rec: Record) -> Move | None:
        """What a journaled record does: the one reading of every kind of record (the record's
        state, ``DamathState.apply``), for play as it happens (each handler writes its record,
        then applies it) and for the replay of a journal, with what the live board does
        besides. Returns the move played by a move record, or taken back by a takeback. The
        clocks, cues and messages stay with the handlers: they are the live board's, and a
        replay restores the clocks once, from the last reading."""
        kind = rec["k"]
        if kind == RecordKind.START:
            setup = Setup.of(rec)
            self.fresh(
                SessionConfig(
                    variant=setup.variant,
                    rules=setup.rules,
                    rule_settings=setup.rule_settings,
                    tracker_settings=setup.tracker_settings,
                    position=setup.position,
                    checkpoint_seconds=self.config.checkpoint_seconds,
                    info=setup.info,
                    play=setup.play,
                    roster=self.config.roster,
                )
            )
            self.state.reading = (rec.get("game_ms", 0), rec.get("move_ms", 0))
            return None
        move = self.state.apply(rec)
        if kind == RecordKind.READY:
            self.phase = Phase.PLAY
        elif kind == RecordKind.MOVE:
            self.sensed.mark()
        elif kind == RecordKind.TAKEBACK and self.phase == Phase.OVER:
            self.phase = Phase.PLAY
        elif kind == RecordKind.INFO:
            self.config = SessionConfig(**{**self.config.__dict__, "info": self.info})
        elif kind == RecordKind.PLAY:
            self.config = SessionConfig(**{**self.config.__dict__, "play": self.play.json()})
        elif kind == RecordKind.END:
            self.phase = Phase.OVER
            self.menu = None
        return move

    def begin(self, t: float) -> None:
        """A new game: journal its start; the tracker waits for the opening on the board."""
        self.phase = Phase.SETUP
        self.write(self.start_record(t))

    # ------------------------------------------------------------------ the API

    def feed_frame(self, t: float, occupied: Any) -> list[Event]:
        """A sensor frame at ``t``: what is on the board now."""
        self.now = max(self.now, t)
        board = frozenset((sq[0], sq[1]) for sq in occupied)
        said = self._said
        if (
            board != self.board
            and self.phase == Phase.SETUP
            and said
            and said.page == self._message
        ):
            self.message = ""  # a hint said while setting up has been read: back to the guide
        placed_before = self._placed() if self.phase == Phase.SETUP else None
        self.sensed.frame(t, self.board, board)
        self.board = board
        events = self.tracker.feed_frame(t, self.board)
        self.handle(events, t)
        if (
            placed_before is not None
            and self.phase == Phase.SETUP
            and self._placed() > placed_before
        ):
            self.cue(t, CueName.MOVE)  # guided setup: the board confirms each chip put in place
        return events

    def _placed(self) -> int:
        """Setting up: how many of the expected chips stand on their squares."""
        g = self.tracker.guidance()
        return len(self.tracker.game.chips()) - len(g.missing)

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """An arbiter button: ``press`` or ``hold`` (drivers.buttons.ButtonEvent)."""
        self.now = max(self.now, t)
        self.advance(t)
        self.arbiter.press(t, name, kind)

    def advance(self, t: float) -> None:
        """Time passed: the tracker's settle and error timers and the clocks' deadlines."""
        self.now = max(self.now, t)
        self.writer.retry(t)
        self.handle(self.tracker.tick(t), t)
        self.round.poll(t)
        if (
            self.clocks.running
            and self.config.checkpoint_seconds > 0
            and t - self.last_checkpoint >= self.config.checkpoint_seconds
        ):
            self.checkpoint(t)

    def checkpoint(self, t: float) -> None:
        """Journal the clocks as they stand (while they run): done every ``checkpoint_seconds``
        and at a deliberate stop, so a stop costs no time and a power cut at most that much."""
        if self.clocks.running:
            self.write({"k": "tick", "t": t, **self.clocks.state(t)})

    def take_cues(self) -> list[Cue]:
        cues, self.cues = self.cues, []
        return cues

    def view_input(self, t: float, *, page: bool = False) -> ViewInput:
        """Everything the view needs at ``t``, as data; ``page`` adds what only a page shows
        (``view_input.py``)."""
        return view_input(self, t, page=page)

    def set_review(self, review: dict[str, Any] | None, ply: int) -> None:
        """The coach's review of the game as it stood after ``ply`` moves: on the display's
        pages and the printable sheet while the game stays as it was reviewed."""
        self.reviewed.set(review, ply)

    def current_review(self) -> dict[str, Any] | None:
        """The review, if it is of the finished game as it stands."""
        return self.reviewed.current(self.phase == Phase.OVER, self.game.ply)

    @property
    def review_page(self) -> int:
        """Which of the review's pages the display shows (0: the tally)."""
        return self.reviewed.page

    @review_page.setter
    def review_page(self, page: int) -> None:
        self.reviewed.page = page

    def current_shown(self) -> Shown | None:
        """What is shown for the position on the board now (nothing outside play)."""
        shown = self.shown
        if (
            shown is None
            or self.phase not in (Phase.PLAY, Phase.RESTORE)
            or shown.ply != self.game.ply
        ):
            return None
        return shown

    def show(self, shown: Shown | None) -> bool:
        """Show the computer's move or a hint for the current position (the coach calls this
        when its search is done); False when the position has moved on meanwhile."""
        if shown is not None and (shown.ply != self.game.ply or self.phase != Phase.PLAY):
            return False
        self.shown = shown
        return True

    def _not_as_shown(self, move: Move) -> texts.Text | None:
        """A move of the computer's side that is not the move the board shows: refused."""
        if self.play.computer_side != self.game.side_to_move:
            return None
        shown = self.current_shown()
        if shown is None or shown.kind != "computer":
            return coach_texts.WAIT_FOR_COMPUTER
        if tuple(move.path) != tuple(shown.move.path):
            return coach_texts.NOT_THE_SHOWN_MOVE
        return None

    def set_info(self, t: float, changes: dict[str, Any]) -> None:
        """Players and event entered or corrected (the page, the board's menu): journaled, so
        the sheet and the game record carry them after a restart too."""
        new = {**self.info, **game_info.clean(changes)}
        new = {k: v for k, v in new.items() if v}
        if new == self.info:
            return
        record: Record = {"k": RecordKind.INFO, "t": t, "info": new}
        self.write(record)
        self.apply(record)
        self.log_event(t, "info", dict(new))

    def set_play(self, t: float, changes: dict[str, Any]) -> None:
        """A practice help turned on or off during the game (capture preview, players' takeback).
        Practice itself and the clocks are chosen with a new game: they change the game."""
        fixed = {"practice", "clocks"} & set(changes)
        if fixed:
            raise play_mode.PlayError(
                _("{join}: chosen when a new game starts, not during one").format(
                    join=", ".join(sorted(fixed))
                )
            )
        settings = self.play.with_changes(changes)
        if settings == self.play:
            return
        SessionConfig(**{**self.config.__dict__, "play": settings.json()})  # checks practice
        record: Record = {"k": RecordKind.PLAY, "t": t, "play": settings.json()}
        self.write(record)
        self.apply(record)
        self.log_event(t, "play", settings.json())

    def ready_line(self, board: str) -> str:
        """What the board says once it is ready: which game, and what to do first."""
        if self.phase == Phase.SETUP:
            step = texts.NEXT_SETUP.format()
        elif self.phase == Phase.RESTORE:
            step = texts.NEXT_RESTORE.format(plies=self.game.ply)
        elif self.phase == Phase.OVER and self.outcome is not None:
            step = texts.NEXT_OVER.format(ending=self.outcome.text)
        else:
            step = texts.NEXT_PLAY.format()
        return texts.READY.format(
            board=board,
            variant=self.variant.capitalize(),
            rules=self.profile_name,
            next_step=step.page,
        ).page

    # ------------------------------------------------------------------ reading the game

    @property
    def variant(self) -> str:
        return self.game.variant or ""

    @property
    def rules_profile(self) -> Profile:
        """The rules the game is played under (with the arbiter's settings)."""
        profile = self.game.profile
        assert profile is not None  # a session's game always has one (``new_game_objects``)
        return profile

    @property
    def profile_name(self) -> str:
        return self.config.rules

    def tick(self, t: float) -> bool:
        """``advance`` that says whether anything besides the running clocks changed."""
        before = (len(self.log), self._cue_seq, self.phase, self.paused, self.message)
        self.advance(t)
        return before != (len(self.log), self._cue_seq, self.phase, self.paused, self.message)

    def expected_chips(self) -> dict[Square, Any]:
        """The chips the board should show now (what a restore puts back)."""
        return self.tracker.game.chips()

    def start_chips(self) -> dict[Square, Any]:
        """The chips the game started with (the rest of them were taken)."""
        return self.start_game().chips()

    def start_game(self) -> Game:
        """The position the game started from, rebuilt from the JSON the journal keeps, under
        the game's own rules (the one place it is rebuilt: the record and the sheet use it)."""
        return self.state.start_game()

    def sheet(self) -> Scoresheet:
        """The scoresheet: the whole tally once the game is over; while it is played, the
        entries and running totals so far, marked as a game in progress (no RC, no result)."""
        return self.state.sheet()

    def export_csv(self) -> str:
        from controller.scoresheet.render import render_csv

        return render_csv(self.sheet())

    def export_html(self) -> str:
        from controller.scoresheet.html import render_html

        return render_html(self.sheet(), self.current_review())

    def export_pdn(self) -> str:
        return self.state.pdn()

    def pdn_clocks(self) -> list[tuple[float, float]]:
        """Per played move: the game clock left after it and the time it took, in seconds."""
        return self.state.pdn_clocks()

    def totals(self) -> tuple[str, str]:
        return self.state.totals()

    def next_deadline(self) -> float | None:
        times = [d for d in (self.tracker.next_deadline(), self.clocks.next_deadline()) if d]
        return min(times) if times else None

    # ------------------------------------------------------------------ tracker events

    def handle(self, events: list[Event], t: float) -> None:
        for ev in events:
            self.round.poll(ev.t)
            if isinstance(ev, MoveCommitted):
                self._on_move(ev)
            elif isinstance(ev, BoardReady):
                self._on_ready(ev)
            elif isinstance(ev, BoardNeeded) and ev.mode != "setup":
                self.say(texts.RESTORE_BOARD)  # setting up: the display guides chip by chip
            elif isinstance(ev, Mismatch):
                self.cue(ev.t, CueName.ERROR)
            elif isinstance(ev, Lifted) and ev.reason:
                self.cue(ev.t, CueName.ERROR)  # the reason is shown from the tracker's guidance
            elif isinstance(ev, ButtonIgnored):
                pass
            self.log_event(ev.t, ev.kind, ev.details())

    def _on_ready(self, ev: BoardReady) -> None:
        if self.phase == Phase.SETUP:
            record: Record = {"k": RecordKind.READY, "t": ev.t, **self.clocks.state(ev.t)}
            self.write(record)
            self.apply(record)
            self.round.say_waiting()
            self.last_checkpoint = ev.t
            self.resume_time(ev.t)  # at once, unless the journal refuses records
            self.cue(ev.t, CueName.MOVE)
        elif self.phase == Phase.RESTORE:
            self.phase = Phase.PLAY
            if self.paused:
                self.say(texts.PAUSED)
            else:
                self.round.say_waiting()
            if self.writer.problem:
                self.writer.problem = texts.NOT_SAVED.format(reason=self.writer.reason).page
            self.resume_time(ev.t)

    def _on_move(self, ev: MoveCommitted) -> None:
        if self.phase == Phase.OVER:
            return
        t = ev.t
        if self.state.held is not None:  # the round has not started: no move counts yet
            self.phase = Phase.RESTORE
            self.cue(t, CueName.ERROR)
            self.handle(self.tracker.set_position(self.game, t), t)
            self.say(texts.NOT_STARTED)
            self.log_event(t, "not_started", {"move": str(ev.move)})
            return
        wrong = self._not_as_shown(ev.move)
        if wrong is not None:  # the computer's chips moved, but not as the board showed
            self.phase = Phase.RESTORE
            self.cue(t, CueName.ERROR)
            self.handle(self.tracker.set_position(self.game, t), t)
            shown = self.shown
            self.say(wrong, move=move_text(shown.move) if shown else "")
            self.log_event(t, "not_as_shown", {"move": str(ev.move)})
            return
        record = {
            "k": "move",
            "t": t,
            "ply": self.game.ply,
            "path": [list(s) for s in ev.move.path],
            **self.clocks.state(t),
        }
        if self.proxy:
            record["proxy"] = True
        if not self.write(record):  # not on the disk: not confirmed; the board asks again
            self._refuse(t)
            return
        move = self.apply(record)
        self.shown = None
        self.clocks.new_move(t)
        self.last_checkpoint = t
        self.message = ""
        self.cue(t, CueName.MOVE)
        ending = self.game.ending()
        if ending is not None:
            self.end_game(t, ending.reason, ending.side)
        self.log_event(t, "accepted", {"move": str(move)})

    # ------------------------------------------------------------------ the arbiter, from afar

    def expect_assignment(self, asg: str) -> None:
        """The hub's assignment is on the board (its link put it there): wait for it to be
        confirmed, unless this game's journal says it already is."""
        self.arbiter.expect_assignment(asg)

    def desk_pause(self, t: float, pause: bool) -> bool:
        """The arbiter's desk paused (or resumed) the game from the hub: as the Pause button
        does, the record saying who. False when there was nothing to do."""
        return self.arbiter.desk_pause(t, pause)

    # ------------------------------------------------------------------ the table's clocks

    def hold_clocks(self, t: float, until: str, asg: str | None = None) -> bool:
        """A tournament game's clocks held at full time until the round starts
        (``RoundClocks.hold``). True when something changed."""
        return self.round.hold(t, until, asg)

    def start_clocks(self, t: float, by: str) -> bool:
        """The round's start for this game (``RoundClocks.start``)."""
        return self.round.start(t, by)

    def desk_start(self, t: float, asg: str) -> bool:
        """The arbiter's start from the desk for assignment ``asg`` (``RoundClocks.desk_start``)."""
        return self.round.desk_start(t, asg)

    def resume_time(self, t: float) -> None:
        """The clocks run again, unless something holds them (``RoundClocks.resume``)."""
        self.round.resume(t)

    def say(self, text: texts.Text, **values: object) -> None:
        """Show a message: its sentence on the page, its short form on the display."""
        self._said = text.format(**values)
        self.message = self._said.page

    @property
    def display_message(self) -> str:
        """The message as the display shows it (its short form, when it has one)."""
        if self._said is not None and self._said.page == self.message:
            return self._said.display
        return self.message

    # ------------------------------------------------------------------ end and new game

    def end_game(self, t: float, reason: str, side: int | None) -> None:
        if self.phase == Phase.OVER:
            return
        self.clocks.stop(t)
        record: Record = {"k": RecordKind.END, "t": t, "reason": reason, **self.clocks.state(t)}
        if side is not None:
            record["side"] = side
        self.write(record)
        self.apply(record)
        assert self.outcome is not None
        self.message = self.outcome.text
        self.cue(t, CueName.GAME_OVER)
        self.log_event(t, "end", {"reason": reason, "winner": self.outcome.winner})

    def new_game(self, t: float) -> None:
        """Archive the finished game's journal and wait for the opening of a new one."""
        if self.journal is not None:
            try:
                self.journal.keep(self.wall())
            except JournalError as exc:
                self.problems.append(str(exc))
        self.fresh(SessionConfig(**{**self.config.__dict__, "position": None}))
        self.signing.new_game()
        self.begin(t)
        if self.board is not None:  # the new game's tracker reads the board as it stands
            self.handle(self.tracker.feed_frame(t, self.board), t)

    # ------------------------------------------------------------------ helpers

    def write(self, record: Record) -> bool:
        """Journal a record before it takes effect; True once it is on the disk
        (``writer.JournalWriter``)."""
        return self.writer.write(record)

    def _refuse(self, t: float) -> None:
        """A move that could not be saved: the board guides it back (restore) and asks for
        it again once the disk takes records."""
        self.writer.refuse()
        self.phase = Phase.RESTORE
        self.cue(t, CueName.ERROR)
        self.handle(self.tracker.set_position(self.game, t), t)
        self.log_event(t, "move_refused", {"reason": self.writer.reason})

    def cue(self, t: float, name: CueName) -> None:
        self._cue_seq += 1
        cue = Cue(self._cue_seq, t, name)
        self.cues.append(cue)
        self.recent_cues.append(cue)

    def log_event(self, t: float, kind: str, details: dict[str, Any]) -> None:
        self.log.append((t, kind, details))
        del self.log[:-200]


__all__ = ["Cue", "Session", "SessionConfig", "Square", "ViewInput"]
