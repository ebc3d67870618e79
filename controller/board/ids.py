"""The one rule for a board's id: it names the board's folder, its address in the simulator and
its topic at the hub, and people type it and read it aloud."""

from __future__ import annotations

import re

from controller.i18n import _

BOARD_ID = re.compile(r"[A-Za-z0-9_-]{1,32}", re.ASCII)
"""1 to 32 ASCII letters, digits, ``-`` and ``_``: safe in a path, a URL and an MQTT topic."""


class BoardIdError(ValueError):
    """A board id that breaks the rule; the message says the rule."""


def check_board_id(board_id: object) -> str:
    """``board_id`` when it follows the rule, else BoardIdError saying what an id may be."""
    if not isinstance(board_id, str) or not BOARD_ID.fullmatch(board_id):
        shown = board_id[:40] if isinstance(board_id, str) else type(board_id).__name__
        raise BoardIdError(
            _("{board_id!r} is not a board id: use 1 to 32 letters, digits, '-' or '_'").format(
                board_id=shown
            )
        )
    return board_id
