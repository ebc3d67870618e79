"""The kinds of journal record of a Damath game, named once. A ``StrEnum``: a member is its
string, so the journal's JSON and every comparison with a plain string stay as they were."""

from __future__ import annotations

from enum import StrEnum


class RecordKind(StrEnum):
    """The kinds of journal record (``k``)."""

    START = "start"
    READY = "ready"
    MOVE = "move"
    TAKEBACK = "takeback"
    PAUSE = "pause"
    RESUME = "resume"
    WARNING = "warning"
    TIMEOUT = "timeout"
    END = "end"
    TICK = "tick"
    INFO = "info"
    PLAY = "play"
    CONFIRM = "confirm"
    """The assignment confirmed at the board (``asg``, ``by``: arbiter, blue or red)."""
    SIGN = "sign"
    """A player signed the finished game's scoresheet (``side``)."""
    DISPUTE = "dispute"
    """A player disputes the game at ``ply`` (``side``, ``sensed``: the sensor changes)."""
    HOLD = "hold"
    """The clocks of a tournament game wait for the round's start (``until``: round, desk or
    table; ``asg``): put back to full time (record/start.py)."""
    GO = "go"
    """The round started: the clocks may run (``by``: desk, table or arbiter; ``asg``)."""
