"""What the virtual board's hands and buttons say back to the page, each sentence defined once,
with named placeholders (``{chip}`` is itself one of the chip phrases below)."""

from __future__ import annotations

# a chip, as a sentence names it
CHIP = "{side} chip {label}"
DAMA = "{side} dama {label}"

# what the hands did
LIFTED = "You lifted the {chip} from {square}."
SET_DOWN = "You set the {chip} down on {square}."
TOOK_OFF = "You took the {chip} off {square} and put it beside the board."
PUT_ASIDE = "You put the {chip} beside the board."
PICKED_UP = "You picked up the {chip} from beside the board."
MOVED = "You moved the {chip} from {start} to {end}."
TURNED_OVER = "You turned the {chip} over."
CROWNED = "Crowned: the {chip} stands on {square}."
ARRANGED = "The chips stand where the board expects them."
TOUCHED = "You touched {square} with the chip: that way is chosen. Press Confirm."
BUTTON_PRESSED = "You pressed {button}."
BUTTON_HELD = "You held {button}."
NEW_GAME = "New game: {variant} Damath, {rules} rules."
NEW_GAME_FROM_POSITION = "New game from the position loaded: {variant} Damath, {rules} rules."
PLAYERS_SET = "Players and event saved."
PLAY_SET = "Practice settings saved."
TAKEN_BACK = "Your move was taken back: set the board as shown."
RESUMED = "The game was resumed where it stood."
NOT_PUT_AWAY = "The last game could not be put away: {error}"

# what the hands cannot do
ALREADY_HOLDING = "You already hold the {chip}: set it down or put it beside the board first."
NOTHING_TO_LIFT = "There is no chip on {square} to lift."
HAND_EMPTY = "Your hand is empty: lift a chip first."
SQUARE_TAKEN = "{square} already holds the {chip}."
NOTHING_TO_TAKE_OFF = "There is no chip on {square} to take off."
NOTHING_TO_PUT_ASIDE = "Your hand is empty: nothing to put aside."
NO_SUCH_TRAY_CHIP = "There is no chip {chip_id} beside the board."
NOTHING_TO_CROWN = "Your hand is empty: lift the chip to crown first."
EMPTY_SQUARE = "There is no chip on {square}: click a chip to lift it, then click where it goes."
LIGHT_SQUARE = "{square} is a light square: chips stand on the dark ones."
OFF_BOARD = "{square} is off the board."

# messages the page sent that cannot be acted on
NOT_AN_OBJECT = "A message must be a JSON object with a 'type'."
UNKNOWN_TYPE = "Unknown message type {kind!r}; types are: {types}."
BAD_SQUARE = "'{key}' must be a square [x, y] with whole numbers from 0 to 7."
BAD_TRAY_CHIP = "'chip' must be the number of a chip beside the board."
UNKNOWN_BUTTON = "Unknown button {name!r}; buttons are: {names}."
UNKNOWN_VARIANT = "Unknown variant {variant!r}; variants are: {variants}."
UNKNOWN_PROFILE = "Unknown profile {profile!r}; profiles are: {profiles}."
UNKNOWN_DOWNLOAD = "Unknown download {what!r}: csv, html, pdn or position."
CONFIRM_NEW_GAME = (
    "A game is being played (moves so far: {moves}): a new game needs to be confirmed. The "
    "game on the board will be kept in this board's saved games."
)
NOT_A_POSITION = "A position must be a JSON object (docs/notation.md)."
CANNOT_PLAY_POSITION = "This position cannot be played: {error}"
NO_LEGAL_MOVE = "This position cannot be played: the side to move has no legal move."
BAD_FIELDS = "'{key}' must be an object of settings."
NO_PLAYER_TAKEBACK = "Only the arbiter takes a move back in this game."
NOTHING_TO_TAKE_BACK = "There is no move to take back."
