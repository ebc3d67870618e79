"""What the simulator says back when a page's message cannot be acted on, and the one reading
of a square in a message: shared by the board and its tables."""

from __future__ import annotations

from typing import Any

from controller.i18n import _
from controller.rules.move import Square

from . import texts


class SimError(ValueError):
    """A message from the page that cannot be acted on; the text is shown to the user."""


def square_of(message: dict[str, Any], key: str = "square") -> Square:
    """``message[key]`` as a square [x, y] of whole numbers; SimError naming the key if not."""
    raw = message.get(key)
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise SimError(_(texts.BAD_SQUARE).format(key=key))
    return (raw[0], raw[1])
