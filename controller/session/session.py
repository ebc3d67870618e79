"""One game's life on the board: setup, play, pause, takeback, end and tally, journal and resume.

The session owns the game, the tracker, the clocks and the journal. Time comes in with every
call (``t``, seconds on an injected monotonic clock); there is no thread and no I/O besides the
journal. Everything it accepts (a move, an arbiter action, a clock event) is appended to the
journal and synced before it is applied and confirmed (a cue, the LEDs).

Phases: ``setup`` (the opening checked on the sensors; the arbiter may change variant and rules),
``play``, ``restore`` (the board must be brought back to the expected position: after a takeback
or a restart), ``over`` (tally shown). ``paused`` and ``menu`` are orthogonal to the phase.

The simulator and the app call: ``feed_frame``, ``press``, ``advance``, ``snapshot``,
``take_cues`` (docs/session.md).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from controller.rules.game import Game, IllegalMove
from controller.rules.move import BLUE, Move, Square, side_name
from controller.rules.notation import NotationError, game_from_json, game_to_json
from controller.rules.profiles import Profile, ProfileError, get_profile
from controller.rules.scoring import kind_of, sum_scores
from controller.scoresheet.model import Row, move_rows
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

from .clocks import ArbiterClocks, ClockEvent
from .journal import Journal, JournalError, JournalLoad, Record
from .menu import Menu, abandon_menu, adjudication_menu
from .outcome import Outcome, tally

VARIANTS = ("counting", "whole", "integer", "fraction", "rational", "radical", "polynomial")
RULES = ("official", "online")
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

    def profile(self) -> Profile:
        return get_profile(self.rules).with_settings(self.rule_settings)


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
    guidance: Any
    clock: Any
    last_move: Move | None
    rows: tuple[Row, ...]
    totals: tuple[str, str]
    menu: Menu | None
    message: str
    outcome: Outcome | None
    proxy: bool


class Session:
    def __init__(self, config: SessionConfig, journal: Journal | None = None) -> None:
        self.config = config
        self.journal = journal
        self.cues: list[Cue] = []
        self.recent_cues: deque[Cue] = deque(maxlen=20)
        self._cue_seq = 0
        self.log: list[tuple[float, str, dict[str, Any]]] = []
        self.problems: list[str] = []
        self.message = ""
        self.menu: Menu | None = None
        self.paused = False
        self.outcome: Outcome | None = None
        self.proxy = False
        self._last_checkpoint = 0.0
        self._now = 0.0
        self.board: frozenset[Square] | None = None
        self._new_game_objects(config)
        self.phase = "setup"

    # ------------------------------------------------------------------ construction

    def _new_game_objects(self, config: SessionConfig) -> None:
        profile = config.profile()
        if config.position is not None:
            position = dict(config.position)
            position.setdefault("variant", config.variant)
            position["profile"] = profile.name
            base = game_from_json(position)
            game = Game(
                base.rules, base.chips(), base.side_to_move, variant=base.variant, profile=profile
            )
        else:
            game = Game.new(config.variant, profile)
        self.game = game
        self.start_position = game_to_json(game)
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
        zero = sum_scores((), kind_of(game.variant))
        self._running = [zero, zero]
        self.last_move: Move | None = None

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
        session._now = t
        session._resume(loaded, t)
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
        }

    # ------------------------------------------------------------------ resume

    def _resume(self, loaded: JournalLoad, t: float) -> None:
        self.problems.extend(loaded.problems)
        if loaded.saved_as:
            self.problems.append(f"the damaged journal was kept as {loaded.saved_as}")
        records = loaded.records
        starts = [i for i, r in enumerate(records) if r.get("k") == "start"]
        if not starts:
            if records:
                self.problems.append("the journal has no start record; new game")
            self._begin(t)
            self.message = self.problems[0] if self.problems else ""
            return
        records = records[starts[-1] :]
        config = self.config  # _replay replaces it with the journal's, which may be the fault
        try:
            self._replay(records, t)
        except (NotationError, ProfileError, ValueError, KeyError, TypeError) as exc:
            problems = [*self.problems, f"the journal cannot be resumed ({exc}); new game"]
            self.config = SessionConfig(**{**config.__dict__, "position": None})
            self.__init__(self.config, self.journal)  # type: ignore[misc]
            self.problems = problems
            self._begin(t)
        if self.problems:
            self.message = self.problems[0]

    def _replay(self, records: list[Record], t: float) -> None:
        start = records[0]
        config = SessionConfig(
            variant=start["variant"],
            rules=start["rules"],
            rule_settings=dict(start.get("rule_settings") or {}),
            tracker_settings=dict(start.get("tracker_settings") or {}),
            position=start["position"],
            checkpoint_seconds=self.config.checkpoint_seconds,
        )
        self.config = config
        self._new_game_objects(config)
        phase = "setup"
        clock = (0, 0)
        for n, rec in enumerate(records[1:], start=2):
            kind = rec.get("k")
            if "game_ms" in rec:
                clock = (rec["game_ms"], rec["move_ms"])
            if kind == "ready":
                phase = "play"
            elif kind == "move":
                try:
                    move = self.game.find_move([tuple(s) for s in rec["path"]])
                except IllegalMove as exc:
                    self.problems.append(f"journal record {n}: {exc}; resumed before it")
                    break
                self._apply_move(move, clock)
                self.proxy = False
            elif kind == "takeback":
                if self.game.ply:
                    self._undo_move()
            elif kind == "pause":
                self.paused = True
            elif kind == "resume":
                self.paused = False
            elif kind == "timeout":
                self.proxy = self.game.profile.move_timeout == "opponent-moves"
            elif kind == "end":
                self.outcome = tally(self.game, rec["reason"], rec.get("side"))
                phase = "over"
        self.clocks.restore(clock[0] / 1000, clock[1] / 1000)
        self.tracker = Tracker(
            self.game, self.settings, mode="restore" if phase != "setup" else "setup"
        )
        self.phase = {"play": "restore"}.get(phase, phase)
        ending = self.game.ending() if self.phase == "restore" else None
        if ending is not None:  # the power went between the last move and its "end" record
            self._end(t, ending.reason, ending.side)
        if self.phase == "restore":
            self.message = "Restart: set the board as shown, the clocks wait"
        self._log(t, "resumed", {"ply": self.game.ply, "phase": self.phase})

    def _begin(self, t: float) -> None:
        """A new game: journal its start; the tracker waits for the opening on the board."""
        self.phase = "setup"
        self._write(self._start_record(t))

    # ------------------------------------------------------------------ the API

    def feed_frame(self, t: float, occupied: Any) -> list[Event]:
        """A sensor frame at ``t``: what is on the board now."""
        self._now = max(self._now, t)
        self.board = frozenset((sq[0], sq[1]) for sq in occupied)
        events = self.tracker.feed_frame(t, self.board)
        self._handle(events, t)
        return events

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """An arbiter button: ``press`` or ``hold`` (drivers.buttons.ButtonEvent)."""
        self._now = max(self._now, t)
        self.advance(t)
        if self.menu is not None:
            self._menu_button(t, name)
        elif self.phase == "setup":
            self._setup_button(t, name, kind)
        elif self.phase == "over":
            self._over_button(t, name)
        else:
            self._play_button(t, name, kind)

    def advance(self, t: float) -> None:
        """Time passed: the tracker's settle and error timers and the clocks' deadlines."""
        self._now = max(self._now, t)
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

    def view_input(self, t: float) -> ViewInput:
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
            message=self.message,
            outcome=self.outcome,
            proxy=self.proxy,
        )

    # ------------------------------------------------------------------ for the simulator

    @property
    def variant(self) -> str:
        return self.game.variant or ""

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
        return game_from_json(self.start_position).chips()

    def sheet(self):
        """The scoresheet so far (with RC and grand totals as if the game ended now)."""
        if self.outcome is not None:
            return self.outcome.sheet
        return tally(self.game, "stop", None).sheet

    def export_csv(self) -> str:
        from controller.scoresheet.render import render_csv

        return render_csv(self.sheet())

    def export_html(self) -> str:
        from controller.scoresheet.html import render_html

        return render_html(self.sheet())

    def export_pdn(self) -> str:
        from .export import _start_game, pdn

        return pdn(self.game, _start_game(self), self.outcome, clocks=self.pdn_clocks())

    def pdn_clocks(self) -> list[tuple[float, float]]:
        """Per played move: the game clock left after it and the time it took, in seconds."""
        total = self.game.profile.game_seconds
        return [(total - g / 1000, m / 1000) for g, m in self.move_clocks]

    def totals(self) -> tuple[str, str]:
        from controller.rules.scoring import format_score

        kind = kind_of(self.game.variant)
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
            elif isinstance(ev, BoardNeeded):
                self.message = (
                    "Set up the opening" if ev.mode == "setup" else "Set the board as shown"
                )
            elif isinstance(ev, Mismatch):
                self._cue(ev.t, "error")
            elif isinstance(ev, Lifted) and ev.reason:
                self.message = ev.reason
                self._cue(ev.t, "error")
            elif isinstance(ev, ButtonIgnored):
                pass
            self._log(ev.t, ev.kind, ev.details())

    def _on_ready(self, ev: BoardReady) -> None:
        if self.phase == "setup":
            self._write({"k": "ready", "t": ev.t, **self.clocks.state(ev.t)})
            self.phase = "play"
            self.message = ""
            self._last_checkpoint = ev.t
            self.clocks.start(ev.t)
            self._cue(ev.t, "move")
        elif self.phase == "restore":
            self.phase = "play"
            self.message = "Paused" if self.paused else ""
            if not self.paused and self.menu is None:
                self.clocks.start(ev.t)
                self._last_checkpoint = ev.t

    def _on_move(self, ev: MoveCommitted) -> None:
        if self.phase == "over":
            return
        t = ev.t
        record = {
            "k": "move",
            "t": t,
            "ply": self.game.ply,
            "path": [list(s) for s in ev.move.path],
            **self.clocks.state(t),
        }
        if self.proxy:
            record["proxy"] = True
        self._write(record)
        move = self._apply_move(ev.move, (record["game_ms"], record["move_ms"]))
        self.proxy = False
        self.clocks.new_move(t)
        self._last_checkpoint = t
        self.message = ""
        self._cue(t, "move")
        ending = self.game.ending()
        if ending is not None:
            self._end(t, ending.reason, ending.side)
        self._log(t, "accepted", {"move": str(move)})

    def _apply_move(self, move: Move, clock: tuple[int, int]) -> Move:
        side = self.game.side_to_move
        played = self.game.push(move)
        self.move_clocks.append(clock)
        rows, self._running[side] = move_rows(side, played, self._running[side], self.game.variant)
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
        kind = kind_of(self.game.variant)
        self.rows = []
        self._running = [sum_scores((), kind), sum_scores((), kind)]
        for side, move in self.game.played():
            rows, self._running[side] = move_rows(
                side, move, self._running[side], self.game.variant
            )
            self.rows.extend(rows)

    # ------------------------------------------------------------------ clocks

    def _poll_clocks(self, t: float) -> None:
        if self.phase != "play":
            return
        for ev in self.clocks.poll(t):
            self._on_clock(ev)

    def _on_clock(self, ev: ClockEvent) -> None:
        side = self.game.side_to_move
        who = side_name(side).upper()
        if ev.kind == "warning":
            self._write({"k": "warning", "t": ev.t, "side": side, **self.clocks.state(ev.t)})
            self._cue(ev.t, "warning")
            self.message = f"{who}: 10 seconds left"
        elif ev.kind == "move_timeout":
            rule = self.game.profile.move_timeout
            self._write(
                {"k": "timeout", "t": ev.t, "side": side, "rule": rule, **self.clocks.state(ev.t)}
            )
            self._cue(ev.t, "time_up")
            if rule == "opponent-moves":
                other = side_name(1 - side).upper()
                self.proxy = True
                self.clocks.restart_move_clock(ev.t)
                self.message = f"{who} out of time: {other} moves for {who}"
            else:
                self.message = f"{who} out of time: arbiter decides"
        elif ev.kind == "game_over":
            self._end(ev.t, "time", None)
        self._log(ev.t, ev.kind, {"side": side})

    # ------------------------------------------------------------------ buttons

    def _setup_button(self, t: float, name: str, kind: str) -> None:
        if name == "next" and self.game.ply == 0:
            if kind == "hold":
                rules = (
                    RULES[(RULES.index(self.config.rules) + 1) % len(RULES)]
                    if self.config.rules in RULES
                    else RULES[0]
                )
                self._reconfigure(t, rules=rules)
            else:
                i = VARIANTS.index(self.game.variant) if self.game.variant in VARIANTS else -1
                self._reconfigure(t, variant=VARIANTS[(i + 1) % len(VARIANTS)])
        elif name == "confirm":
            self._handle(self.tracker.feed_button(t, name), t)
        else:
            self._ignored(t, name, "setting up: next = variant, hold next = rules")

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
        self.message = f"{self.game.variant.capitalize()} / {config.rules}"
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
            self._handle(self.tracker.feed_button(t, name), t)
        else:
            self._ignored(t, name, "")

    def _over_button(self, t: float, name: str) -> None:
        if name == "new_game":
            self.new_game(t)
        elif (
            name == "takeback"
            and self.outcome
            and self.outcome.reason in ("no-chips", "no-moves", "repetition")
        ):
            self._takeback(t)
        else:
            self._ignored(t, name, "game over: new game to start again")

    def _menu_button(self, t: float, name: str) -> None:
        menu = self.menu
        assert menu is not None
        if name == "next":
            self.menu = menu.next()
        elif name == "confirm":
            self.menu = None
            choice = menu.choice
            if choice.action == "cancel":
                self._log(t, "menu", {"action": "cancel"})
                self._resume_time(t)
            elif choice.action == "abandon":
                self._end(t, "abandon", None)
                self.new_game(t)
            else:
                self._end(t, choice.action, choice.side)
        elif name == "pause":
            self.menu = None
            self._resume_time(t)
        else:
            self._ignored(t, name, "choose with next, then confirm")

    def _open_menu(self, t: float, menu: Menu) -> None:
        self.menu = menu
        self.clocks.stop(t)

    def _resume_time(self, t: float) -> None:
        if not self.paused and self.phase == "play":
            self.clocks.start(t)
            self._last_checkpoint = t

    def _toggle_pause(self, t: float) -> None:
        if self.paused:
            self._write({"k": "resume", "t": t, **self.clocks.state(t)})
            self.paused = False
            self.message = ""
            self._resume_time(t)
        else:
            self.clocks.stop(t)
            self._write({"k": "pause", "t": t, **self.clocks.state(t)})
            self.paused = True
            self.message = "Paused by the arbiter"
        self._log(t, "pause" if self.paused else "resume", {})

    def _takeback(self, t: float) -> None:
        if not self.game.ply:
            self._ignored(t, "takeback", "no move to take back")
            return
        self.clocks.stop(t)
        self.clocks.new_move(t)
        self._write({"k": "takeback", "t": t, "ply": self.game.ply - 1, **self.clocks.state(t)})
        move = self._undo_move()
        self.outcome = None
        self.proxy = False
        self.phase = "restore"
        self.message = f"Takeback {move}: set the board as shown"
        self._handle(self.tracker.set_position(self.game, t), t)
        self._log(t, "takeback", {"move": str(move)})

    def _ignored(self, t: float, name: str, hint: str) -> None:
        self.message = hint or f"{name}: nothing to do now"
        self._log(t, "button_ignored", {"name": name})

    # ------------------------------------------------------------------ end and new game

    def _end(self, t: float, reason: str, side: int | None) -> None:
        if self.phase == "over":
            return
        self.clocks.stop(t)
        record: Record = {"k": "end", "t": t, "reason": reason, **self.clocks.state(t)}
        if side is not None:
            record["side"] = side
        self._write(record)
        self.outcome = tally(self.game, reason, side)
        self.phase = "over"
        self.paused = False
        self.menu = None
        self.message = self.outcome.text
        self._cue(t, "game_over")
        self._log(t, "end", {"reason": reason, "winner": self.outcome.winner})

    def new_game(self, t: float) -> None:
        """Archive the finished game's journal and wait for the opening of a new one."""
        if self.journal is not None:
            try:
                self.journal.archive(self.journal.path.parent / "games", f"game-{t:.3f}.jsonl")
            except JournalError as exc:
                self.problems.append(str(exc))
        config = SessionConfig(**{**self.config.__dict__, "position": None})
        board, problems, seq, recent = self.board, self.problems, self._cue_seq, self.recent_cues
        self.__init__(config, self.journal)  # type: ignore[misc]
        self.problems, self._cue_seq, self.board, self.recent_cues = problems, seq, board, recent
        self._begin(t)
        if board is not None:
            self._handle(self.tracker.feed_frame(t, board), t)

    # ------------------------------------------------------------------ helpers

    def _write(self, record: Record) -> None:
        """Journal a record before it takes effect; a failing disk is shown, never fatal."""
        if "game_ms" in record:
            self._last_checkpoint = max(self._last_checkpoint, record["t"])
        if self.journal is None:
            return
        try:
            self.journal.append(record)
        except JournalError as exc:
            message = f"journal not saved: {exc}"
            if message not in self.problems:
                self.problems.append(message)
            self.message = message
            self._cue(record.get("t", self._now), "error")

    def _cue(self, t: float, name: str) -> None:
        self._cue_seq += 1
        cue = Cue(self._cue_seq, t, name)
        self.cues.append(cue)
        self.recent_cues.append(cue)

    def _log(self, t: float, kind: str, details: dict[str, Any]) -> None:
        self.log.append((t, kind, details))
        del self.log[:-200]


def side_label(side: int) -> str:
    return "BLUE" if side == BLUE else "RED"


__all__ = ["Cue", "Session", "SessionConfig", "Square", "ViewInput"]
