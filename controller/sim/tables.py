"""The tables of the simulated boards whose pieces carry no value the board must be told: plain
draughts men and kings (Dam, English draughts), dice (Dadama), and pieces on the points of a
grid (Mathematical Chess). Each is only the hands: where a piece stands, what is in the hand; the
sensors see which cells are taken, exactly as on a real board. The chips of Damath, with their
values and trays, are ``chips.ChipsTable``.

A table takes the page's actions for its pieces (``act``), tells the sensors what stands
(``occupied``) and the page what it holds (``json``); the board (``engine.SimBoard``) passes
every other action, and runs the scan loop after each.
"""

from __future__ import annotations

from typing import Any

from controller.i18n import N_, _
from controller.rules.move import Square
from drivers.buttons import BUTTON_NAMES

from . import texts
from .errors import SimError, square_of
from .table_board import TableBoard

PIECE = {"pieces": N_("piece"), "dice": N_("die"), "points": N_("piece")}


def _where(square: Square) -> str:
    return f"({square[0]},{square[1]})"


class SimTable:
    """What every simulated table does: the board's game read through its cells."""

    types: tuple[str, ...] = ()
    """The page's message types this table acts on (``access.ACTIONS`` classifies each)."""

    def __init__(self, board: TableBoard) -> None:
        self.board = board
        self.cells = board.kind.geometry.cells

    def act(self, message: dict[str, Any]) -> str:
        raise SimError(
            _("{kind!r} is not an action of a {game} board").format(
                kind=message.get("type"), game=_(self.board.kind.title)
            )
        )

    def occupied(self) -> frozenset[Square]:
        raise NotImplementedError

    def json(self) -> dict[str, Any]:
        return {}

    def page(self, t: float) -> dict[str, Any]:
        """The game as the page draws it, with this table's pieces."""
        return self.board.game.page(t)

    def square(self, message: dict[str, Any], key: str = "square") -> Square:
        """The message's square, on this board (SimError saying what is wrong otherwise)."""
        square = square_of(message, key)
        if square not in self.cells:
            raise SimError(_(texts.OFF_BOARD).format(square=_where(square)))
        return square


class HandTable(SimTable):
    """Pieces on cells and at most one in the hand: click a piece to lift it, click an empty
    cell to set it down, click a piece while one is held (or ``remove``) to take it off."""

    kind_of_piece = "pieces"
    types = ("click", "lift", "place", "remove", "button")

    def __init__(self, board: TableBoard) -> None:
        super().__init__(board)
        self.standing: set[Square] = set(board.game.expected())
        self.hand: Square | None = None

    @property
    def piece(self) -> str:
        return _(PIECE[self.kind_of_piece])

    def occupied(self) -> frozenset[Square]:
        return frozenset(self.standing)

    def json(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand) if self.hand is not None else None,
            "table": [list(sq) for sq in sorted(self.standing)],
        }

    def act(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        if kind == "click":
            return self.click(self.square(message))
        if kind == "lift":
            return self.lift(self.square(message))
        if kind == "place":
            return self.place(self.square(message))
        if kind == "remove":
            return self.remove(self.square(message))
        if kind == "button":  # held: the arbiter's menu (Pause), a player's dispute
            return self.button(message.get("name"), message.get("hold", False) is True)
        return super().act(message)

    def taken(self) -> frozenset[Square]:
        """Pieces the board shows as taken: a click takes them off at once."""
        return frozenset()

    def click(self, square: Square) -> str:
        if self.hand is None and square in self.standing and square in self.taken():
            return self.remove(square)
        if self.hand is None and square in self.standing:
            return self.lift(square)
        if self.hand is not None and (square not in self.standing or square == self.hand):
            return self.place(square)
        if square in self.standing:  # a piece in the hand and another clicked: taken off
            return self.remove(square)
        raise SimError(_("nothing to lift on {square}").format(square=_where(square)))

    def lift(self, square: Square) -> str:
        if square not in self.standing:
            raise SimError(_("nothing to lift on {square}").format(square=_where(square)))
        if self.hand is not None:
            raise SimError(
                _("you already hold a {piece}: set it down first").format(piece=self.piece)
            )
        self.standing.discard(square)
        self.hand = square
        return _("lifted the {piece} on {square}").format(piece=self.piece, square=_where(square))

    def place(self, square: Square) -> str:
        if self.hand is None:
            raise SimError(_("no {piece} in the hand").format(piece=self.piece))
        if square in self.standing:
            raise SimError(_("{square} is taken").format(square=_where(square)))
        self.standing.add(square)
        self.hand = None
        return _("set the {piece} down on {square}").format(piece=self.piece, square=_where(square))

    def remove(self, square: Square) -> str:
        if square not in self.standing:
            raise SimError(_("nothing to take off on {square}").format(square=_where(square)))
        self.standing.discard(square)
        return _("took the {piece} off {square}").format(piece=self.piece, square=_where(square))

    def button(self, name: object, hold: bool = False) -> str:
        if name == "hint" and self.board.kind.computer is not None:  # the page's Hint
            self.board.game.press(self.board.clock(), "hint")
            return _("asked the computer for a hint")
        if isinstance(name, str) and name in BUTTON_NAMES:
            self.board.hands.press(name, "hold" if hold else "press")
            template = _(texts.BUTTON_HELD) if hold else _(texts.BUTTON_PRESSED)
            return template.format(button=texts.button_word(name))
        raise SimError(_(texts.UNKNOWN_BUTTON).format(name=name, names=", ".join(BUTTON_NAMES)))


class PiecesTable(HandTable):
    """Plain draughts men and kings (Dam, English draughts)."""


class DiceTable(HandTable):
    """Dadama's dice: the page's face buttons enter real dice's faces."""

    kind_of_piece = "dice"

    def taken(self) -> frozenset[Square]:
        from controller.games.dadama.tracker import loose

        session = self.board.game.session  # type: ignore[attr-defined]
        return frozenset(loose(session.game) | set(session.seen.extra))

    def button(self, name: object, hold: bool = False) -> str:
        faces = [f"face{n}" for n in range(1, 7)]
        if isinstance(name, str) and name in faces:
            session = self.board.game.session  # type: ignore[attr-defined]
            if session.dice_mode != "real":
                raise SimError(_("the board throws the dice: start a game with real dice"))
            self.board.game.press(self.board.clock(), name)
            return _("entered a {face}").format(face=name[4:])
        if isinstance(name, str) and (name in BUTTON_NAMES or name == "hint"):
            return super().button(name, hold)
        raise SimError(
            _(texts.UNKNOWN_BUTTON).format(name=name, names=", ".join([*BUTTON_NAMES, *faces]))
        )


class PointsTable(SimTable):
    """Pieces on the points of a grid (Mathematical Chess): a click on a point with a piece
    lifts it, on an empty point puts down the piece in hand (the sensors see only which points
    are taken); ``name`` names the piece just put down, ``done`` ends the turn."""

    types = ("click", "name", "done", "button")

    def __init__(self, board: TableBoard) -> None:
        super().__init__(board)
        self.standing: set[Square] = set(board.game.expected())

    def occupied(self) -> frozenset[Square]:
        return frozenset(self.standing)

    def act(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        if kind == "click":
            point = self.square(message, "point" if "point" in message else "square")
            self.standing ^= {point}
            return _("a hand on {point}").format(point=_where(point))
        if kind == "name":
            piece = message.get("piece")
            if not isinstance(piece, str) or not 0 < len(piece) <= 4:
                raise SimError(_("'piece' names the piece: a digit or an operator"))
            self.board.game.press(self.board.clock(), "name:" + piece)
            return _("named it {piece}").format(piece=piece)
        if kind == "done":
            self.board.game.press(self.board.clock(), "done")
            return _("ended the turn")
        if kind == "button":
            name = message.get("name")
            if name not in BUTTON_NAMES:
                raise SimError(
                    _(texts.UNKNOWN_BUTTON).format(name=name, names=", ".join(BUTTON_NAMES))
                )
            hold = message.get("hold", False) is True  # held: the arbiter's menu, a dispute
            self.board.hands.press(str(name), "hold" if hold else "press")
            template = _(texts.BUTTON_HELD) if hold else _(texts.BUTTON_PRESSED)
            return template.format(button=texts.button_word(str(name)))
        return super().act(message)

    def json(self) -> dict[str, Any]:
        return {"table": [list(p) for p in sorted(self.standing)]}
