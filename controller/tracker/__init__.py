"""Reading the game from the board: occupancy frames in, moves, guidance and mistakes out.

See docs/tracker.md. The session creates a ``Tracker(game, settings)``, feeds it frames, button
presses and ticks, pushes every ``MoveCommitted.move`` onto its game, and hands the view
``tracker.guidance()``.
"""

from .events import (
    Ambiguity,
    BoardNeeded,
    BoardReady,
    ButtonIgnored,
    Choice,
    Crowned,
    Event,
    Lifted,
    Mismatch,
    MoveCommitted,
    MustTake,
    Promoted,
    PutBack,
    Recovered,
    Rotated,
)
from .guidance import Guidance, Mode, Phase
from .settings import Settings, SettingsError
from .tracker import BUTTONS, Tracker, chip_text

__all__ = [
    "BUTTONS",
    "Ambiguity",
    "BoardNeeded",
    "BoardReady",
    "ButtonIgnored",
    "Choice",
    "Crowned",
    "Event",
    "Guidance",
    "Lifted",
    "Mismatch",
    "Mode",
    "MoveCommitted",
    "MustTake",
    "Phase",
    "Promoted",
    "PutBack",
    "Recovered",
    "Rotated",
    "Settings",
    "SettingsError",
    "Tracker",
    "chip_text",
]
