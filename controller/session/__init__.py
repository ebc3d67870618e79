"""One game's life on the board: clocks, journal, the session state machine, export.

See docs/session.md. The app and the simulator build a ``Session`` (``Session.open`` to resume
from a journal), feed it frames and buttons, let time advance, and read ``snapshot(t)``.
"""

from .clocks import ArbiterClocks, ClockEvent, ClockReading
from .journal import Journal, JournalError, JournalLoad
from .session import Cue, Session, SessionConfig, ViewInput

__all__ = [
    "ArbiterClocks",
    "ClockEvent",
    "ClockReading",
    "Cue",
    "Journal",
    "JournalError",
    "JournalLoad",
    "Session",
    "SessionConfig",
    "ViewInput",
]
