"""What the board should show right now: the tracker's state as plain data for the view."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.rules.move import Move, Square

from .reasons import Reason


class Mode(StrEnum):
    """What the tracker is doing. A ``StrEnum``: events and journals keep their text."""

    SETUP = "setup"  # wait for the opening or the given position to stand
    RESTORE = "restore"  # the same after a restart from the journal
    PLAY = "play"  # reading moves


class Phase(StrEnum):
    """Where a move stands; the page and the LEDs show each one their own way."""

    IDLE = "idle"
    MOVING = "moving"
    SETTLING = "settling"
    INVALID = "invalid"
    MISMATCH = "mismatch"
    MISMATCH_PENDING = "mismatch_pending"
    AMBIGUITY = "ambiguity"
    CROWNING = "crowning"
    WAITING = "waiting"  # setup/restore: the board is not right yet
    READY = "ready"  # setup/restore: right, settling


@dataclass(frozen=True)
class Guidance:
    mode: Mode
    """``setup``, ``restore`` (bring the board to the expected position) or ``play``."""
    phase: Phase
    side: int
    lifted: tuple[Square, ...] = ()
    """Chips of the move in progress that have left their square (the mover first)."""
    destinations: tuple[Square, ...] = ()
    cannot_move: tuple[Square, ...] = ()
    """A lifted chip that may not move (wrong side, must take elsewhere, touch-move)."""
    must_take: tuple[Square, ...] = ()
    to_be_taken: tuple[Square, ...] = ()
    missing: tuple[Square, ...] = ()
    """Squares where a chip should stand but none does (mismatch, setup, restore)."""
    extra: tuple[Square, ...] = ()
    """Squares holding a chip that should not be there."""
    place: tuple[tuple[Square, str], ...] = ()
    """For each missing square, the chip that belongs there, e.g. ``blue -9`` or ``red 8 dama``."""
    choices: tuple[Move, ...] = ()
    blink: tuple[Square, ...] = ()
    """Ambiguity: the landing squares that tell the choices apart."""
    selected: Move | None = None
    selected_marks: tuple[Square, ...] = ()
    """Ambiguity: the squares that show the chosen path (lit steady over the blinking ones)."""
    locked: Square | None = None
    """Touch-move: the chip that must be moved."""
    crown: Square | None = None
    """A chip just promoted: crown it on this square."""
    rotated: bool = False
    """Setup: the board stands as the expected position turned half round."""
    reason: Reason | None = None
    """What is wrong, in words, and the rule it breaks (an invalid lift, a mismatch), or what
    the board asks (which way): shown on the page and the display while it stands."""
