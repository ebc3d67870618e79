"""What the tracker reports: small frozen records, each with the time ``t`` and a ``kind``.

The session (or the replay driver) acts on ``MoveCommitted`` by pushing the move onto its game;
every other event is for the display, the journal and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from controller.rules.move import Move, Square


@dataclass(frozen=True)
class Event:
    t: float
    kind: ClassVar[str] = "event"

    def details(self) -> dict[str, Any]:
        """The event's fields besides ``t``, as JSON-ready values."""
        return {}


def _sq(squares: tuple[Square, ...]) -> list[list[int]]:
    return [list(s) for s in squares]


@dataclass(frozen=True)
class MoveCommitted(Event):
    """The board has shown this legal move's final position for ``settle`` seconds."""

    move: Move
    kind: ClassVar[str] = "move"

    def details(self) -> dict[str, Any]:
        return {"path": _sq(self.move.path), "captures": _sq(self.move.captures)}


@dataclass(frozen=True)
class Lifted(Event):
    """A chip left its square. ``destinations`` are where it may go (empty: it may not move)."""

    square: Square
    destinations: tuple[Square, ...]
    reason: str = ""
    kind: ClassVar[str] = "lifted"

    def details(self) -> dict[str, Any]:
        out: dict[str, Any] = {"square": list(self.square), "destinations": _sq(self.destinations)}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class PutBack(Event):
    """The board is back to the position before the attempt: nothing was played."""

    kind: ClassVar[str] = "put_back"


@dataclass(frozen=True)
class MustTake(Event):
    """Taking is mandatory: these chips must take, these chips are to be taken."""

    takers: tuple[Square, ...]
    taken: tuple[Square, ...]
    kind: ClassVar[str] = "guidance"

    def details(self) -> dict[str, Any]:
        return {"must_take": _sq(self.takers), "to_be_taken": _sq(self.taken)}


@dataclass(frozen=True)
class Mismatch(Event):
    """The board matches no legal state and has been still for ``error_delay``."""

    missing: tuple[Square, ...]
    extra: tuple[Square, ...]
    kind: ClassVar[str] = "mismatch"

    def details(self) -> dict[str, Any]:
        return {"missing": _sq(self.missing), "extra": _sq(self.extra)}


@dataclass(frozen=True)
class Recovered(Event):
    """A shown mismatch is over: the board is back to a legal state."""

    kind: ClassVar[str] = "recovered"


@dataclass(frozen=True)
class Ambiguity(Event):
    """Several legal paths fit the board and the touched squares (RULES.md D-5): ask."""

    choices: tuple[Move, ...]
    blink: tuple[Square, ...]
    kind: ClassVar[str] = "ambiguity"

    def details(self) -> dict[str, Any]:
        return {"choices": [_sq(m.path) for m in self.choices], "blink": _sq(self.blink)}


@dataclass(frozen=True)
class Choice(Event):
    """The highlighted choice of an ambiguity changed (a touch or the next button)."""

    move: Move
    kind: ClassVar[str] = "choice"

    def details(self) -> dict[str, Any]:
        return {"path": _sq(self.move.path)}


@dataclass(frozen=True)
class Promoted(Event):
    """The committed move made a dama: the player should crown the chip on ``square``."""

    square: Square
    kind: ClassVar[str] = "promoted"

    def details(self) -> dict[str, Any]:
        return {"square": list(self.square)}


@dataclass(frozen=True)
class Crowned(Event):
    """The promoted chip was lifted and set back (or swapped for a dama chip) on its square."""

    square: Square
    kind: ClassVar[str] = "crowned"

    def details(self) -> dict[str, Any]:
        return {"square": list(self.square)}


@dataclass(frozen=True)
class BoardNeeded(Event):
    """The board must be brought to the expected position (``setup`` or ``restore``)."""

    mode: str
    missing: tuple[Square, ...]
    extra: tuple[Square, ...]
    place: tuple[tuple[Square, str], ...]
    """For each missing square, the chip to put there (side, value, dama) as text."""

    @property
    def kind(self) -> str:  # type: ignore[override]
        return "setup_needed" if self.mode == "setup" else "restore_needed"

    def details(self) -> dict[str, Any]:
        return {
            "missing": _sq(self.missing),
            "extra": _sq(self.extra),
            "place": [[list(s), text] for s, text in self.place],
        }


@dataclass(frozen=True)
class BoardReady(Event):
    """The board stands as expected: play (or play on)."""

    mode: str

    @property
    def kind(self) -> str:  # type: ignore[override]
        return "setup_ok" if self.mode == "setup" else "restore_done"


@dataclass(frozen=True)
class Rotated(Event):
    """The board stands as the expected position turned half round: offer to flip it."""

    kind: ClassVar[str] = "setup_rotated"


@dataclass(frozen=True)
class ButtonIgnored(Event):
    """A button that means nothing in the current state."""

    name: str
    kind: ClassVar[str] = "button_ignored"

    def details(self) -> dict[str, Any]:
        return {"name": self.name}
