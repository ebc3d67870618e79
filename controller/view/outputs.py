"""What every output of a board shows at one moment, whatever the game: the colour under each
square or point, the display's lines, and the two clock displays (None: a game without clocks,
whose displays stay dark). The scan loop hands it to the drivers; nothing in it is decided."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.rules.move import Square

RGB = tuple[int, int, int]
"""A colour: red, green, blue, 0 to 255 (here, so that a game's kind loads no LED legend and
no tracker with it)."""


@dataclass(frozen=True)
class BoardOutputs:
    leds: Mapping[Square, RGB]
    page: tuple[str, ...]
    clocks: tuple[str, str, bool] | None = None


def page_lines(sentences: Iterable[str], cols: int, rows: int) -> tuple[str, ...]:
    """The display's page: each sentence wrapped to ``cols``, the first ``rows`` lines."""
    lines = [line for text in sentences if text for line in textwrap.wrap(text, cols)]
    return tuple(lines[:rows])
