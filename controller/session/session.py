"""One game's life on the board: setup, play, pause, takeback, end and tally, journal and resume.

The session owns the game, the tracker, the clocks and the journal. Time comes in with every
call (``t``, seconds on an injected monotonic clock); there is no thread and no I/O besides the
journal. Everything it accepts (a move, an arbiter action, a clock event) is appended to the
journal and synced before it is applied and confirmed (a cue, the LEDs).

Phases: ``setup`` (the opening checked on the sensors; the arbiter may change variant and rules),
``play``, ``restore`` (the board must be brought back to the expected position: after a takeback
or a restart), ``over`` (tally shown). ``paused`` and ``menu`` are orthogonal to the phase.

The board runtime calls: ``feed_frame``, ``press``, ``advance`` (or ``tick``), ``view_input``,
``take_cues``, ``close`` (docs/session.md). Every record the session journals is read by one
``apply``, the same for play as it happens and for a resume.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.i18n import _, side_word
from controller.rules import variants
from controller.rules.damath_data import BLUE_SQUARES, RED_SQUARES
from controller.rules.game import Game, IllegalMove
from controller.rules.move import BLUE, Move, Square, side_name
from controller.rules.notation import game_from_json, game_to_json
from controller.rules.profiles import PROFILES, Profile, ProfileError, get_profile
from controller.rules.scoring import kind_of, score_move, sum_scores
from controller.scoresheet.model import Row, Scoresheet, build_scoresheet, move_rows
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
from controller.tracker.guidance import Guidance

from . import coach_texts, texts
from . import info as game_info
from . import play as play_mode
from .clocks import ArbiterClocks, ClockEvent, ClockReading
from .journal import Journal, JournalError, JournalLoad, Record
from .kinds import CueName, MenuAction, Phase, RecordKind
from .menu import Menu, abandon_menu, adjudication_menu, names_menu, settings_menu
from .outcome import Outcome, scoring_profile, tally
from .shown import Shown, move_text
from .signing import PLAYER_BUTTONS, SIGNING_KINDS, SensorTrace, Signing
from .signing import record_problem as signing_problem

JOURNAL_VERSION = 1


@dataclass
class SessionConfig:
    """What a game starts from; the app reads it from the command line or a settings file."""

    variant: str = "integer"
    rules: str = "official"
    rule_settings: dict[str, Any] = field(default_factory=dict)
    """Profile settings changed by the arbiter (``Profile.with_settings``), e.g. touch_move."""
    tracker_settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    """A JSON position to start from instead of the opening (a resumed or adjourned game)."""
    checkpoint_seconds: float = 10.0
    """While time runs, a clock checkpoint is journaled this often: the most a power cut can
    give back to the players."""
    info: dict[str, str] = field(default_factory=dict)
    """Players and event (``session/info.py``): names, schools, event, round, board, date."""
    play: dict[str, Any] = field(default_factory=dict)
    """Practice or tournament (``session/play.py``): clocks, takeback, capture preview."""
    roster: tuple[str, ...] | None = None
    """The class list the board's buttons choose names from; None: read ``players.txt``
    beside the journal."""

    def __post_init__(self) -> None:
        """``run --set NAME=VALUE`` hands every setting over as a rule setting: the players,
        the event and the play settings are taken out of them here, by name, and checked."""
        if any(k in game_info.FIELDS or k in play_mode.NAMES for k in self.rule_settings):
            rule_settings = dict(self.rule_settings)
            self.info = {**self.info}
            self.play = {**self.play}
            for key in list(rule_settings):
                if key in game_info.FIELDS:
                    self.info[key] = rule_settings.pop(key)
                elif key in play_mode.NAMES:
                    self.play[key] = rule_settings.pop(key)
            self.rule_settings = rule_settings
        self.info = game_info.clean(self.info)
        self.play_settings()

    def profile(self) -> Profile:
        return get_profile(self.rules).with_settings(self.rule_settings)

    def play_settings(self) -> play_mode.PlaySettings:
        """The play settings, checked: a practice help asked for outside practice is refused
        clearly rather than silently ignored."""
        settings = play_mode.parse(self.play)
        if not settings.practice:
            wrong = [
                name
                for name, asked in (
                    ("clocks=off", settings.clocks == "off"),
                    ("takeback=players", settings.takeback == "players"),
                    ("capture_preview=true", settings.capture_preview),
                    (f"computer={settings.computer}", settings.computer != "off"),
                    ("hints=true", settings.hints),
                )
                if asked
            ]
            if wrong:
                raise play_mode.PlayError(
                    _("{join}: practice help, for practice games only (add practice=true)").format(
                        join=", ".join(wrong)
                    )
                )
        return settings


@dataclass(frozen=True)
class Cue:
    """A buzzer pattern to play (drivers.buzzer.PATTERNS), numbered so a viewer plays it once."""

    seq: int
    t: float
    name: str


@dataclass
class ViewInput:
    """Everything the view needs, as data (controller.view.compose reads nothing else)."""

    phase: str
    paused: bool
    variant: str
    rules: str
    side_to_move: int
    ply: int
    guidance: Guidance
    clock: ClockReading
    last_move: Move | None
    rows: tuple[Row, ...]
    totals: tuple[str, str]
    menu: Menu | None
    message: str
    outcome: Outcome | None
    proxy: bool
    display_message: str = ""
    """The message's short form for the display (ASCII, a few lines)."""
    info: dict[str, str] = field(default_factory=dict)
    """Players and event (``session/info.py``)."""
    timed: bool = True
    """False in practice with the clocks off: the clock displays show no time."""
    preview: tuple[tuple[Square, str], ...] = ()
    shown: Shown | None = None
    """The computer's move or a hint the board shows for this position (``shown.py``)."""
    """Practice: where the lifted chip may land and what that taking would score."""
    start_order: tuple[Square, ...] = ()
    """Setup: the squares in the order the display asks for their chips."""
    review: dict[str, Any] | None = None
    """The coach's review of the finished game (practice), when there is one for these moves."""
    review_page: int = 0
    """Which of the review's display pages the tally page gives way to (0: the tally)."""
    page: PageFacts | None = None
    """What only a page shows (``view_input(t, page=True)``); the scan loop never builds it."""


@dataclass(frozen=True)
class PageFacts:
    """The part of the view only the simulator's page and the tests read: built on demand,
    never at the scan loop's 25 Hz (the sheet of a game in progress is not free)."""

    sheet: Scoresheet
    """The scoresheet (``Session.sheet``): the tally once the game is over."""
    cues: tuple[Cue, ...]
    """The last buzzer cues, numbered, so a page plays each once."""
    said: str
    """The session's own message (the journal's trouble first), without a shown move's text."""
    problems: tuple[str, ...]
    moves: tuple[str, ...]
    play: dict[str, Any]


class Session:
    def __init__(self, config: SessionConfig, journal: Journal | None = None) -> None:
        # what belongs to the board, and stays from one game to the next
        self.journal = journal
        self.recent_cues: deque[Cue] = deque(maxlen=20)
        self._cue_seq = 0
        self.problems: list[str] = []
        self.board: frozenset[Square] | None = None
        self.roster: tuple[str, ...] = config.roster or ()
        """The class list the board's buttons choose the players' names from."""
        self.wall: Callable[[], float] = time.time
        """The wall clock, for naming a kept game only (``journal.kept_name``)."""
        self._now = 0.0
        self.signing = Signing()
        """The assignment's confirmation, the game's signatures and disputes (signing.py)."""
        self.sensed = SensorTrace()
        self._fresh(config)

    def _fresh(self, config: SessionConfig) -> None:
        """Everything of one game, as it stands before its start: ``__init__`` and each new
        game on the same board begin here."""
        self.config = config
        self.cues: list[Cue] = []
        self.log: list[tuple[float, str, dict[str, Any]]] = []
        self._message = ""
        self._said: texts.Said | None = None
        """The display's short form of ``message`` (when the message came from ``_say``)."""
        self.journal_problem = ""
        """While the journal cannot be written: what the board says instead of anything else."""
        self._unsaved: list[Record] = []
        self._refused = False
        self._last_retry = float("-inf")
        self.menu: Menu | None = None
        self.paused = False
        self.outcome: Outcome | None = None
        self.proxy = False
        self._last_checkpoint = 0.0
        self._reading = (0, 0)
        """The clocks' last journaled reading (game ms, move ms): a move record is played with
        it (``apply``)."""
        self.hint_requests = 0
        """Confirm pressed during play with nothing to confirm and hints on: the board's own
        hint button (the coach answers it, ``controller/coach``)."""
        self.review: dict[str, Any] | None = None
        """The coach's review of this finished game (``controller/coach``): not journaled, it
        is made again from the moves when needed."""
        self.review_ply = -1
        self.review_page = 0
        """The display's review page the Next button turned to (0: the tally)."""
        self._new_game_objects(config)
        self.phase = Phase.SETUP

    @property
    def message(self) -> str:
        """The message of the moment; a journal that cannot be written outranks every other."""
        return self.journal_problem or self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message = text

    # ------------------------------------------------------------------ construction

    def _new_game_objects(self, config: SessionConfig) -> None:
        profile = config.profile()
        if config.position is not None:
            position = dict(config.position)
            position.setdefault("variant", config.variant)
            position["profile"] = profile.name
            game = game_at(position, profile)
        else:
            game = Game.new(config.variant, profile)
        self.game = game
        self.start_position = game_to_json(game)
        self.info: dict[str, str] = dict(config.info)
        self.play = config.play_settings()
        self.settings = Settings().with_overrides(config.tracker_settings)
        self.tracker = Tracker(game, self.settings, mode="setup")
        self.clocks = ArbiterClocks(
            profile.game_seconds,
            profile.move_seconds,
            min(profile.warn_seconds, profile.move_seconds - 1),
        )
        self.rows: list[Row] = []
        self.move_clocks: list[tuple[int, int]] = []
        """Per played move, the clocks' used time when it was made (game ms, move ms): the
        game record carries them (PDN ``%clk``/``%emt``), as tournament records do."""
        zero = sum_scores((), kind_of(self.variant))
        self._running = [zero, zero]
        self.last_move: Move | None = None
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
        session._now = t
        session._resume(loaded, t)
        return session

    @classmethod
    def start(cls, config: SessionConfig, t: float, journal: Journal | None = None) -> Session:
        """A new game from ``config`` (its start journaled, when there is a journal): the
        tracker waits for the opening on the board."""
        session = cls(config, journal)
        session._now = t
        session._begin(t)
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

    def _start_record(self, t: float) -> Record:
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

    # ------------------------------------------------------------------ resume

    def _resume(self, loaded: JournalLoad, t: float) -> None:
        """The game in ``loaded``, replayed record by record through ``apply``; damage is
        reported in ``problems`` and what was good is resumed."""
        self.problems.extend(loaded.problems)
        if loaded.saved_as:
            self.problems.append(
                _("the damaged journal was kept as {saved_as}").format(saved_as=loaded.saved_as)
            )
        records = loaded.records
        if loaded.existed and not records and not loaded.problems:
            self.problems.append(_("the journal was empty (nothing had been saved): a new game"))
        starts = [i for i, r in enumerate(records) if r.get("k") == "start" and _start_ok(r)]
        if not starts:
            if records:
                self.problems.append(_("the journal has no start record; new game"))
            self._begin(t)
            self.message = self.problems[0] if self.problems else ""
            return
        first = starts[-1]
        config = self.config  # _replay replaces it with the journal's, which may be the fault
        try:
            kept, ending = self._replay(records[first:], t)
        except Exception as exc:  # whatever is in the file, the board starts (and says why)
            reason = str(exc)[:120] or type(exc).__name__
            problems = [
                *self.problems,
                _("the journal cannot be resumed ({reason}); new game").format(reason=reason),
            ]
            self._fresh(SessionConfig(**{**config.__dict__, "position": None}))
            self.problems = problems
            self._begin(t)
        else:
            if loaded.problems and self.journal is not None:
                # the journal now holds exactly what was resumed; the damaged copy keeps all
                try:
                    self.journal.replace(records[:first] + kept)
                except JournalError as exc:
                    self.problems.append(str(exc))
            if ending is not None:  # the power went between the last move and its "end"
                self._end(t, ending.reason, ending.side)
        if self.problems:
            self.message = self.problems[0]

    def _replay(self, records: list[Record], t: float) -> tuple[list[Record], Any]:
        """Rebuild the game from its records; returns the records resumed and the board's
        ending if the game ended before its "end" record was written.

        Every move record must fit: its ``ply`` is the game's ply and its path is legal. One
        that does not fit means a record before it was lost (damaged) or is not what the
        board wrote. If exactly one move (or one takeback) in that place makes every later
        move fit, the gap is bridged with it and said so; otherwise play resumes before the
        record that does not fit, and the records after it stay in the damaged copy.
        """
        self.apply(records[0])
        kept: list[Record] = [records[0]]
        n = 1
        while n < len(records):
            rec = records[n]
            seq = rec.get("seq")
            label = _("journal record {value}").format(
                value=seq if type(seq) is int and 0 < seq < 10**9 else n + 1
            )
            problem = record_problem(rec) or self._setting_problem(rec)
            if problem:
                self.problems.append(
                    _("{label}: {problem}; skipped it").format(label=label, problem=problem)
                )
                n += 1
                continue
            kind = rec["k"]
            if kind in (RecordKind.MOVE, RecordKind.TAKEBACK) and not _fits_here(self.game, rec):
                bridge = self._bridge(records[n:], self._reading)
                if bridge is None:
                    later = sum(1 for r in records[n:] if r.get("k") == RecordKind.MOVE)
                    self.problems.append(
                        _(
                            "{label} does not fit the game: a record before it was lost; resumed "
                            "before it ({later} later move(s) kept only in the damaged copy)"
                        ).format(label=label, later=later)
                    )
                    break
                self.problems.append(f"{label}: {bridge['why']}")
                del bridge["why"]
                records = [*records[:n], bridge, *records[n:]]
                continue  # apply the bridge, then this record again
            self.apply(rec)
            kept.append(rec)
            n += 1
        self.clocks.restore(self._reading[0] / 1000, self._reading[1] / 1000)
        self.tracker = Tracker(
            self.game, self.settings, mode="restore" if self.phase != Phase.SETUP else "setup"
        )
        if self.phase == Phase.PLAY:  # the chips must be seen where the game has them
            self.phase = Phase.RESTORE
        ending = self.game.ending() if self.phase == Phase.RESTORE else None
        if self.phase == Phase.RESTORE:
            self._say(texts.RESTART)
        self._log(t, "resumed", {"ply": self.game.ply, "phase": self.phase})
        return kept, ending

    def apply(self, rec: Record) -> Move | None:
        """What a journaled record does to the game: the one reading of every kind of record,
        for play as it happens (each handler writes its record, then applies it) and for the
        replay of a journal. Returns the move played by a move record, or taken back by a
        takeback. The clocks, cues and messages stay with the handlers: they are the live
        board's, and a replay restores the clocks once, from the last reading."""
        kind = rec["k"]
        if "game_ms" in rec:
            self._reading = (rec["game_ms"], rec["move_ms"])
        if kind == RecordKind.START:
            self._fresh(
                SessionConfig(
                    variant=_text_field(rec, "variant"),
                    rules=_text_field(rec, "rules"),
                    rule_settings=_dict_field(rec, "rule_settings"),
                    tracker_settings=_dict_field(rec, "tracker_settings"),
                    position=_dict_field(rec, "position"),
                    checkpoint_seconds=self.config.checkpoint_seconds,
                    info=_dict_field(rec, "info"),
                    play=_dict_field(rec, "play"),
                    roster=self.config.roster,
                )
            )
        elif kind == RecordKind.READY:
            self.phase = Phase.PLAY
        elif kind in SIGNING_KINDS:
            self.signing.apply(rec)
        elif kind == RecordKind.MOVE:
            move = self.game.find_move([(sq[0], sq[1]) for sq in rec["path"]])
            self.proxy = False
            self.sensed.mark()
            return self._apply_move(move, self._reading)
        elif kind == RecordKind.TAKEBACK:
            self.outcome = None
            self.proxy = False
            self.signing.signed.clear()  # a sheet signed before the takeback is not this one
            if self.phase == Phase.OVER:
                self.phase = Phase.PLAY
            return self._undo_move()
        elif kind == RecordKind.PAUSE:
            self.paused = True
        elif kind == RecordKind.RESUME:
            self.paused = False
        elif kind == RecordKind.TIMEOUT:
            self.proxy = self.rules_profile.move_timeout == "opponent-moves"
        elif kind == RecordKind.INFO:
            self.info = game_info.clean(rec["info"])
            self.config = SessionConfig(**{**self.config.__dict__, "info": self.info})
            if self.outcome is not None:  # a finished game's sheet shows the names too
                self.outcome = tally(self.game, self.outcome.reason, self.outcome.side, self.info)
        elif kind == RecordKind.PLAY:
            self.play = self.play.with_changes(rec["play"])
            self.config = SessionConfig(**{**self.config.__dict__, "play": self.play.json()})
        elif kind == RecordKind.END:
            self.outcome = tally(self.game, rec["reason"], rec.get("side"), self.info)
            self.phase = Phase.OVER
            self.paused = False
            self.menu = None
        return None

    def _setting_problem(self, rec: Record) -> str | None:
        """A "play" record the board could not have written in this game: practice and the
        clocks are chosen with a new game, and a practice help is refused outside practice
        (``set_play`` writes neither)."""
        if rec["k"] != "play":
            return None
        new = self.play.with_changes(rec["play"])
        if (new.practice, new.clocks) != (self.play.practice, self.play.clocks):
            return _("practice and the clocks are chosen with a new game, not during one")
        try:
            SessionConfig(**{**self.config.__dict__, "play": new.json()})
        except ValueError as exc:
            return str(exc)[:120]
        return None

    def _bridge(self, rest: list[Record], clock: tuple[int, int]) -> Record | None:
        """The one record (a move, or a takeback) that makes every move record in ``rest``
        fit the game, or None when there is none or more than one."""
        first = rest[0]
        diff = first["ply"] - self.game.ply
        found: list[Record] = []
        base = {"t": first["t"], "game_ms": clock[0], "move_ms": clock[1], "recovered": True}
        game = self.game  # tried in place, and always put back as it was
        if diff == 1:
            for move in game.legal_moves():
                game.push(move)
                try:
                    fits = _all_fit(game, rest)
                finally:
                    game.pop()
                if fits:
                    path = [list(sq) for sq in move.path]
                    found.append({"k": "move", "ply": game.ply, "path": path, **base})
                    if len(found) > 1:
                        return None
        elif diff == -1 and game.ply:
            undone = game.pop()
            try:
                fits = _all_fit(game, rest)
            finally:
                game.push(undone)
            if fits:
                found.append({"k": "takeback", "ply": game.ply - 1, **base})
        if len(found) != 1:
            return None
        record = found[0]
        what = (
            _("the move {join}").format(join="-".join(f"{x},{y}" for x, y in record["path"]))
            if record["k"] == "move"
            else "a takeback"
        )
        record["why"] = _(
            "the record before it was lost; it can only have been {what} (the one that makes "
            "every later move fit): restored it"
        ).format(what=what)
        return record

    def _begin(self, t: float) -> None:
        """A new game: journal its start; the tracker waits for the opening on the board."""
        self.phase = Phase.SETUP
        self._write(self._start_record(t))

    # ------------------------------------------------------------------ the API

    def feed_frame(self, t: float, occupied: Any) -> list[Event]:
        """A sensor frame at ``t``: what is on the board now."""
        self._now = max(self._now, t)
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
        self._handle(events, t)
        if (
            placed_before is not None
            and self.phase == Phase.SETUP
            and self._placed() > placed_before
        ):
            self._cue(t, CueName.MOVE)  # guided setup: the board confirms each chip put in place
        return events

    def _placed(self) -> int:
        """Setting up: how many of the expected chips stand on their squares."""
        g = self.tracker.guidance()
        return len(self.tracker.game.chips()) - len(g.missing)

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """An arbiter button: ``press`` or ``hold`` (drivers.buttons.ButtonEvent)."""
        self._now = max(self._now, t)
        self.advance(t)
        if self._signing_button(t, name, kind):
            return
        if self.menu is not None:
            self._menu_button(t, name)
        elif self.phase == Phase.SETUP:
            self._setup_button(t, name, kind)
        elif self.phase == Phase.OVER:
            self._over_button(t, name)
        else:
            self._play_button(t, name, kind)

    def advance(self, t: float) -> None:
        """Time passed: the tracker's settle and error timers and the clocks' deadlines."""
        self._now = max(self._now, t)
        self._retry_journal(t)
        self._handle(self.tracker.tick(t), t)
        self._poll_clocks(t)
        if (
            self.clocks.running
            and self.config.checkpoint_seconds > 0
            and t - self._last_checkpoint >= self.config.checkpoint_seconds
        ):
            self.checkpoint(t)

    def checkpoint(self, t: float) -> None:
        """Journal the clocks as they stand (while they run): done every ``checkpoint_seconds``
        and at a deliberate stop, so a stop costs no time and a power cut at most that much."""
        if self.clocks.running:
            self._write({"k": "tick", "t": t, **self.clocks.state(t)})

    def take_cues(self) -> list[Cue]:
        cues, self.cues = self.cues, []
        return cues

    def view_input(self, t: float, *, page: bool = False) -> ViewInput:
        """Everything the view needs at ``t``, as data; ``page`` adds what only a page shows."""
        shown = self.current_shown()
        shown_said = shown.said() if shown is not None and not self.paused else None
        return ViewInput(
            phase=self.phase,
            paused=self.paused,
            variant=self.game.variant or "",
            rules=self.config.rules,
            side_to_move=self.game.side_to_move,
            ply=self.game.ply,
            guidance=self.tracker.guidance(),
            clock=self.clocks.reading(t),
            last_move=self.last_move,
            rows=tuple(self.rows),
            totals=self.totals(),
            menu=self.menu,
            message=self.message or (shown_said.page if shown_said else ""),
            outcome=self.outcome,
            proxy=self.proxy,
            display_message=self.display_message or (shown_said.display if shown_said else ""),
            info=dict(self.info),
            timed=self.play.timed,
            preview=self.capture_preview(),
            start_order=self.start_order,
            shown=shown,
            review=self.current_review(),
            review_page=self.review_page if self.current_review() else 0,
            page=None if not page else self._page_facts(),
        )

    def _page_facts(self) -> PageFacts:
        return PageFacts(
            sheet=self.sheet(),
            cues=tuple(self.recent_cues),
            said=self.message,
            problems=tuple(self.problems),
            moves=tuple(str(m) for m in self.game.move_stack),
            play=self.play.json(),
        )

    def set_review(self, review: dict[str, Any] | None, ply: int) -> None:
        """The coach's review of the game as it stood after ``ply`` moves: on the display's
        pages and the printable sheet while the game stays as it was reviewed. The display
        turns to its first page when it comes (the tally was on it meanwhile); Next turns the
        pages, and after the last one the tally is back."""
        self.review, self.review_ply, self.review_page = review, ply, 1 if review else 0

    def current_review(self) -> dict[str, Any] | None:
        """The review, if it is of the finished game as it stands."""
        if self.review is None or self.phase != Phase.OVER or self.review_ply != self.game.ply:
            return None
        return self.review

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

    def capture_preview(self) -> tuple[tuple[Square, str], ...]:
        """Practice help: while a chip is lifted, each square where a taking of it may end and
        what that taking scores (``3`` or, for paths that score differently, ``3 / -2``)."""
        if not self.play.preview or self.phase != Phase.PLAY or self.paused:
            return ()
        g = self.tracker.guidance()
        if g.phase not in ("moving", "settling") or not g.lifted:
            return ()
        start = g.lifted[0]
        scores: dict[Square, list[str]] = {}
        for move in self.tracker.game.legal_moves():
            if move.start == start and move.takings:
                text = score_move(move, self.variant).text
                if text not in scores.setdefault(move.end, []):
                    scores[move.end].append(text)
        return tuple((end, " / ".join(texts)) for end, texts in sorted(scores.items()))

    @property
    def start_order(self) -> tuple[Square, ...]:
        """The order the display names the chips in while setting up: Blue's squares then
        Red's, each in the order of the placement table (docs/rules.md), so a teacher's list
        and the board agree; a loaded position's squares follow, by row."""
        chips = self.tracker.game.chips() if self.phase == Phase.SETUP else {}
        order = [sq for sq in (*BLUE_SQUARES, *RED_SQUARES) if sq in chips]
        rest = sorted((sq for sq in chips if sq not in order), key=lambda s: (s[1], s[0]))
        return (*order, *rest)

    def set_info(self, t: float, changes: dict[str, Any]) -> None:
        """Players and event entered or corrected (the page, the board's menu): journaled, so
        the sheet and the game record carry them after a restart too."""
        new = {**self.info, **game_info.clean(changes)}
        new = {k: v for k, v in new.items() if v}
        if new == self.info:
            return
        record: Record = {"k": RecordKind.INFO, "t": t, "info": new}
        self._write(record)
        self.apply(record)
        self._log(t, "info", dict(new))

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
        self._write(record)
        self.apply(record)
        self._log(t, "play", settings.json())

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

    # ------------------------------------------------------------------ for the simulator

    @property
    def variant(self) -> str:
        return self.game.variant or ""

    @property
    def rules_profile(self) -> Profile:
        """The rules the game is played under (with the arbiter's settings)."""
        profile = self.game.profile
        assert profile is not None  # a session's game always has one (``_new_game_objects``)
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
        return game_at(self.start_position, self.rules_profile)

    def sheet(self) -> Scoresheet:
        """The scoresheet: the whole tally once the game is over; while it is played, the
        entries and running totals so far, marked as a game in progress (no RC, no result)."""
        if self.outcome is not None:
            return self.outcome.sheet
        return build_scoresheet(
            self.game.played(),
            self.game.chips(),
            self.variant,
            scoring_profile(self.game),
            game_info.players(self.info),
            finished=False,
            event=game_info.event(self.info),
        )

    def export_csv(self) -> str:
        from controller.scoresheet.render import render_csv

        return render_csv(self.sheet())

    def export_html(self) -> str:
        from controller.scoresheet.html import render_html

        return render_html(self.sheet(), self.current_review())

    def export_pdn(self) -> str:
        from .export import pdn

        return pdn(self.game, self.start_game(), self.outcome, self.pdn_clocks(), self.info)

    def pdn_clocks(self) -> list[tuple[float, float]]:
        """Per played move: the game clock left after it and the time it took, in seconds."""
        total = self.rules_profile.game_seconds
        return [(total - g / 1000, m / 1000) for g, m in self.move_clocks]

    def totals(self) -> tuple[str, str]:
        from controller.rules.scoring import format_score

        kind = kind_of(self.variant)
        return format_score(self._running[0], kind), format_score(self._running[1], kind)

    def next_deadline(self) -> float | None:
        times = [d for d in (self.tracker.next_deadline(), self.clocks.next_deadline()) if d]
        return min(times) if times else None

    # ------------------------------------------------------------------ tracker events

    def _handle(self, events: list[Event], t: float) -> None:
        for ev in events:
            self._poll_clocks(ev.t)
            if isinstance(ev, MoveCommitted):
                self._on_move(ev)
            elif isinstance(ev, BoardReady):
                self._on_ready(ev)
            elif isinstance(ev, BoardNeeded) and ev.mode != "setup":
                self._say(texts.RESTORE_BOARD)  # setting up: the display guides chip by chip
            elif isinstance(ev, Mismatch):
                self._cue(ev.t, CueName.ERROR)
            elif isinstance(ev, Lifted) and ev.reason:
                self._cue(ev.t, CueName.ERROR)  # the reason is shown from the tracker's guidance
            elif isinstance(ev, ButtonIgnored):
                pass
            self._log(ev.t, ev.kind, ev.details())

    def _on_ready(self, ev: BoardReady) -> None:
        if self.phase == Phase.SETUP:
            record: Record = {"k": RecordKind.READY, "t": ev.t, **self.clocks.state(ev.t)}
            self._write(record)
            self.apply(record)
            self.message = ""
            self._last_checkpoint = ev.t
            self._resume_time(ev.t)  # at once, unless the journal refuses records
            self._cue(ev.t, CueName.MOVE)
        elif self.phase == Phase.RESTORE:
            self.phase = Phase.PLAY
            if self.paused:
                self._say(texts.PAUSED)
            else:
                self.message = ""
            if self.journal_problem:
                self.journal_problem = texts.NOT_SAVED.format(reason=self._journal_reason).page
            self._resume_time(ev.t)

    def _on_move(self, ev: MoveCommitted) -> None:
        if self.phase == Phase.OVER:
            return
        t = ev.t
        wrong = self._not_as_shown(ev.move)
        if wrong is not None:  # the computer's chips moved, but not as the board showed
            self.phase = Phase.RESTORE
            self._cue(t, CueName.ERROR)
            self._handle(self.tracker.set_position(self.game, t), t)
            shown = self.shown
            self._say(wrong, move=move_text(shown.move) if shown else "")
            self._log(t, "not_as_shown", {"move": str(ev.move)})
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
        if not self._write(record):  # not on the disk: not confirmed; the board asks again
            self._refuse(t)
            return
        move = self.apply(record)
        self.shown = None
        self.clocks.new_move(t)
        self._last_checkpoint = t
        self.message = ""
        self._cue(t, CueName.MOVE)
        ending = self.game.ending()
        if ending is not None:
            self._end(t, ending.reason, ending.side)
        self._log(t, "accepted", {"move": str(move)})

    def _apply_move(self, move: Move, clock: tuple[int, int]) -> Move:
        side = self.game.side_to_move
        played = self.game.push(move)
        self.move_clocks.append(clock)
        rows, self._running[side] = move_rows(side, played, self._running[side], self.variant)
        self.rows.extend(rows)
        self.last_move = played
        return played

    def _undo_move(self) -> Move:
        move = self.game.pop()
        del self.move_clocks[self.game.ply :]
        self._rebuild_rows()
        self.last_move = self.game.move_stack[-1] if self.game.ply else None
        return move

    def _rebuild_rows(self) -> None:
        kind = kind_of(self.variant)
        self.rows = []
        self._running = [sum_scores((), kind), sum_scores((), kind)]
        for side, move in self.game.played():
            rows, self._running[side] = move_rows(side, move, self._running[side], self.variant)
            self.rows.extend(rows)

    # ------------------------------------------------------------------ clocks

    def _poll_clocks(self, t: float) -> None:
        if self.phase != Phase.PLAY or not self.play.timed:
            return
        for ev in self.clocks.poll(t):
            self._on_clock(ev)

    def _on_clock(self, ev: ClockEvent) -> None:
        side = self.game.side_to_move
        who = side_word(side).upper()
        if ev.kind == "warning":
            self._write({"k": "warning", "t": ev.t, "side": side, **self.clocks.state(ev.t)})
            self._cue(ev.t, CueName.WARNING)
            seconds = round(self.clocks.move_seconds - self.clocks.used(ev.t)[1])
            self._say(texts.WARNING, SIDE=who, seconds=max(1, seconds))
        elif ev.kind == "move_timeout":
            rule = self.rules_profile.move_timeout
            record: Record = {
                "k": RecordKind.TIMEOUT, "t": ev.t, "side": side, "rule": rule,
                **self.clocks.state(ev.t),
            }  # fmt: skip
            self._write(record)
            self.apply(record)
            self._cue(ev.t, CueName.TIME_UP)
            if rule == "opponent-moves":
                other = side_word(1 - side).upper()
                self.clocks.restart_move_clock(ev.t)
                self._say(texts.TIMEOUT_OPPONENT, SIDE=who, OTHER=other)
            else:
                self._say(texts.TIMEOUT_ARBITER, SIDE=who)
        elif ev.kind == "game_over":
            self._end(ev.t, "time", None)
        self._log(ev.t, ev.kind, {"side": side})

    # ------------------------------------------------------------------ buttons

    def _setup_button(self, t: float, name: str, kind: str) -> None:
        if name == "next" and self.game.ply == 0:
            if kind == "hold":
                self._reconfigure(t, rules=_after(tuple(PROFILES), self.config.rules))
            else:
                self._reconfigure(t, variant=_after(variants.NAMES, self.game.variant or ""))
        elif name == "confirm":
            self._handle(self.tracker.feed_button(t, name), t)
        elif name == "pause" and kind == "hold":
            self._open_menu(t, settings_menu(self.info, play=self.play))
        else:
            self._ignored(t, name, texts.SETUP_BUTTONS)

    def expect_assignment(self, asg: str) -> None:
        """The hub's assignment is on the board (its link put it there): wait for it to be
        confirmed, unless this game's journal says it already is."""
        self.signing.awaiting = asg
        if self.signing.waiting:  # the display keeps the players' names in view
            names = {k: self.info.get(k) or "?" for k in ("table", "blue", "red")}
            self._say(texts.CONFIRM_TABLE, **names)

    def _signing_button(self, t: float, name: str, kind: str) -> bool:
        """A press that confirms the table, signs the sheet or disputes; True when it did."""
        side = PLAYER_BUTTONS.get(name)
        asg = self.signing.waiting
        confirming = name == "confirm" or side is not None
        if (
            asg is not None
            and confirming
            and self.menu is None
            and self.phase in (Phase.SETUP, Phase.PLAY)
            and not self.game.ply
            and kind == "press"
        ):
            by = "arbiter" if side is None else name
            self._signing_record({"k": RecordKind.CONFIRM, "t": t, "asg": asg, "by": by})
            if self.signing.is_confirmed(asg):
                self._say(texts.CONFIRMED)
            else:  # one player so far (the arbiter's alone confirms)
                assert side is not None
                self._say(
                    texts.CONFIRMED_ONE, SIDE=side_word(side).upper(), OTHER=side_word(1 - side)
                )
            self._log(t, "confirmed", {"asg": asg, "by": by})
            return True
        if side is None:
            return False
        if kind == "hold" and self.phase != Phase.SETUP:
            self._signing_record(
                {
                    "k": RecordKind.DISPUTE,
                    "t": t,
                    "side": side,
                    "ply": self.game.ply,
                    "sensed": self.sensed.evidence(),
                }
            )
            self._cue(t, CueName.WARNING)
            if self.phase != Phase.OVER and not self.paused:
                self._toggle_pause(t)
            self._say(texts.DISPUTED, SIDE=side_word(side).upper())
            self._log(t, "dispute", {"side": side})
        elif kind == "press" and self.phase == Phase.OVER and side not in self.signing.signed:
            self._signing_record({"k": RecordKind.SIGN, "t": t, "side": side})
            if len(self.signing.signed) == 2:
                self._say(texts.SIGNED_BOTH)
            else:
                self._say(texts.SIGNED_ONE, SIDE=side_word(side).upper(), OTHER=side_word(1 - side))
            self._log(t, "signed", {"side": side})
        else:
            self._say(texts.PLAYER_BUTTON, SIDE=side_word(side).upper())
        return True

    def _signing_record(self, record: Record) -> None:
        self._write(record)
        self.apply(record)

    def desk_pause(self, t: float, pause: bool) -> bool:
        """The arbiter's desk paused (or resumed) the game from the hub: as the Pause button
        does, the record saying who. False when there was nothing to do."""
        if self.phase not in (Phase.PLAY, Phase.RESTORE) or self.paused == pause:
            return False
        if pause:
            self.clocks.stop(t)
        record: Record = {
            "k": RecordKind.PAUSE if pause else RecordKind.RESUME,
            "t": t,
            "by": "desk",
            **self.clocks.state(t),
        }
        self._write(record)
        self.apply(record)
        if pause:
            self._say(texts.DESK_PAUSED)
        else:
            self.message = ""
            self._resume_time(t)
        self._log(t, "pause" if pause else "resume", {"by": "desk"})
        return True

    def _reconfigure(self, t: float, **changes: Any) -> None:
        config = SessionConfig(**{**self.config.__dict__, **changes})
        try:
            config.profile()
        except ProfileError as exc:
            self.message = str(exc)
            return
        self.config = config
        self._new_game_objects(config)
        self._write(self._start_record(t))
        self._say(texts.VARIANT_CHOSEN, variant=self.variant.capitalize(), rules=config.rules)
        if self.board is not None:  # the new tracker reads the board as it stands
            self._handle(self.tracker.feed_frame(t, self.board), t)

    def _play_button(self, t: float, name: str, kind: str) -> None:
        if name == "pause":
            if kind == "hold":
                self._open_menu(t, adjudication_menu())
            else:
                self._toggle_pause(t)
        elif name == "takeback":
            self._takeback(t)
        elif name == "new_game":
            self._open_menu(t, abandon_menu())
        elif name in ("confirm", "next"):
            events = self.tracker.feed_button(t, name)
            g = self.tracker.guidance()
            if (
                name == "confirm"
                and self.play.hints_on
                and events
                and isinstance(events[-1], ButtonIgnored)
                and g.phase == "idle"
            ):
                self.hint_requests += 1  # nothing to confirm: the players ask for a hint
            self._handle(events, t)
        else:
            self._ignored(t, name, None)

    def _over_button(self, t: float, name: str) -> None:
        if name == "new_game":
            self.new_game(t)
        elif name == "next" and self.current_review() is not None:
            self.review_page += 1  # the tally, then each of the review's pages in turn
        elif (
            name == "takeback"
            and self.outcome
            and self.outcome.reason in ("no-chips", "no-moves", "repetition")
        ):
            self._takeback(t)
        else:
            self._ignored(t, name, texts.OVER_BUTTONS)

    def _menu_button(self, t: float, name: str) -> None:
        menu = self.menu
        assert menu is not None
        if name == "next":
            self.menu = menu.next()
        elif name == "confirm":
            self.menu = None
            choice = menu.choice
            if choice.action == MenuAction.CANCEL:
                self._log(t, "menu", {"action": "cancel"})
                self._resume_time(t)
            elif choice.action == MenuAction.ABANDON:
                self._end(t, "abandon", None)
                self.new_game(t)
            elif choice.action == MenuAction.PICK:
                assert choice.side is not None
                self._open_menu(t, names_menu(choice.side, self.roster, self.info))
            elif choice.action == MenuAction.NAME:
                key = side_name(choice.side if choice.side is not None else BLUE)
                self.set_info(t, {key: choice.value})
                # on to the next line: Red after Blue, then Close
                self._open_menu(t, settings_menu(self.info, 2 if key == "blue" else 0, self.play))
            elif choice.action in (
                MenuAction.COMPUTER,
                MenuAction.LEVEL,
            ):  # practice: Confirm turns the value
                try:
                    self.set_play(t, {choice.action: choice.value})
                except play_mode.PlayError as exc:
                    self.message = str(exc)
                self._open_menu(t, settings_menu(self.info, menu.selected, self.play))
            else:
                self._end(t, choice.action, choice.side)
        elif name == "pause":
            self.menu = None
            self._resume_time(t)
        else:
            self._ignored(t, name, texts.MENU_BUTTONS)

    def _open_menu(self, t: float, menu: Menu) -> None:
        self.menu = menu
        self.clocks.stop(t)

    def _resume_time(self, t: float) -> None:
        """Start the clocks again, unless paused, in a menu, or no move can be saved now."""
        if (
            not self.paused
            and self.phase == Phase.PLAY
            and self.menu is None
            and not self.journal_problem
            and not self.clocks.running
        ):
            self.clocks.start(t)
            self._last_checkpoint = t

    def _toggle_pause(self, t: float) -> None:
        if self.paused:
            record: Record = {"k": RecordKind.RESUME, "t": t, **self.clocks.state(t)}
            self._write(record)
            self.apply(record)
            self.message = ""
            self._resume_time(t)
        else:
            self.clocks.stop(t)
            record = {"k": RecordKind.PAUSE, "t": t, **self.clocks.state(t)}
            self._write(record)
            self.apply(record)
            self._say(texts.PAUSED)
        self._log(t, "pause" if self.paused else "resume", {})

    def _takeback(self, t: float) -> None:
        if not self.game.ply:
            self._ignored(t, "takeback", texts.NO_TAKEBACK)
            return
        record = {
            "k": RecordKind.TAKEBACK,
            "t": t,
            "ply": self.game.ply - 1,
            **self.clocks.state(t),
        }
        if not self._write(record):
            self._cue(t, CueName.ERROR)
            return
        self.clocks.stop(t)
        self.clocks.new_move(t)
        move = self.apply(record)
        self.shown = None
        self.phase = Phase.RESTORE
        self._say(texts.TAKEBACK, move=move)
        self._handle(self.tracker.set_position(self.game, t), t)
        self._log(t, "takeback", {"move": str(move)})

    def _ignored(self, t: float, name: str, hint: texts.Text | None) -> None:
        if hint is None:
            self._say(texts.NOTHING_TO_DO, button=name.replace("_", " ").capitalize())
        else:
            self._say(hint)
        self._log(t, "button_ignored", {"name": name})

    def _say(self, text: texts.Text, **values: object) -> None:
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

    def _end(self, t: float, reason: str, side: int | None) -> None:
        if self.phase == Phase.OVER:
            return
        self.clocks.stop(t)
        record: Record = {"k": RecordKind.END, "t": t, "reason": reason, **self.clocks.state(t)}
        if side is not None:
            record["side"] = side
        self._write(record)
        self.apply(record)
        assert self.outcome is not None
        self.message = self.outcome.text
        self._cue(t, CueName.GAME_OVER)
        self._log(t, "end", {"reason": reason, "winner": self.outcome.winner})

    def new_game(self, t: float) -> None:
        """Archive the finished game's journal and wait for the opening of a new one."""
        if self.journal is not None:
            try:
                self.journal.keep(self.wall())
            except JournalError as exc:
                self.problems.append(str(exc))
        self._fresh(SessionConfig(**{**self.config.__dict__, "position": None}))
        self.signing.new_game()
        self._begin(t)
        if self.board is not None:  # the new game's tracker reads the board as it stands
            self._handle(self.tracker.feed_frame(t, self.board), t)

    # ------------------------------------------------------------------ helpers

    def _write(self, record: Record) -> bool:
        """Journal a record before it takes effect; True once it is on the disk.

        A record that cannot be written is never fatal. A move or a takeback is then not
        confirmed (the caller refuses it). Anything else (a pause, a result, a clock
        checkpoint) takes effect at once and is kept in memory, to be written, in order, as
        soon as the disk takes records again; until then the message says so and the clocks
        wait."""
        if "game_ms" in record:
            self._last_checkpoint = max(self._last_checkpoint, record["t"])
        if self.journal is None:
            return True
        try:
            self._flush_unsaved()
            self.journal.append(record)
        except JournalError as exc:
            self._journal_failed(record, exc)
            return False
        if self.journal_problem:
            self._journal_back(record.get("t", self._now))
        return True

    @property
    def _journal_reason(self) -> str:
        failure = self.journal.failure if self.journal is not None else None
        return failure.reason if failure is not None else _("disk error")

    def _journal_failed(self, record: Record, exc: JournalError) -> None:
        if record.get("k") not in ("move", "takeback"):
            if record.get("k") == "tick" and self._unsaved and self._unsaved[-1]["k"] == "tick":
                self._unsaved[-1] = record  # only the latest clock reading matters
            else:
                self._unsaved.append(record)
        if str(exc) not in self.problems:
            self.problems.append(str(exc))
        t = record.get("t", self._now)
        if not self.journal_problem:
            self._cue(t, CueName.ERROR)
            self._log(t, "journal_failed", {"error": str(exc)})
        self.journal_problem = texts.NOT_SAVED.format(reason=exc.reason).page
        if self.clocks.running:
            self.clocks.stop(t)

    def _refuse(self, t: float) -> None:
        """A move that could not be saved: the board guides it back (restore) and asks for
        it again once the disk takes records."""
        self.journal_problem = texts.MOVE_NOT_SAVED.format(reason=self._journal_reason).page
        self._refused = True
        self.phase = Phase.RESTORE
        self._cue(t, CueName.ERROR)
        self._handle(self.tracker.set_position(self.game, t), t)
        self._log(t, "move_refused", {"reason": self._journal_reason})

    def _flush_unsaved(self) -> None:
        """Write the records kept while the disk refused them, oldest first."""
        while self._unsaved:
            assert self.journal is not None
            self.journal.append(self._unsaved[0])
            self._unsaved.pop(0)

    def _retry_journal(self, t: float) -> None:
        """While the journal fails: once a second, write what waits (or a clock checkpoint,
        to learn whether the disk takes records again)."""
        if not self.journal_problem or t - self._last_retry < 1.0:
            return
        self._last_retry = t
        if self.journal is None:
            return
        try:
            self._flush_unsaved()
            self.journal.append({"k": "tick", "t": t, **self.clocks.state(t)})
        except JournalError:
            return
        self._journal_back(t)

    def _journal_back(self, t: float) -> None:
        if self._refused:
            self._say(texts.SAVED_AGAIN)
        self.journal_problem = ""
        self._refused = False
        self._log(t, "journal_saved", {})
        self._resume_time(t)

    def _cue(self, t: float, name: CueName) -> None:
        self._cue_seq += 1
        cue = Cue(self._cue_seq, t, name)
        self.cues.append(cue)
        self.recent_cues.append(cue)

    def _log(self, t: float, kind: str, details: dict[str, Any]) -> None:
        self.log.append((t, kind, details))
        del self.log[:-200]


# ---------------------------------------------------------------------- journal records

_RECORD_KINDS = frozenset(RecordKind)
_MAX_MS = 10**10  # a clock reading in milliseconds: far beyond any game


def _after(names: tuple[str, ...], name: str) -> str:
    """The name after ``name`` in the engine's list, round again to the first (the setup's
    Next button steps through the variants, and held, through the rules)."""
    return names[(names.index(name) + 1) % len(names)] if name in names else names[0]


def game_at(position: dict[str, Any], profile: Profile) -> Game:
    """A game standing at a JSON position (docs/notation.md), played under ``profile`` (with
    the arbiter's settings, which the position does not carry)."""
    base = game_from_json(position)
    return Game(base.rules, base.chips(), base.side_to_move, variant=base.variant, profile=profile)


def _number(value: Any) -> bool:
    return type(value) in (int, float) and value == value and abs(value) < 1e12


def _whole(value: Any, top: int = _MAX_MS) -> bool:
    return type(value) is int and 0 <= value <= top


def record_problem(rec: Record) -> str | None:
    """What is impossible in a journal record (wrong kinds, squares off the board, a side that
    does not exist), or None. A record the board never wrote is skipped, never obeyed."""
    kind = rec.get("k")
    if kind == "start":
        return _("a start record that cannot be read")
    if not isinstance(kind, str) or kind not in _RECORD_KINDS:
        return _("unknown kind of record {str!r}").format(str=str(kind)[:20])
    if not _number(rec.get("t")):
        return _("no time")
    if ("game_ms" in rec or "move_ms" in rec) and not (
        _whole(rec.get("game_ms")) and _whole(rec.get("move_ms"))
    ):
        return _("impossible clock readings")
    if kind in ("move", "takeback") and not _whole(rec.get("ply"), 10_000):
        return _("no ply")
    if kind == "move":
        path = rec.get("path")
        ok = isinstance(path, list) and 2 <= len(path) <= 16
        ok = (
            ok
            and isinstance(path, list)
            and all(
                isinstance(sq, list) and len(sq) == 2 and all(_whole(v, 7) for v in sq)
                for sq in path
            )
        )
        if not ok:
            return _("a move whose path is not squares of the board")
    if kind in ("warning", "timeout", "end") and rec.get("side") not in (None, 0, 1):
        return _("side {str} does not exist").format(str=str(rec.get("side"))[:10])
    if kind == "end" and rec.get("reason") not in texts.ENDINGS:
        return _("unknown ending {str!r}").format(str=str(rec.get("reason"))[:20])
    if kind in SIGNING_KINDS:
        return signing_problem(rec)
    if kind in ("info", "play") and not isinstance(rec.get(kind), dict):
        return _("{kind} that is not an object").format(kind=kind)
    try:
        if kind == "info":
            game_info.clean(rec["info"])
        elif kind == "play":
            play_mode.parse(rec["play"])
    except ValueError as exc:  # InfoError, PlayError: what the page or the board never write
        return str(exc)[:120]
    return None


def _start_ok(rec: Record) -> bool:
    """A start record with what a game starts from (its values are checked by the replay)."""
    return (
        isinstance(rec.get("variant"), str)
        and isinstance(rec.get("rules"), str)
        and all(isinstance(rec.get(k), dict | None) for k in _START_OBJECTS)
    )


_START_OBJECTS = ("rule_settings", "tracker_settings", "position", "info", "play")


def _fits_here(game: Game, rec: Record) -> bool:
    """A move record whose ply is the game's and whose path is legal; a takeback whose ply is
    one less than the game's."""
    if rec["k"] == "takeback":
        return bool(rec["ply"] == game.ply - 1)
    if rec["ply"] != game.ply:
        return False
    try:
        game.find_move([(s[0], s[1]) for s in rec["path"]])
    except IllegalMove:
        return False
    return True


def _all_fit(game: Game, records: list[Record]) -> bool:
    """Every move and takeback in ``records`` fits ``game`` in turn; ``game`` is left as it
    was (each step is undone)."""
    undo: list[Move | None] = []  # None: a push to pop; a Move: a pop to push back
    try:
        for rec in records:
            if record_problem(rec) or rec["k"] not in ("move", "takeback"):
                continue
            if not _fits_here(game, rec):
                return False
            if rec["k"] == "move":
                game.push(game.find_move([(s[0], s[1]) for s in rec["path"]]))
                undo.append(None)
            else:
                undo.append(game.pop())
        return True
    finally:
        for step in reversed(undo):
            if step is None:
                game.pop()
            else:
                game.push(step)


def _text_field(rec: Record, key: str) -> str:
    value = rec.get(key)
    if not isinstance(value, str):
        raise ValueError(_("the start record has no {key}").format(key=key))
    return value


def _dict_field(rec: Record, key: str) -> dict[str, Any]:
    value = rec.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(_("the start record's {key} is not an object").format(key=key))
    return dict(value)


__all__ = ["Cue", "Session", "SessionConfig", "Square", "ViewInput"]
