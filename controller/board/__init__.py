"""The board runtime: what runs a board's games, on the Pi, in the simulator and in the demo.

``host`` keeps a board's games on the disk (open, resume, put away, close: one layout for every
game of the registry); ``ids`` the one rule for a board's id; ``loop`` the one scan loop and the
systemd watchdog; ``series`` a board that plays one Damath game after another (a match, a round);
``sim`` the simulated board's profile and mock devices, for any game's board. The commands
(``run``, ``sim``, ``demo``, ``selftest``) are thin layers over it. It sits above the games and
the drivers and below the commands (docs/architecture.md).
"""

from __future__ import annotations

from .host import BoardHost, board_folder, default_state_dir
from .ids import BoardIdError, check_board_id
from .loop import ScanLoop, Watchdog, freeze_startup_objects, off_the_loop, run_loop
from .series import GameResult, Series, SeriesError

__all__ = [
    "BoardHost",
    "BoardIdError",
    "GameResult",
    "ScanLoop",
    "Series",
    "SeriesError",
    "Watchdog",
    "board_folder",
    "check_board_id",
    "default_state_dir",
    "freeze_startup_objects",
    "off_the_loop",
    "run_loop",
]
