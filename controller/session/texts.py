"""What the session says to people, each sentence defined once.

Placeholders have names (``{side}``, ``{square}``) and no sentence is assembled from fragments,
so that the Filipino catalogue translates each whole (``N_`` marks them; ``Text.format``
translates in the language in force: docs/translation.md). A text the board's small
display shows as well has a short form there (``display``): plain ASCII, at most three lines of
21 characters once wrapped, because the display's font has nothing else and its page no more room.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.i18n import N_, _
from controller.record import outcome


@dataclass(frozen=True)
class Text:
    """One thing to say: the sentence for the page and the console, and the display's form."""

    page: str
    display: str = ""

    def format(self, **values: object) -> Said:
        """The sentence in the language in force, its values filled in."""
        page = _(self.page).format(**values)
        display = _(self.display or self.page).format(**values)
        return Said(page, display)


@dataclass(frozen=True)
class Said:
    """A text with its values filled in."""

    page: str
    display: str


# --------------------------------------------------------------------------- the run command

READY = Text(N_("Board ready ({board}): {variant} Damath, {rules} rules. {next_step}"))
NEXT_SETUP = Text(N_("Set up the chips: the display names each one in turn."))
NEXT_RESTORE = Text(N_("Game resumed after {plies} moves: set the board as the lights show."))
NEXT_PLAY = Text(N_("Play on."))
NEXT_OVER = Text(N_("The last game is over ({ending}): press New game for another."))

# --------------------------------------------------------------------------- setting up

VARIANT_CHOSEN = Text(N_("{variant} Damath, {rules} rules."), N_("{variant} / {rules}"))
SETUP_BUTTONS = Text(
    N_("Setting up: Next changes the variant, holding Next the rules, holding Pause the players."),
    N_("Next: variant. Hold Next: rules. Hold Pause: players"),
)

# --------------------------------------------------------------------------- playing

RESTORE_BOARD = Text(N_("Set the chips back as the board shows."), N_("Set the board as shown"))
RESTART = Text(
    N_("Restart: set the board as shown; the clocks wait until it stands right."),
    N_("Restart: set the board as shown"),
)
TAKEBACK = Text(
    N_("Takeback of {move}: set the board as shown."), N_("Takeback: set the board as shown")
)
NO_TAKEBACK = Text(N_("There is no move to take back."), N_("No move to take back"))
WARNING = Text(N_("{SIDE}: {seconds} seconds left for this move."), N_("{SIDE}: {seconds} s left"))
TIMEOUT_ARBITER = Text(
    N_("{SIDE} is out of time for this move: the arbiter decides."),
    N_("{SIDE} out of time: arbiter decides"),
)
TIMEOUT_OPPONENT = Text(
    N_("{SIDE} is out of time: {OTHER} moves for {SIDE} (online rules)."),
    N_("{SIDE} out of time: {OTHER} moves for {SIDE}"),
)
PAUSED = Text(N_("Paused by the arbiter: both clocks are stopped."), N_("Paused by the arbiter"))
NOT_SAVED = Text(N_("Not saved ({reason}): moves wait"))
"""The journal refuses records (a full disk): the clocks wait, moves are not confirmed."""
MOVE_NOT_SAVED = Text(N_("Not saved ({reason}): put the move back"))
SAVED_AGAIN = Text(N_("Saved again: play the move again"))
NOTHING_TO_DO = Text(N_("{button}: nothing to do now."), N_("{button}: nothing to do now"))
OVER_BUTTONS = Text(
    N_("The game is over: press New game to start another."), N_("Game over: New game to restart")
)
MENU_BUTTONS = Text(N_("Choose with Next, then Confirm."), N_("Choose: Next, then Confirm"))
PLAYER_TAKEBACK_OFF = Text(
    N_("Only the arbiter takes a move back in this game."), N_("Takeback: ask the arbiter")
)

# --------------------------------------------------------------------------- the tournament
CONFIRM_TABLE = Text(
    N_(
        "Table {table}: {blue} vs {red}. Confirm: the arbiter presses Confirm, or each player"
        " their own button."
    ),
    N_("T{table} {blue} v {red}: Confirm or both players"),
)
CONFIRMED_ONE = Text(
    N_("{SIDE} confirmed the table: waiting for {OTHER}."), N_("{SIDE} OK: waiting for {OTHER}")
)
CONFIRMED = Text(N_("Table confirmed."), N_("Table confirmed"))
SIGNED_ONE = Text(
    N_("{SIDE} signed the scoresheet: waiting for {OTHER}."), N_("{SIDE} signed: {OTHER}?")
)
SIGNED_BOTH = Text(N_("Both players signed the scoresheet."), N_("Both players signed"))
DISPUTED = Text(
    N_("{SIDE} disputes the game: the clocks are stopped, the arbiter is called."),
    N_("{SIDE} disputes: arbiter called"),
)
PLAYER_BUTTON = Text(
    N_("{SIDE}: sign the scoresheet at the end; hold the button to dispute."),
    N_("{SIDE}: sign at the end, hold: dispute"),
)
DESK_PAUSED = Text(
    N_("Paused from the arbiter's desk: both clocks are stopped."), N_("Paused by the desk")
)
HELD_ROUND = Text(
    N_(
        "Waiting for the round: the clocks start when the round starts (the arbiter may start"
        " them here by holding Confirm)."
    ),
    N_("Waiting for the round"),
)
HELD_DESK = Text(
    N_(
        "Table {table}: the clocks start at the arbiter's start (or when the arbiter holds"
        " Confirm here)."
    ),
    N_("T{table}: wait for the start"),
)
HELD_TABLE = Text(
    N_("Table {table}: the clocks start when the table is confirmed."),
    N_("T{table}: confirm to start"),
)
CONFIRMED_WAIT = Text(
    N_("Table confirmed: the clocks start at the arbiter's start."),
    N_("Confirmed: wait for the start"),
)
NOT_STARTED = Text(
    N_("The round has not started: put the chip back. The clocks start at the arbiter's start."),
    N_("Not started: put it back"),
)
STARTED = Text(N_("The round has started: the clocks run."), N_("Started: clocks run"))

# --------------------------------------------------------------------------- the end

ENDINGS = outcome.ENDINGS
WINNER = Text(outcome.WINNER, outcome.WINNER)
DRAW = Text(outcome.DRAW, outcome.DRAW)

# --------------------------------------------------------------------------- menus

MENU_SETTINGS = N_("Game settings")
MENU_BLUE = N_("Blue: {name}")
MENU_RED = N_("Red: {name}")
MENU_NO_NAME = N_("(no name)")
MENU_CLOSE = N_("Close")
MENU_PICK_BLUE = N_("Blue player?")
MENU_PICK_RED = N_("Red player?")
