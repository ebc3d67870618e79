"""The physical table of the simulated board: which chip stands on which square, what is in the
player's hand and what lies beside the board.

The board software sees occupancy only, exactly as on the real board; this module is the "hands":
it knows every chip's side, value and crown because a person holding the chips does. Each action
changes this model, and the sensor frame (``occupied()``) is derived from it, so a mistake made
here (a wrong square, a chip knocked off) reaches the tracker as it would on real wood.

Pure: no time, no I/O. Every refused action raises ``TableError`` with a sentence for the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller.i18n import _, side_word
from controller.rules.damath_data import is_playable
from controller.rules.move import BLUE, RED, Chip, Square, side_name

from . import texts


class TableError(ValueError):
    """An action that cannot be done on a real table (nothing to lift, a square taken)."""


@dataclass(frozen=True)
class PhysicalChip:
    """One chip as a person holds it: ``id`` keeps it the same chip wherever it goes."""

    id: int
    side: int
    label: str
    dama: bool = False

    def describe(self) -> str:
        """The chip as a sentence names it: ``blue chip -9``, ``red dama 8``."""
        template = _(texts.DAMA) if self.dama else _(texts.CHIP)
        return template.format(side=side_word(self.side).lower(), label=self.label)

    def json(self) -> dict[str, object]:
        return {"id": self.id, "side": side_name(self.side), "label": self.label, "dama": self.dama}


def _where(square: Square) -> str:
    return f"({square[0]}, {square[1]})"


class Table:
    """Chips on squares, at most one chip in the hand, and a tray per side beside the board."""

    def __init__(self, chips: Mapping[Square, Chip]) -> None:
        self._next_id = 1
        self.board: dict[Square, PhysicalChip] = {}
        self.hand: PhysicalChip | None = None
        self.trays: dict[int, list[PhysicalChip]] = {BLUE: [], RED: []}
        self.arrange(chips)

    # ------------------------------------------------------------------ what the sensors see

    def occupied(self) -> frozenset[Square]:
        return frozenset(self.board)

    # ------------------------------------------------------------------ actions

    def lift(self, square: Square) -> PhysicalChip:
        """Pick the chip up into the hand: its square goes empty."""
        self._check(square)
        if self.hand is not None:
            raise TableError(_(texts.ALREADY_HOLDING).format(chip=self.hand.describe()))
        chip = self.board.get(square)
        if chip is None:
            raise TableError(_(texts.NOTHING_TO_LIFT).format(square=_where(square)))
        del self.board[square]
        self.hand = chip
        return chip

    def place(self, square: Square) -> PhysicalChip:
        """Set the chip in the hand down on an empty square."""
        self._check(square)
        if self.hand is None:
            raise TableError(_(texts.HAND_EMPTY))
        if square in self.board:
            raise TableError(
                _(texts.SQUARE_TAKEN).format(
                    square=_where(square), chip=self.board[square].describe()
                )
            )
        chip, self.hand = self.hand, None
        self.board[square] = chip
        return chip

    def remove(self, square: Square) -> PhysicalChip:
        """Take a chip off the board and put it aside (a taken chip): one action."""
        self._check(square)
        chip = self.board.pop(square, None)
        if chip is None:
            raise TableError(_(texts.NOTHING_TO_TAKE_OFF).format(square=_where(square)))
        self.trays[chip.side].append(chip)
        return chip

    def put_aside(self) -> PhysicalChip:
        """The chip in the hand goes beside the board."""
        if self.hand is None:
            raise TableError(_(texts.NOTHING_TO_PUT_ASIDE))
        chip, self.hand = self.hand, None
        self.trays[chip.side].append(chip)
        return chip

    def take_from_tray(self, chip_id: int) -> PhysicalChip:
        """Pick a chip from beside the board into the hand, to put it back."""
        if self.hand is not None:
            raise TableError(_(texts.ALREADY_HOLDING).format(chip=self.hand.describe()))
        for tray in self.trays.values():
            for i, chip in enumerate(tray):
                if chip.id == chip_id:
                    self.hand = tray.pop(i)
                    return chip
        raise TableError(_(texts.NO_SUCH_TRAY_CHIP).format(chip_id=chip_id))

    def turn_over(self) -> PhysicalChip:
        """Crown (or uncrown) the chip in the hand: a dama is a chip turned over."""
        if self.hand is None:
            raise TableError(_(texts.NOTHING_TO_CROWN))
        self.hand = replace(self.hand, dama=not self.hand.dama)
        return self.hand

    def click(self, square: Square, mover: int, removable: frozenset[Square] = frozenset()) -> str:
        """One click on a square, as a player's hand would mean it; returns what was done.

        Holding a chip: set it down. Empty hand: a chip of the other side that is being taken
        (``removable``: the board shows it as to be taken) goes beside the board with one
        click; any other chip is lifted, as a hand would lift it (the board then says whether
        it may move: a chip of the side not to move is never put in the tray by a click).
        """
        self._check(square)
        if self.hand is not None:
            chip = self.place(square)
            return _(texts.SET_DOWN).format(chip=chip.describe(), square=_where(square))
        standing = self.board.get(square)
        if standing is None:
            raise TableError(_(texts.EMPTY_SQUARE).format(square=_where(square)))
        if standing.side != mover and square in removable:
            self.remove(square)
            return _(texts.TOOK_OFF).format(chip=standing.describe(), square=_where(square))
        self.lift(square)
        return _(texts.LIFTED).format(chip=standing.describe(), square=_where(square))

    # ------------------------------------------------------------------ setting up

    def arrange(self, chips: Mapping[Square, Chip]) -> None:
        """Stand exactly these chips on the board (a player setting up, or restoring after a
        takeback); every other chip goes beside the board. Chips keep their identity when a
        chip of the same side and value is at hand."""
        pool = list(self.board.values()) + ([self.hand] if self.hand else [])
        pool += self.trays[BLUE] + self.trays[RED]
        self.board, self.hand = {}, None
        for square, chip in sorted(chips.items()):
            label = "" if chip.value is None else str(chip.value)
            found = next((c for c in pool if c.side == chip.side and c.label == label), None)
            if found is not None:
                pool.remove(found)
                found = replace(found, dama=chip.dama)
            else:
                found = PhysicalChip(self._next_id, chip.side, label, chip.dama)
                self._next_id += 1
            self.board[square] = found
        self.trays = {
            BLUE: [c for c in pool if c.side == BLUE],
            RED: [c for c in pool if c.side == RED],
        }

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _check(square: Square) -> None:
        if not is_playable(square):
            x, y = square
            if 0 <= x < 8 and 0 <= y < 8:
                raise TableError(_(texts.LIGHT_SQUARE).format(square=_where(square)))
            raise TableError(_(texts.OFF_BOARD).format(square=_where(square)))

    def json(self) -> dict[str, object]:
        return {
            "hand": self.hand.json() if self.hand else None,
            "trays": {side_name(s): [c.json() for c in chips] for s, chips in self.trays.items()},
        }
