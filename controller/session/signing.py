"""The tournament's acts at the board, as the board lives them: each player's own button, and
``SensorTrace``, the last sensor changes, so a dispute carries the evidence of the move it is about
(who lifted or placed which square, when). What the records say is the record's
(``controller.record.signing``); the buttons and the messages stay with the session.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from controller.record.signing import SENSED_MAX

PLAYER_BUTTONS = {"blue": 0, "red": 1}
"""Each player's own button (drivers.buttons.BUTTON_NAMES) and the side it belongs to."""


class SensorTrace:
    """The sensor changes of the last move and of the one being made (a dispute is about the
    move just played, or about what the opponent is doing now)."""

    def __init__(self) -> None:
        self.before: list[list[Any]] = []
        self.current: deque[list[Any]] = deque(maxlen=SENSED_MAX)

    def frame(self, t: float, old: frozenset[Any] | None, new: frozenset[Any]) -> None:
        if old is None:
            return
        for sq in sorted(old - new):
            self.current.append([round(t, 3), "lift", [sq[0], sq[1]]])
        for sq in sorted(new - old):
            self.current.append([round(t, 3), "place", [sq[0], sq[1]]])

    def mark(self) -> None:
        """A move was played: its changes become the last move's."""
        self.before = list(self.current)
        self.current.clear()

    def evidence(self) -> list[list[Any]]:
        return (self.before + list(self.current))[-SENSED_MAX:]
