"""One game's life on the board: clocks, journal, the session state machine, export.

See docs/session.md. The board runtime (``controller.board``) opens a ``Session`` (resumed from
its journal, or ``Session.start`` for a new game), feeds it frames and buttons, lets time
advance, and hands ``view_input(t)`` to the view.
"""

from controller.record.journal_file import JournalLoad

from .clocks import ArbiterClocks, ClockEvent, ClockReading
from .config import SessionConfig
from .journal import Journal, JournalError
from .session import Cue, Session, ViewInput

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
