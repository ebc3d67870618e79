"""The arbiter's menus on the scoresheet display: a list of choices, ``next`` and ``confirm``.

A menu is plain data so the view can draw it and the journal never needs it: only the choice
taken is recorded, as the action it triggers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.rules.move import BLUE, RED


@dataclass(frozen=True)
class Option:
    label: str
    action: str
    """``resign``, ``no-show``, ``stop``, ``abandon`` or ``cancel``."""
    side: int | None = None


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
