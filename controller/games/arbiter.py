"""The arbiter's buttons on a board of every game but Damath, as on a Damath board
(docs/arbiter.md): Pause pressed pauses the game (every move refused) and pressed again resumes
it; Pause held opens the arbiter's menu, whose lines end the game by the arbiter's decision: a
stop, a resignation, a no-show. Next moves the choice, Confirm takes it, Pause closes the menu.

Each decision is a ``table`` record of the game's own journal (``record.table``: ``pause`` and
``resume`` by ``arbiter``, ``end``), checked before it is written, so a resumed board, the link
and the hub read the same result. What a stop gives is the game's: its kind's ``stops`` (the
rules it may follow, the default first) and the game's ``stop`` setting choose among
``draw`` (the arbiter's stop is a draw), ``adjudicate`` (the arbiter chooses the result) and
``points`` (Mathematical Chess: the points taken decide, C-11, played by the game itself).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.i18n import _
from controller.record.table import STOP_RULES
from controller.session.kinds import MenuAction
from controller.session.menu import Menu, Option

POINTS = "points"
"""The stop of a game with points: the game itself decides by them (its ``stop`` hook)."""
STOP = "stop"
"""The setting that chooses the stop's rule, in a game whose kind offers more than one."""


def stop_rule(given: Mapping[str, Any], stops: tuple[str, ...]) -> str:
    """The ``stop`` setting checked against the rules the game's kind offers (its default when
    unset); ValueError, one line, for any other value."""
    value = given.get(STOP, stops[0] if stops else "")
    if value not in stops:
        raise ValueError(
            _("stop={value}: one of {known}").format(value=value, known=", ".join(stops))
        )
    return str(value)


def without_stop(given: Mapping[str, Any]) -> dict[str, Any]:
    """The settings without ``stop`` (the arbiter's rule, never the rules engine's)."""
    return {k: v for k, v in given.items() if k != STOP}


@dataclass(frozen=True)
class Sides:
    """The game's two sides as its pieces name them, the first mover first."""

    colours: tuple[str, str]

    def word(self, side: int) -> str:
        """``BLACK``: a side on the display, as Damath's menu writes BLUE and RED."""
        return _(self.colours[side].capitalize()).upper()


def table_menu(sides: Sides, rule: str) -> Menu:
    """Hold Pause: Cancel, the stop (one line a result the rule allows), each side's
    resignation and no-show."""
    stops: list[Option]
    if rule == "adjudicate":
        stops = [
            Option(_("Stop: draw"), MenuAction.STOP, value="1/2-1/2"),
            Option(_("Stop: {SIDE} wins").format(SIDE=sides.word(0)), MenuAction.STOP, value="1-0"),
            Option(_("Stop: {SIDE} wins").format(SIDE=sides.word(1)), MenuAction.STOP, value="0-1"),
        ]
    elif rule == POINTS:
        stops = [Option(_("Stop, count the points"), MenuAction.STOP, value=POINTS)]
    else:
        stops = [Option(_("Stop: draw"), MenuAction.STOP, value="1/2-1/2")]
    ends = [
        Option(_("{SIDE} resigns").format(SIDE=sides.word(side)), MenuAction.RESIGN, side)
        for side in (0, 1)
    ] + [
        Option(_("{SIDE} no-show").format(SIDE=sides.word(side)), MenuAction.NO_SHOW, side)
        for side in (0, 1)
    ]
    cancel = Option(_("Cancel"), MenuAction.CANCEL)
    return Menu(_("Arbiter: end the game?"), (cancel, *stops, *ends))


class TableArbiter:
    """The arbiter's Pause and menu on one table (``TableDesk`` hands it the buttons)."""

    def __init__(
        self,
        sides: Sides,
        rule: str,
        record: Callable[..., bool],
        over: Callable[[], bool],
        paused: Callable[[], bool],
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.sides = sides
        self.rule = rule
        """What the stop gives (``STOP_RULES``, or ``points``)."""
        self._record = record
        self._over = over
        self._paused = paused
        self._stop = stop
        self.menu: Menu | None = None
        """The menu on the display, or None (never journaled: only the choice taken is)."""
        self.said = ""
        self.cues: list[str] = []

    def button(self, name: str, kind: str) -> bool:
        """Pause (pressed or held), and every button while the menu is open; True when the
        press was the arbiter's."""
        if self.menu is not None:
            self._in_menu(name)
            return True
        if name != "pause":
            return False
        if self._over():
            self.said = _("the game is over: the arbiter's menu is for a game under way")
            return True
        if kind == "hold":
            self.menu = table_menu(self.sides, self.rule)
            self.said = ""
            return True
        pause = not self._paused()
        if self._record("pause" if pause else "resume", by="arbiter"):
            self.said = _("Paused by the arbiter: Pause again to go on") if pause else ""
        return True

    def _in_menu(self, name: str) -> None:
        menu = self.menu
        assert menu is not None
        if name == "next":
            self.menu = menu.next()
        elif name == "pause":
            self.menu = None
        elif name == "confirm":
            self.menu = None
            self._decide(menu.choice)
        else:
            self.said = _("Choose with Next, then Confirm.")

    def _decide(self, choice: Option) -> None:
        if choice.action == MenuAction.CANCEL:
            return
        if choice.action == MenuAction.STOP and choice.value == POINTS:
            done = self._stop is not None and self._stop()
        elif choice.action == MenuAction.STOP:
            rule = self.rule if self.rule in STOP_RULES else "adjudicate"
            done = self._record("end", reason="stop", result=choice.value, rule=rule)
        else:
            done = self._record("end", reason=str(choice.action), side=choice.side)
        if done:
            self.said = ""
            self.cues.append("game_over")
        else:
            self.cues.append("error")
