"""The arbiter's menus on the scoresheet display: a list of choices, ``next`` and ``confirm``.

A menu is plain data so the view can draw it and the journal never needs it: only the choice
taken is recorded, as the action it triggers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller.i18n import _, side_word
from controller.record.play import CHOICES, RANGES, PlaySettings
from controller.rules.move import BLUE, RED, side_name

from . import coach_texts as say
from . import texts
from .kinds import MenuAction


@dataclass(frozen=True)
class Option:
    label: str
    action: MenuAction
    """What Confirm does on this line (``kinds.MenuAction``); in practice ``computer`` and
    ``level`` turn to the next value, ``value``."""
    side: int | None = None
    value: str = ""


@dataclass(frozen=True)
class Menu:
    title: str
    options: tuple[Option, ...]
    selected: int = 0

    def next(self) -> Menu:
        return replace(self, selected=(self.selected + 1) % len(self.options))

    @property
    def choice(self) -> Option:
        return self.options[self.selected]


def _cancel() -> Option:
    return Option(_("Cancel"), MenuAction.CANCEL)


def adjudication_menu() -> Menu:
    """Hold pause: end the game by the arbiter's decision (RULES.md §5)."""
    return Menu(
        _("Arbiter: end the game?"),
        (
            _cancel(),
            Option(_("Stop, tally now"), MenuAction.STOP),
            Option(
                _("{SIDE} resigns").format(SIDE=side_word(BLUE).upper()), MenuAction.RESIGN, BLUE
            ),
            Option(_("{SIDE} resigns").format(SIDE=side_word(RED).upper()), MenuAction.RESIGN, RED),
            Option(
                _("{SIDE} no-show").format(SIDE=side_word(BLUE).upper()), MenuAction.NO_SHOW, BLUE
            ),
            Option(
                _("{SIDE} no-show").format(SIDE=side_word(RED).upper()), MenuAction.NO_SHOW, RED
            ),
        ),
    )


def abandon_menu() -> Menu:
    """New game pressed during a game: never throw a game away on one press."""
    return Menu(
        _("Abandon this game?"), (_cancel(), Option(_("Abandon, new game"), MenuAction.ABANDON))
    )


def settings_menu(
    info: Mapping[str, str], selected: int = 0, play: PlaySettings | None = None
) -> Menu:
    """Hold pause while setting up: the players' names, chosen from the class list; in a
    practice game also who the computer plays and its level (docs/engine.md)."""
    none = _(texts.MENU_NO_NAME)
    options = [
        Option(_(texts.MENU_CLOSE), MenuAction.CANCEL),
        Option(_(texts.MENU_BLUE).format(name=info.get("blue") or none), MenuAction.PICK, BLUE),
        Option(_(texts.MENU_RED).format(name=info.get("red") or none), MenuAction.PICK, RED),
    ]
    if play is not None and play.practice:
        side = _(say.MENU_COMPUTER_OFF) if play.computer == "off" else side_word(play.computer)
        choices = CHOICES["computer"]
        after = choices[(choices.index(play.computer) + 1) % len(choices)]
        low, high = RANGES["level"]
        options += [
            Option(_(say.MENU_COMPUTER).format(side=side), MenuAction.COMPUTER, value=after),
            Option(
                _(say.MENU_LEVEL).format(level=play.level),
                MenuAction.LEVEL,
                value=str(play.level + 1 if play.level < high else low),
            ),
        ]
    return Menu(_(texts.MENU_SETTINGS), tuple(options), selected)


def names_menu(side: int, roster: tuple[str, ...], info: Mapping[str, str]) -> Menu:
    """The class list for one side; the name chosen now is selected first."""
    title = _(texts.MENU_PICK_BLUE) if side == BLUE else _(texts.MENU_PICK_RED)
    named = tuple(Option(name, MenuAction.NAME, side, name) for name in roster)
    options = (Option(_(texts.MENU_NO_NAME), MenuAction.NAME, side, ""), *named)
    current = info.get(side_name(side), "")
    selected = next((i for i, o in enumerate(options) if o.value == current), 0)
    return Menu(title, options, selected)
