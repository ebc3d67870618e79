"""Mathematical Chess on the board (docs/mathchess-board.md): 9 × 9 points, a sensor and an LED
at each. Its session (``session.py`` here) reads each turn through its tracker and journals
every step; the players' buttons name a piece just put down (``next`` shows the next name it may
have, ``confirm`` takes it) and end the turn (``confirm``). The display shows the name on offer,
whose turn it is, and the score."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from controller import registry
from controller.games.mathchess.computer import COMPUTER
from controller.games.mathchess.record import GAME
from controller.i18n import _
from controller.rules.mathchess import SIDES
from controller.rules.mathchess.settings import DEFAULT
from controller.rules.move import Square

from ..arbiter import POINTS
from ..clocks import NAMES as CLOCK_SETTINGS
from ..clocks import ClockRule
from ..desk import TableDesk
from ..kind import BoardGame, GameKind, Geometry, Opening, Outputs, Record
from ..timed import timed

if TYPE_CHECKING:
    from controller.games.mathchess.session import MathChessSession
    from controller.rules.mathchess import Position

SETTINGS = ("level",)
DEFAULT_LEVEL = 9


def start_position(settings: Mapping[str, Any], opening: Opening | None = None) -> Position:
    """A new game's start: Prepare now! on an empty board at ``level`` (1 to 10), or the
    position the opening brings; ValueError names a wrong setting."""
    from controller.rules.mathchess import Position, from_level, position_from_json

    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise ValueError(
            _("{name}: not a Mathematical Chess setting; known: {known}").format(
                name=unknown[0], known=", ".join(SETTINGS)
            )
        )
    if opening is not None and opening.position is not None:
        return position_from_json(opening.position)
    level = settings.get("level", DEFAULT_LEVEL)
    if isinstance(level, bool) or not isinstance(level, int):
        raise ValueError(_("level={level}: a whole number 1 to 10").format(level=level))
    return Position.start(from_level(level))  # ConditionsError is a ValueError: one line


def open_mathchess(settings: Mapping[str, Any], opening: Opening) -> MathChessGame:
    from controller.games.mathchess.session import MathChessSession

    start = opening.config if opening.config is not None else start_position(settings, opening)
    if opening.journal is None:
        session = MathChessSession.start(start)
    else:
        opening.journal.parent.mkdir(parents=True, exist_ok=True)
        session = MathChessSession.open(opening.journal, start)
    return MathChessGame(session)


def owns(first: Record) -> bool:
    from controller.record.games import game_of

    return game_of(first) == GAME


class MathChessGame(BoardGame):
    def __init__(self, session: MathChessSession) -> None:
        self.kind = MATHCHESS
        self.session = session
        self.choice = 0
        """Prepare now!: which of the names the piece may have the display offers."""
        self.cues: list[str] = []
        self.desk = TableDesk(
            GAME,
            lambda: self.session.table,
            self.session.record,
            lambda: len(self.session.game.actions),
            lambda: self.session.position.ending() is not None,
            lambda: self.session.journal,
            colours=SIDES,
            stop_rule=POINTS,
            stop=self.session.stop,
            side=lambda: self.session.position.to_move,
            ready=lambda: self.session.position.phase.name.lower() == "play",
        )

    def linked(self) -> TableDesk:
        """A tournament table's players, start and pause, driven by the hub's link."""
        return self.desk

    def menu_open(self) -> bool:
        return self.desk.arbiter.menu is not None

    @property
    def problems(self) -> list[str]:
        return self.session.problems

    # ------------------------------------------------------------------ inputs

    def feed_frame(self, t: float, occupied: frozenset[Square]) -> None:
        self.desk.frame(t, occupied)
        before = self.session.said
        if occupied != self.session.sensors:
            self.session.frame(frozenset(occupied))
        if self.session.said is not None and self.session.said is not before:
            self.cues.append("error")

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """``next`` shows the next name the piece just put down may have; ``confirm`` names it,
        or ends the turn during Play now!. The other buttons are not this game's."""
        if self.desk.button(t, name, kind):
            self.session.said = None
            return
        if kind != "press":
            return
        names = self.session.tracker.names()
        if name == "next" and names:
            self.choice = (self.choice + 1) % len(names)
        elif name == "confirm" and names:
            self.name(names[self.choice % len(names)])
        elif name == "confirm":
            self.done()
        elif name.startswith("name:"):  # the page's name buttons
            self.name(name[5:])
        elif name == "done":  # the page's turn button
            self.done()

    def _blocked(self) -> bool:
        """No step while the table waits for its confirmation or start, or is paused: said."""
        from controller.games.mathchess.session import Said

        why = self.desk.blocks()
        if why is None:
            return False
        self.session.said = Said(why)
        self.cues.append("error")
        return True

    def name(self, symbol: str) -> None:
        """Prepare now!: the piece just put down is named (the display's choice confirmed)."""
        if self._blocked():
            return
        actions = len(self.session.game.actions)
        self.session.name(symbol)
        self.choice = 0
        self._cue(actions)

    def done(self) -> None:
        """Play now!: the player's button."""
        if self._blocked():
            return
        actions = len(self.session.game.actions)
        self.session.done()
        self._cue(actions)

    def _cue(self, before: int) -> None:
        if len(self.session.game.actions) > before:
            over = self.session.position.ending() is not None
            self.cues.append("game_over" if over else "move")
        elif self.session.said is not None:
            self.cues.append("error")

    # ------------------------------------------------------------------ outputs

    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        from controller.games.mathchess.leds import point_colours
        from controller.view.outputs import page_lines

        leds = point_colours(self.session.tracker, t)
        menu = self.desk.menu_page(cols, rows)
        page = menu if menu is not None else page_lines(self.display(), cols, rows)
        return Outputs(leds, page, self.desk.clock_faces(t))

    def tick(self, t: float) -> bool:
        """The board's clocks (``TableDesk.tick``)."""
        return self.desk.tick(t)

    def display(self) -> list[str]:
        """The display's sentences: the name on offer (or what the board asks or said), whose
        turn it is, and the score."""
        position = self.session.position
        names = self.session.tracker.names()
        if names:
            first = _("Name it: {piece} ({n} of {count}; next, confirm)").format(
                piece=names[self.choice % len(names)],
                n=self.choice % len(names) + 1,
                count=len(names),
            )
        else:
            said = self.session.said
            if said is not None:
                first = (
                    f"{said.rule}: {said.text}"
                    if said.rule and said.rule not in said.text
                    else said.text
                )
            else:
                first = self.session.tracker.problem() or ""
        ending = position.ending()
        white, black = position.score()
        arbiter = self.desk.ending_text()
        turn = (
            _("Game over: {why}").format(why=arbiter or ending.describe())  # type: ignore[union-attr]
            if ending is not None or arbiter
            else _("{side} to play").format(side=_(SIDES[position.to_move].capitalize()))
        )
        score = _("Score: White {white}, Black {black}").format(white=white, black=black)
        if self.session.said is not None:  # a refused step: said first
            return [first, *self.desk.lines(), turn, score]
        return [*self.desk.lines(), first, turn, score]

    def take_cues(self) -> list[str]:
        out, self.cues = [*self.desk.take_cues(), *self.cues], []
        return out

    def expected(self) -> frozenset[Square]:
        return frozenset(p for p, _piece in self.session.position.board.pieces())

    def page(self, t: float) -> dict[str, Any]:
        from controller.games.mathchess.page import page_state

        return {
            **page_state(self.session),
            "variant": "mathchess",
            "display_lines": self.display(),
            "clocks": self.desk.clock_page(t),
            "players": self.session.table.players(),
        }

    def summary(self, t: float) -> dict[str, Any]:
        position = self.session.position
        ending = position.ending()
        white, black = position.score()
        return {
            "game": GAME,
            "variant": "mathchess",
            "rules": "mathchess",
            "practice": False,
            "blue": _("White"),
            "red": _("Black"),
            "event": "",
            "totals": {"blue": str(white), "red": str(black)},
            "to_move": ("blue", "red")[position.to_move],
            "phase": position.phase.name.lower(),
            "paused": self.session.table.paused,
            "ply": len(self.session.game.actions),
            "over": self.session.over(),
            "result": self.desk.ending_text() or (ending.describe() if ending is not None else ""),
            "clocks": self.desk.clock_page(t),
            "message": self.display()[0]
            or _("{side} to play").format(side=_(SIDES[position.to_move].capitalize())),
        }

    def status(self) -> str:
        return self.session.position.phase.name.lower()

    # ------------------------------------------------------------------ the finished game

    def finished(self) -> Hashable | None:
        if not self.session.over():
            return None
        return ("over", len(self.session.game.actions))

    def files(self) -> dict[str, str]:
        """Its record (replays exactly: ``rules``' reader) and its scoresheet as text."""
        from controller.games.mathchess.record import record_text
        from controller.games.mathchess.sheet import sheet_text

        game = self.session.game
        return {
            "json": record_text(game, self.session.table),
            "txt": sheet_text(game),
        }

    def download(self, what: str) -> tuple[str, str]:
        if what == "position":
            from controller.rules.mathchess import position_to_json

            text = json.dumps(position_to_json(self.session.position), ensure_ascii=False)
            return text + "\n", "application/json; charset=utf-8"
        return super().download(what)

    # ------------------------------------------------------------------ life

    def put_away(self, wall: float) -> str | None:
        problems = len(self.session.problems)
        journal = self.session.journal
        self.session.put_away(wall)
        if journal is not None:
            journal.path.unlink(missing_ok=True)
        return "; ".join(self.session.problems[problems:]) or None

    def close(self, t: float) -> None:
        self.desk.close_clocks(t)
        self.session.close()


TIMED = timed(start_position, open_mathchess, ClockRule(DEFAULT.time_limit // 2))
"""A game time only, C-11's 30:00 game shared: 15:00 a side (docs/rules-mathchess.md, "Clocks")."""

MATHCHESS = GameKind(
    name=GAME,
    title=registry.GAMES[GAME].title,
    geometry=Geometry(9, "points"),
    table="points",
    renderer="mathchess",
    check=TIMED[0],
    open=TIMED[1],
    owns=owns,
    settings=(*SETTINGS, *CLOCK_SETTINGS),
    clocks=True,
    stops=(POINTS,),
    computer=COMPUTER,
)
