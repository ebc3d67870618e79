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

# --------------------------------------------------------------------------- setting up

VARIANT_CHOSEN = Text("{variant} Damath, {rules} rules.", "{variant} / {rules}")
SETUP_BUTTONS = Text(
    "Setting up: Next changes the variant, holding Next the rules, holding Pause the players.",
    "Next: variant. Hold Next: rules. Hold Pause: players",
)

# --------------------------------------------------------------------------- playing

RESTORE_BOARD = Text("Set the chips back as the board shows.", "Set the board as shown")
RESTART = Text(
    "Restart: set the board as shown; the clocks wait until it stands right.",
    "Restart: set the board as shown",
)
TAKEBACK = Text("Takeback of {move}: set the board as shown.", "Takeback: set the board as shown")
NO_TAKEBACK = Text("There is no move to take back.", "No move to take back")
WARNING = Text("{SIDE}: {seconds} seconds left for this move.", "{SIDE}: {seconds} s left")
TIMEOUT_ARBITER = Text(
    "{SIDE} is out of time for this move: the arbiter decides.",
    "{SIDE} out of time: arbiter decides",
)
TIMEOUT_OPPONENT = Text(
    "{SIDE} is out of time: {OTHER} moves for {SIDE} (online rules).",
    "{SIDE} out of time: {OTHER} moves for {SIDE}",
)
PAUSED = Text("Paused by the arbiter: both clocks are stopped.", "Paused by the arbiter")
NOT_SAVED = Text("Not saved ({reason}): moves wait")
"""The journal refuses records (a full disk): the clocks wait, moves are not confirmed."""
MOVE_NOT_SAVED = Text("Not saved ({reason}): put the move back")
SAVED_AGAIN = Text("Saved again: play the move again")
NOTHING_TO_DO = Text("{button}: nothing to do now.", "{button}: nothing to do now")
OVER_BUTTONS = Text(
    "The game is over: press New game to start another.", "Game over: New game to restart"
)
MENU_BUTTONS = Text("Choose with Next, then Confirm.", "Choose: Next, then Confirm")
PLAYER_TAKEBACK_OFF = Text(
    "Only the arbiter takes a move back in this game.", "Takeback: ask the arbiter"
)

# --------------------------------------------------------------------------- the end

ENDINGS: dict[str, str] = {
    "no-chips": "{SIDE} has no chip left",
    "no-moves": "{SIDE} cannot move",
    "repetition": "the same position was repeated",
    "time": "the game time is over",
    "stop": "the arbiter stopped the game",
    "resign": "{SIDE} resigned",
    "no-show": "{SIDE} did not show",
    "abandon": "abandoned",
}
WINNER = Text("{SIDE} wins", "{SIDE} wins")
DRAW = Text("Draw: 1/2 point each", "Draw: 1/2 point each")

# --------------------------------------------------------------------------- menus

MENU_SETTINGS = "Game settings"
MENU_BLUE = "Blue: {name}"
MENU_RED = "Red: {name}"
MENU_NO_NAME = "(no name)"
MENU_CLOSE = "Close"
MENU_PICK_BLUE = "Blue player?"
MENU_PICK_RED = "Red player?"
