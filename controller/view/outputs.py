"""What every output of a board shows at one moment, whatever the game: the colour under each
square or point, the display's lines, and the two clock displays (None: a game without clocks,
whose displays stay dark). The scan loop hands it to the drivers; nothing in it is decided."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.rules.move import Square
from controller.view.leds import RGB


@dataclass(frozen=True)
class BoardOutputs:
    leds: Mapping[Square, RGB]
    page: tuple[str, ...]
    clocks: tuple[str, str, bool] | None = None
