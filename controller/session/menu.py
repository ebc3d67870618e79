"""The arbiter's menus on the scoresheet display: a list of choices, ``next`` and ``confirm``.

A menu is plain data so the view can draw it and the journal never needs it: only the choice
taken is recorded, as the action it triggers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller.rules.move import BLUE, RED

from . import texts


@dataclass(frozen=True)
class Option:
    label: str
    action: str
    """``resign``, ``no-show``, ``stop``, ``abandon``, ``cancel``; in the setup menu ``pick``
    (choose a side's name) and ``name`` (this name, ``value``, for ``side``)."""
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


CANCEL = Option("Cancel", "cancel")


def adjudication_menu() -> Menu:
    """Hold pause: end the game by the arbiter's decision (RULES.md §5)."""
    return Menu(
        "Arbiter: end the game?",
        (
            CANCEL,
            Option("Stop, tally now", "stop"),
            Option("BLUE resigns", "resign", BLUE),
            Option("RED resigns", "resign", RED),
            Option("BLUE no-show", "no-show", BLUE),
            Option("RED no-show", "no-show", RED),
        ),
    )


def abandon_menu() -> Menu:
    """New game pressed during a game: never throw a game away on one press."""
    return Menu("Abandon this game?", (CANCEL, Option("Abandon, new game", "abandon")))


def settings_menu(info: Mapping[str, str], selected: int = 0) -> Menu:
    """Hold pause while setting up: the players' names, chosen from the class list."""
    none = texts.MENU_NO_NAME
    return Menu(
        texts.MENU_SETTINGS,
        (
            Option(texts.MENU_CLOSE, "cancel"),
            Option(texts.MENU_BLUE.format(name=info.get("blue") or none), "pick", BLUE),
            Option(texts.MENU_RED.format(name=info.get("red") or none), "pick", RED),
        ),
        selected,
    )


def names_menu(side: int, roster: tuple[str, ...], info: Mapping[str, str]) -> Menu:
    """The class list for one side; the name chosen now is selected first."""
    title = texts.MENU_PICK_BLUE if side == BLUE else texts.MENU_PICK_RED
    named = tuple(Option(name, "name", side, name) for name in roster)
    options = (Option(texts.MENU_NO_NAME, "name", side, ""), *named)
    current = info.get("blue" if side == BLUE else "red", "")
    selected = next((i for i, o in enumerate(options) if o.value == current), 0)
    return Menu(title, options, selected)
