"""What the session says to people, each sentence defined once.

Placeholders have names (``{side}``, ``{square}``) and no sentence is assembled from fragments,
so that a translation catalogue can take these over as they stand. A text the board's small
display shows as well has a short form there (``display``): plain ASCII, at most three lines of
21 characters once wrapped, because the display's font has nothing else and its page no more room.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    """One thing to say: the sentence for the page and the console, and the display's form."""

    page: str
    display: str = ""

    def format(self, **values: object) -> Said:
        page = self.page.format(**values)
        display = (self.display or self.page).format(**values)
        return Said(page, display)


@dataclass(frozen=True)
class Said:
    """A text with its values filled in."""

    page: str
    display: str


# --------------------------------------------------------------------------- the run command

READY = Text("Board ready ({board}): {variant} Damath, {rules} rules. {next_step}")
NEXT_SETUP = Text("Set up the chips: the display names each one in turn.")
NEXT_RESTORE = Text("Game resumed after {plies} moves: set the board as the lights show.")
NEXT_PLAY = Text("Play on.")
NEXT_OVER = Text("The last game is over ({ending}): press New game for another.")
