"""The session's closed sets, named once (the journal's kinds of record are the record's:
``controller.record.kinds.RecordKind``). Each is a ``StrEnum``: a member is its string, so the
journal's JSON, the page's snapshot and every comparison with a plain string stay as they were."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    """Where a game stands (``paused`` and the menu are orthogonal to it)."""

    SETUP = "setup"
    """The opening checked on the sensors; the arbiter may change the variant and rules."""
    PLAY = "play"
    CONFIRM = "confirm"
    """The assignment confirmed at the board (``asg``, ``by``: arbiter, blue or red)."""
    SIGN = "sign"
    """A player signed the finished game's scoresheet (``side``)."""
    DISPUTE = "dispute"
    """A player disputes the game at ``ply`` (``side``, ``sensed``: the sensor changes)."""
    RESTORE = "restore"
    """The board must be brought back to the expected position (a takeback, a restart)."""
    OVER = "over"
    """The tally is shown."""


class CueName(StrEnum):
    """A buzzer pattern the session asks for (``drivers.buzzer.PATTERNS`` has one of each)."""

    MOVE = "move"
    ERROR = "error"
    WARNING = "warning"
    TIME_UP = "time_up"
    GAME_OVER = "game_over"


class MenuAction(StrEnum):
    """What confirming a menu line does; the endings an arbiter decides are ``Ending`` values
    and end the game with that reason."""

    CANCEL = "cancel"
    ABANDON = "abandon"
    PICK = "pick"
    """Choose a side's name from the class list."""
    NAME = "name"
    """This name (``Option.value``) for ``Option.side``."""
    COMPUTER = "computer"
    LEVEL = "level"
    STOP = "stop"
    RESIGN = "resign"
    NO_SHOW = "no-show"


@dataclass(frozen=True)
class Cue:
    """A buzzer pattern to play (drivers.buzzer.PATTERNS), numbered so a viewer plays it once."""

    seq: int
    t: float
    name: str
