"""What the virtual board's hands and buttons say back to the page, each sentence defined once,
with named placeholders (``{chip}`` is itself one of the chip phrases below); marked with
``N_`` and translated where used (docs/translation.md)."""

from __future__ import annotations

from controller.i18n import N_, _

# a chip, as a sentence names it
CHIP = N_("{side} chip {label}")
DAMA = N_("{side} dama {label}")

# what the hands did
LIFTED = N_("You lifted the {chip} from {square}.")
SET_DOWN = N_("You set the {chip} down on {square}.")
TOOK_OFF = N_("You took the {chip} off {square} and put it beside the board.")
PUT_ASIDE = N_("You put the {chip} beside the board.")
PICKED_UP = N_("You picked up the {chip} from beside the board.")
MOVED = N_("You moved the {chip} from {start} to {end}.")
TURNED_OVER = N_("You turned the {chip} over.")
CROWNED = N_("Crowned: the {chip} stands on {square}.")
ARRANGED = N_("The chips stand where the board expects them.")
TOUCHED = N_("You touched {square} with the chip: that way is chosen. Press Confirm.")
BUTTON_WORDS = {
    "pause": N_("Pause"),
    "confirm": N_("Confirm"),
    "next": N_("Next"),
    "takeback": N_("Takeback"),
    "new_game": N_("New game"),
    "blue": N_("Blue"),
    "red": N_("Red"),
}
"""Each button's label as the page prints it (``{button}`` below)."""


def button_word(name: str) -> str:
    """A button's label in the page's language (``{button}``), whichever table pressed it."""
    word = BUTTON_WORDS.get(name)
    return _(word) if word else name.replace("_", " ")


BUTTON_PRESSED = N_("You pressed {button}.")
BUTTON_HELD = N_("You held {button}.")
NEW_GAME = N_("New game: {variant} Damath, {rules} rules.")
NEW_PUZZLE = N_("A puzzle for {child}: set the board as the lights show.")
NEW_GAME_FROM_POSITION = N_("New game from the position loaded: {variant} Damath, {rules} rules.")
PLAYERS_SET = N_("Players and event saved.")
PLAY_SET = N_("Practice settings saved.")
TAKEN_BACK = N_("Your move was taken back: set the board as shown.")
RESUMED = N_("The game was resumed where it stood.")
NOT_PUT_AWAY = N_("The last game could not be put away: {error}")

# what the hands cannot do
ALREADY_HOLDING = N_("You already hold the {chip}: set it down or put it beside the board first.")
NOTHING_TO_LIFT = N_("There is no chip on {square} to lift.")
HAND_EMPTY = N_("Your hand is empty: lift a chip first.")
SQUARE_TAKEN = N_("{square} already holds the {chip}.")
NOTHING_TO_TAKE_OFF = N_("There is no chip on {square} to take off.")
NOTHING_TO_PUT_ASIDE = N_("Your hand is empty: nothing to put aside.")
NO_SUCH_TRAY_CHIP = N_("There is no chip {chip_id} beside the board.")
NOTHING_TO_CROWN = N_("Your hand is empty: lift the chip to crown first.")
EMPTY_SQUARE = N_(
    "There is no chip on {square}: click a chip to lift it, then click where it goes."
)
LIGHT_SQUARE = N_("{square} is a light square: chips stand on the dark ones.")
OFF_BOARD = N_("{square} is off the board.")

# messages the page sent that cannot be acted on
NOT_AN_OBJECT = N_("A message must be a JSON object with a 'type'.")
UNKNOWN_TYPE = N_("Unknown message type {kind!r}; types are: {types}.")
BAD_SQUARE = N_("'{key}' must be a square [x, y] with whole numbers from 0 to 7.")
BAD_TRAY_CHIP = N_("'chip' must be the number of a chip beside the board.")
UNKNOWN_BUTTON = N_("Unknown button {name!r}; buttons are: {names}.")
UNKNOWN_VARIANT = N_("Unknown variant {variant!r}; variants are: {variants}.")
UNKNOWN_PROFILE = N_("Unknown profile {profile!r}; profiles are: {profiles}.")
UNKNOWN_DOWNLOAD = N_("Unknown download {what!r}: csv, html, pdn or position.")
CONFIRM_NEW_GAME = N_(
    "A game is being played (moves so far: {moves}): a new game needs to be confirmed. The "
    "game on the board will be kept in this board's saved games."
)
NOT_A_POSITION = N_("A position must be a JSON object (docs/notation.md).")
CANNOT_PLAY_POSITION = N_("This position cannot be played: {error}")
NO_LEGAL_MOVE = N_("This position cannot be played: the side to move has no legal move.")
BAD_FIELDS = N_("'{key}' must be an object of settings.")
NO_PLAYER_TAKEBACK = N_("Only the arbiter takes a move back in this game.")
NOTHING_TO_TAKE_BACK = N_("There is no move to take back.")
