"""What a game of the board is, and what one game on a board does: the one interface between
the games and everything that runs them (the scan loop, the service, the simulator, ``selftest``,
the keeper of finished games).

A ``GameKind`` names a game and says what it needs of a board (its geometry), how its settings
and its journal are read, and how a game of it is opened; a ``BoardGame`` is one game on one
board: sensor frames and buttons in, time passing, and what the outputs show out. The runtime
never asks which game it runs; it asks the kind and talks to the game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.i18n import _
from controller.rules.move import Square
from controller.view.outputs import BoardOutputs

if TYPE_CHECKING:  # the session's package is the board's machinery: never loaded here
    from controller.games.computer import Computer
    from controller.session.linked import Linked

Record = dict[str, Any]
Outputs = BoardOutputs
"""What every output of the board shows at one moment (``view.outputs``)."""

MEDIA_TYPES = {
    "pdn": "application/x-pdn; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "json": "application/json; charset=utf-8",
    "position": "application/json; charset=utf-8",
}
"""The media type of each of a game's files (its downloads and what is kept of it)."""


@dataclass(frozen=True)
class Geometry:
    """Where a game's pieces stand: on the dark squares of a ``size`` × ``size`` draughts board,
    or on the points of a ``size`` × ``size`` grid. A board's profile must say the same."""

    size: int
    grid: str = "dark-squares"

    @property
    def cells(self) -> frozenset[Square]:
        if self.grid == "points":
            return frozenset((x, y) for y in range(self.size) for x in range(self.size))
        return frozenset(
            (x, y) for y in range(self.size) for x in range(self.size) if (x + y) % 2 == 1
        )

    def describe(self) -> str:
        if self.grid == "points":
            return _("{n} × {n} points").format(n=self.size)
        return _("{n} × {n} squares").format(n=self.size)


@dataclass
class Opening:
    """Where and how a game is opened: the journal's file (None: in memory), the time on the
    board's clock, and what the board runs with besides the game's own settings."""

    journal: Path | None
    t: float
    sync: bool = True
    """fsync every record (a board, the simulator); a demo may do without."""
    wall: Callable[[], float] | None = None
    """The wall clock, for naming kept games (``journal.kept_name``)."""
    tracker: dict[str, Any] = field(default_factory=dict)
    """Tracker settings (settle time ...) the board or the simulator runs with."""
    position: dict[str, Any] | None = None
    """A position to start from instead of the opening (the game's own JSON format)."""
    carried: dict[str, Any] = field(default_factory=dict)
    """What a new game on the same board carries over from the last (the players, the event)."""
    roster: tuple[str, ...] | None = None
    """The class list the board offers names from; None: ``players.txt`` beside the journal."""
    config: Any = None
    """The game's settings as its kind checked them (``GameKind.check``); None: check them."""


class BoardGame(ABC):
    """One game on one board. The runtime feeds it and renders what it shows; it decides nothing
    about the game. Time comes in with every call, as values on the board's monotonic clock."""

    kind: GameKind

    @property
    @abstractmethod
    def problems(self) -> list[str]:
        """What went wrong that the board says (a damaged journal, a refused record ...)."""

    # ------------------------------------------------------------------ inputs

    @abstractmethod
    def feed_frame(self, t: float, occupied: frozenset[Square]) -> None:
        """A scan of the board: the cells that hold a piece now."""

    @abstractmethod
    def press(self, t: float, name: str, kind: str = "press") -> None:
        """A button of the board (``press`` or ``hold``), or a page's button of the game."""

    def tick(self, t: float) -> bool:
        """Time passed (settling, clocks, a search done); True when something visible changed."""
        return False

    # ------------------------------------------------------------------ outputs

    @abstractmethod
    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        """What the LEDs, the clock displays and a display of ``cols`` × ``rows`` show at ``t``."""

    @abstractmethod
    def take_cues(self) -> list[str]:
        """The buzzer's cues since the last call (``drivers.buzzer.PATTERNS`` names)."""

    @abstractmethod
    def expected(self) -> frozenset[Square]:
        """Where pieces stand when the board shows the game as it is now."""

    @abstractmethod
    def page(self, t: float) -> dict[str, Any]:
        """The game as the simulator's page draws it (JSON-ready; ``game`` names the kind)."""

    @abstractmethod
    def summary(self, t: float) -> dict[str, Any]:
        """The class overview's card of this game (``/api/class``)."""

    def ready_line(self, board: str) -> str:
        """What the board says once it is ready: which game, and what to do first."""
        return _("board {board} plays {game}: set the board as the lights show").format(
            board=board, game=_(self.kind.title)
        )

    def status(self) -> str:
        """A word for systemd's status line: ``setup``, ``play``, ``over`` ..."""
        return "play"

    # ------------------------------------------------------------------ the finished game

    def finished(self) -> Hashable | None:
        """The finished game, as a value that stays the same while it stays finished (its files
        are kept once) and changes when it is taken back and ended again; None while it goes
        on."""
        return None

    def files(self) -> dict[str, str]:
        """The game's files by kind (``pdn``, ``csv``, ``html``, ``json``, ``txt``): its record and
        sheets, kept in ``games/`` once it is finished and offered for download."""
        return {}

    def files_version(self) -> Hashable:
        """Changes when a finished game's files change (the coach's review on the sheet): the
        kept files are written again under the same name."""
        return None

    def download(self, what: str) -> tuple[str, str]:
        """(text, media type) of one of the game's files; ValueError names the ones it has."""
        files = self.files()
        if what not in files:
            raise ValueError(
                _("a {game} game has no {what}: it has {files}").format(
                    game=_(self.kind.title), what=what, files=", ".join(sorted(files))
                )
            )
        return files[what], MEDIA_TYPES.get(what, "text/plain; charset=utf-8")

    def menu_open(self) -> bool:
        """The arbiter's menu is open on the board's display (Next and Confirm are the
        arbiter's then, not the players')."""
        return False

    def linked(self) -> Linked | None:
        """What a tournament hub's link drives on this board (assignments, the desk's pause, the
        round's start): Damath's session, or another game's table (``games.desk.TableDesk``);
        None for a game whose records the link only publishes (every game's records reach the
        hub: docs/mqtt.md)."""
        return None

    # ------------------------------------------------------------------ life

    @abstractmethod
    def put_away(self, wall: float) -> str | None:
        """Before another game on the board: this one's journal kept in ``games/`` when anything
        was played (a game nobody moved in is dropped); what went wrong, or None."""

    @abstractmethod
    def close(self, t: float) -> None:
        """A deliberate stop: what must be journaled is, the journal closed; it resumes later."""


class SessionGame(BoardGame):
    """A ``BoardGame`` over a session that reads frames and buttons itself (``session``): what
    every such game passes straight through, written once."""

    session: Any

    @property
    def problems(self) -> list[str]:
        return self.session.problems  # type: ignore[no-any-return]

    def feed_frame(self, t: float, occupied: frozenset[Square]) -> None:
        self.session.feed_frame(t, occupied)

    def press(self, t: float, name: str, kind: str = "press") -> None:
        if kind == "press":  # a held button means nothing to these games
            self.session.press(t, name, kind)

    def take_cues(self) -> list[str]:
        return self.session.take_cues()  # type: ignore[no-any-return]

    def status(self) -> str:
        return str(self.session.phase)

    def put_away(self, wall: float) -> str | None:
        return self.session.put_away(wall)  # type: ignore[no-any-return]

    def close(self, t: float) -> None:
        self.session.close()


@dataclass(frozen=True)
class GameKind:
    """One game the board plays, as the registry lists it."""

    name: str
    """The name profiles, settings, journals and pages use (``damath``, ``dam`` ...)."""
    title: str
    """The game's name as people read it (marked for translation)."""
    geometry: Geometry
    table: str
    """The simulator's table for its pieces: ``chips`` (valued chips and trays), ``dice``,
    ``pieces`` (plain draughts men and kings), ``points`` (pieces on points, named)."""
    renderer: str
    """The page's renderer (``sim.js``'s table): ``damath``, ``dadama``, ``draughts``,
    ``mathchess``."""
    check: Callable[[Mapping[str, Any], Opening | None], object]
    """The game's settings checked (``run --set``, a profile's ``[game]``), for an opening (its
    position, what it carries): the kind's own config; ValueError, one line."""
    open: Callable[[Mapping[str, Any], Opening], BoardGame]
    """The game in the journal (resumed), or a new one from the settings when it holds none."""
    owns: Callable[[Record], bool]
    """Whether a journal whose first record is this one holds a game of this kind."""
    settings: tuple[str, ...] = ()
    """The settings' names, for the messages that list them."""
    clocks: bool = False
    """It is played with the arbiter's clocks."""
    variants: tuple[str, ...] = ()
    """The variants a new game of it is chosen among (Damath's seven value kinds, the page's
    variant list); empty: the game is chosen by its name."""
    dated: bool = False
    """Its sheet carries the date: a board's first game of it starts with today's."""
    stops: tuple[str, ...] = ()
    """What the arbiter's stop (the menu's *Stop* line) gives, the rules it may follow, its
    default first; a game's ``stop`` setting chooses when there are several: ``tally``
    (Damath: the scores decide), ``points`` (the points taken decide), ``draw``,
    ``adjudicate`` (the arbiter chooses the result). docs/guide-arbiter.md."""
    computer: Computer | None = None
    """Its computer opponent (levels, the search's tasks: ``games.computer``); None: a game
    with no computer yet."""

    def check_board(self, size: int, grid: str, leds: int, name: str) -> None:
        """A board that cannot play this game refused in one line (its size, its grid, too few
        LEDs)."""
        board = Geometry(size, grid)
        if (size, grid) != (self.geometry.size, self.geometry.grid):
            raise ValueError(
                _("board {name} is {board}: {game} is played on {need}").format(
                    name=name,
                    board=board.describe(),
                    game=_(self.title),
                    need=self.geometry.describe(),
                )
            )
        need = len(self.geometry.cells)
        if 0 < leds < need:
            raise ValueError(
                _("board {name} has {count} LEDs; {game} needs one under each of {need}").format(
                    name=name, count=leds, game=_(self.title), need=need
                )
            )
