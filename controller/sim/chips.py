"""Damath's table on the simulated board: the chips with their values (``table.Table``: on the
squares, in the hand, in the trays beside the board) and what the hands and the page do with
them (click, drag, crown, a touch that chooses a taking's way), the arbiter's and players'
buttons, the players' names and practice settings, and the coach's hint and review.

What the board sees is the table's occupancy on the mock sensors; nothing here decides anything
about the game (the session does, through the scan loop)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.coach.board import CoachError
from controller.i18n import _
from controller.rules.move import Square
from controller.session import Session
from drivers.buttons import BUTTON_NAMES as BUTTONS

from . import texts
from .errors import SimError, square_of
from .table import Table, TableError
from .table_board import TableBoard
from .tables import SimTable

if TYPE_CHECKING:
    from controller.games.damath.kind import DamathGame


def _where(square: Square) -> str:
    return f"({square[0]}, {square[1]})"


def fields(message: dict[str, Any], key: str) -> dict[str, Any]:
    raw = message.get(key) or {}
    if not isinstance(raw, dict):
        raise SimError(_(texts.BAD_FIELDS).format(key=key))
    return raw


class ChipsTable(SimTable):
    def __init__(self, board: TableBoard, resumed: bool = False) -> None:
        super().__init__(board)
        session = self.session
        if resumed:  # the chips stand where the game has them, the taken ones in the trays
            self.table = Table(session.start_chips())
            self.table.arrange(session.expected_chips())
        else:
            self.table = Table(session.expected_chips())

    @property
    def types(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self.handlers())

    @property
    def game(self) -> DamathGame:
        return self.board.game  # type: ignore[return-value]

    @property
    def session(self) -> Session:
        return self.game.session

    def occupied(self) -> frozenset[Square]:
        return self.table.occupied()

    def json(self) -> dict[str, Any]:
        return self.table.json()

    def page(self, t: float) -> dict[str, Any]:
        from controller.view.snapshot import snapshot

        s = self.session
        snap = snapshot(s.view_input(t, page=True), t, page=True, chips=self.table.board)
        return {
            **snap,
            "roster": list(s.roster),
            "player_takeback": s.play.players_take_back,
            "coach": self.game.coach.json(s),
        }

    def act(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        handler = self.handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            types = ", ".join(["new_game", *self.handlers()])
            raise SimError(_(texts.UNKNOWN_TYPE).format(kind=kind, types=types))
        try:
            return handler(message)
        except TableError as exc:
            raise SimError(str(exc)) from None

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], str]]:
        table = self.table
        return {
            "click": self._click,
            "lift": lambda m: self._chip_said(_(texts.LIFTED), table.lift(square_of(m)), m),
            "place": lambda m: self._chip_said(_(texts.SET_DOWN), table.place(square_of(m)), m),
            "remove": lambda m: self._chip_said(_(texts.TOOK_OFF), table.remove(square_of(m)), m),
            "drag": self._drag,
            "put_aside": lambda m: _(texts.PUT_ASIDE).format(chip=table.put_aside().describe()),
            "from_tray": self._from_tray,
            "crown": self._crown,
            "arrange": self._arrange,
            "touch": lambda m: self._touch(square_of(m)),
            "button": self._button,
            "takeback": self._player_takeback,
            "info": self._info,
            "play": self._play,
            "hint": lambda m: self._coach(self.game.coach.ask_hint),
            "review": lambda m: self._coach(self.game.coach.ask_review),
        }

    def _coach(self, ask: Callable[[Session], str]) -> str:
        try:
            return ask(self.session)
        except CoachError as exc:
            raise SimError(str(exc)) from None

    @staticmethod
    def _chip_said(template: str, chip: Any, message: dict[str, Any]) -> str:
        return template.format(chip=chip.describe(), square=_where(square_of(message)))

    def _click(self, message: dict[str, Any]) -> str:
        """A click as a hand means it. While the board asks which way a taking went, a click on
        a blinking empty square is a touch there; a chip the board shows as being taken goes
        beside the board; any other chip is lifted (the board says if it may not move)."""
        square = square_of(message)
        g = self.session.tracker.guidance()
        table = self.table
        if (
            table.hand is None
            and square not in table.board
            and g.phase == "ambiguity"
            and square in g.blink
        ):
            return self._touch(square)
        removable = frozenset(g.to_be_taken)
        if g.mode != "play":
            removable |= frozenset(g.extra)
        return table.click(square, self.session.game.side_to_move, removable)

    def _touch(self, square: Square) -> str:
        """Touch ``square`` with the chip that made the taking, and set it back: on the real
        board this chooses the way round that passes there (the square blinks)."""
        g = self.session.tracker.guidance()
        if g.phase != "ambiguity" or not g.choices:
            raise SimError(_(texts.EMPTY_SQUARE).format(square=_where(square)))
        end = g.choices[0].end
        table = self.table
        table.lift(end)
        self.board.sense()
        table.place(square)
        self.board.sense()
        table.lift(square)
        self.board.sense()
        table.place(end)
        return _(texts.TOUCHED).format(square=_where(square))

    def _drag(self, message: dict[str, Any]) -> str:
        a, b = square_of(message, "from"), square_of(message, "to")
        table = self.table
        chip = table.lift(a)
        self.board.sense()
        try:
            table.place(b)
        except TableError:
            table.place(a)  # the hand puts it back where it was
            raise
        return _(texts.MOVED).format(chip=chip.describe(), start=_where(a), end=_where(b))

    def _from_tray(self, message: dict[str, Any]) -> str:
        chip_id = message.get("chip")
        if not isinstance(chip_id, int) or isinstance(chip_id, bool):
            raise SimError(_(texts.BAD_TRAY_CHIP))
        return _(texts.PICKED_UP).format(chip=self.table.take_from_tray(chip_id).describe())

    def _arrange(self, message: dict[str, Any]) -> str:
        self.table.arrange(self.session.expected_chips())
        return _(texts.ARRANGED)

    def _button(self, message: dict[str, Any]) -> str:
        name = message.get("name")
        if name not in BUTTONS:
            raise SimError(_(texts.UNKNOWN_BUTTON).format(name=name, names=", ".join(BUTTONS)))
        hold = message.get("hold", False) is True
        self.board.hands.press(name, "hold" if hold else "press")
        template = _(texts.BUTTON_HELD) if hold else _(texts.BUTTON_PRESSED)
        return template.format(button=texts.button_word(name))

    def _player_takeback(self, message: dict[str, Any]) -> str:
        """A player takes back their own move: only in practice, when the teacher allows it."""
        session = self.session
        if not session.play.players_take_back:
            raise SimError(_(texts.NO_PLAYER_TAKEBACK))
        if not session.game.ply:
            raise SimError(_(texts.NOTHING_TO_TAKE_BACK))
        presses = 1
        computer = session.play.computer_side
        if computer is not None and session.game.side_to_move != computer and session.game.ply > 1:
            presses = 2  # the computer's answer goes too: the player's own move comes back
        for _press in range(presses):
            self.board.hands.press("takeback")
        return _(texts.TAKEN_BACK)

    def _info(self, message: dict[str, Any]) -> str:
        try:
            self.session.set_info(self.board.clock(), fields(message, "info"))
        except ValueError as exc:
            raise SimError(str(exc)) from None
        return _(texts.PLAYERS_SET)

    def _play(self, message: dict[str, Any]) -> str:
        try:
            self.session.set_play(self.board.clock(), fields(message, "play"))
        except ValueError as exc:
            raise SimError(str(exc)) from None
        return _(texts.PLAY_SET)

    def _crown(self, message: dict[str, Any]) -> str:
        """Crowning on the real board: lift the chip, turn it over, set it back."""
        table = self.table
        if message.get("square") is None:
            chip = table.turn_over()
            return _(texts.TURNED_OVER).format(chip=chip.describe())
        square = square_of(message)
        table.lift(square)
        self.board.sense()
        chip = table.turn_over()
        table.place(square)
        return _(texts.CROWNED).format(chip=chip.describe(), square=_where(square))


def display_key(lines: list[str]) -> str:
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12]
