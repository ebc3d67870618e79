"""What each part of a Damath session sees of the session it serves: the journal's writer, the
journal's resume, the buttons' arbiter and the table's clocks are handed the session as one of
these Protocols, so
a part imports no session (the session imports its parts, one way) and reaches only the public
members named here; a member a part starts to use is added here first, in view."""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol

from controller.record.outcome import Outcome
from controller.record.play import PlaySettings
from controller.record.signing import Signing
from controller.record.state import DamathState
from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.rules.profiles import Profile
from controller.scoresheet.model import Row, Scoresheet
from controller.tracker import Event, Settings, Tracker

from . import texts
from .clocks import ArbiterClocks
from .config import SessionConfig
from .journal import Journal
from .kinds import Cue, CueName, Phase
from .menu import Menu
from .shown import Shown
from .signing import SensorTrace

Record = dict[str, Any]


class Voice(Protocol):
    """How a part speaks to the players and the log: a display line, a cue, a log entry."""

    def say(self, text: texts.Text, **values: object) -> None: ...

    def cue(self, t: float, name: CueName) -> None: ...

    def log_event(self, t: float, kind: str, details: dict[str, Any]) -> None: ...


class WriterHost(Voice, Protocol):
    """The journal's writer: the clocks it stops while the disk refuses records, the problems it
    reports, the time it stands at and the clocks' restart once records are saved again."""

    clocks: ArbiterClocks
    problems: list[str]
    now: float
    last_checkpoint: float

    def resume_time(self, t: float) -> None: ...


class GameHost(Voice, Protocol):
    """What the resume and the arbiter both change: the game through its records (``apply``),
    its phase, clocks and tracker, and its end."""

    config: SessionConfig
    phase: Phase
    clocks: ArbiterClocks
    state: DamathState
    tracker: Tracker

    @property
    def game(self) -> Game: ...

    @property
    def play(self) -> PlaySettings: ...

    @property
    def message(self) -> str: ...

    @message.setter
    def message(self, text: str) -> None: ...

    def apply(self, rec: Record) -> Move | None: ...

    def end_game(self, t: float, reason: str, side: int | None) -> None: ...


class ViewHost(Protocol):
    """What the view reads of the session (``view_input.py``): the game, its clocks and
    tracker, its sheet, the players and settings, what it says and shows."""

    phase: Phase
    config: SessionConfig
    clocks: ArbiterClocks
    tracker: Tracker
    menu: Menu | None
    problems: list[str]
    recent_cues: deque[Cue]

    @property
    def game(self) -> Game: ...

    @property
    def paused(self) -> bool: ...

    @property
    def proxy(self) -> bool: ...

    @property
    def variant(self) -> str: ...

    @property
    def last_move(self) -> Move | None: ...

    @property
    def rows(self) -> list[Row]: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def info(self) -> dict[str, str]: ...

    @property
    def play(self) -> PlaySettings: ...

    @property
    def message(self) -> str: ...

    @property
    def display_message(self) -> str: ...

    @property
    def review_page(self) -> int: ...

    def totals(self) -> tuple[str, str]: ...

    def sheet(self) -> Scoresheet: ...

    def current_shown(self) -> Shown | None: ...

    def current_review(self) -> dict[str, Any] | None: ...


class ClockHost(GameHost, Protocol):
    """The table's clocks (``round_clocks.py``): the menu and the pause that stop them, the
    journal that must take their records, the table's confirmation and players, the rules'
    move time out, and the time of the last checkpoint."""

    menu: Menu | None
    last_checkpoint: float

    @property
    def paused(self) -> bool: ...

    @property
    def signing(self) -> Signing: ...

    @property
    def info(self) -> dict[str, str]: ...

    @property
    def journal_problem(self) -> str: ...

    @property
    def rules_profile(self) -> Profile: ...

    def write(self, record: Record) -> bool: ...


class ResumeHost(GameHost, Protocol):
    """The journal's resume: a fresh game to start over, the journal to repair, the problems to
    report and the tracker's settings to read the board again with."""

    problems: list[str]
    settings: Settings

    @property
    def journal(self) -> Journal | None: ...

    def fresh(self, config: SessionConfig) -> None: ...

    def begin(self, t: float) -> None: ...


class ArbiterHost(GameHost, Protocol):
    """The buttons' arbiter: the menus, the players' names and signatures, the settings it
    changes, a new game, the review's pages and the board's own hint button."""

    menu: Menu | None
    board: frozenset[Square] | None
    roster: tuple[str, ...]
    sensed: SensorTrace
    shown: Shown | None
    hint_requests: int

    @property
    def info(self) -> dict[str, str]: ...

    @property
    def signing(self) -> Signing: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def paused(self) -> bool: ...

    @property
    def variant(self) -> str: ...

    def current_review(self) -> dict[str, Any] | None: ...

    @property
    def review_page(self) -> int: ...

    @review_page.setter
    def review_page(self, page: int) -> None: ...

    def handle(self, events: list[Event], t: float) -> None: ...

    def write(self, record: Record) -> bool: ...

    def resume_time(self, t: float) -> None: ...

    def start_record(self, t: float) -> Record: ...

    def new_game_objects(self, config: SessionConfig) -> None: ...

    def new_game(self, t: float) -> None: ...

    def start_clocks(self, t: float, by: str) -> bool: ...

    def set_info(self, t: float, changes: dict[str, Any]) -> None: ...

    def set_play(self, t: float, changes: dict[str, Any]) -> None: ...
