"""Adafruit Blinka's `board` module, imported the way the service needs it.

Blinka offers to pip-install platform packages into the running Python when it finds some missing
and a terminal is attached; the board's packages are installed (pinned) by systemd/install.sh,
never at run time, and /opt/damath-board is read-only to the service, so that check is skipped.
A board Blinka cannot identify gets one clear line instead of its long NotImplementedError.
"""

from __future__ import annotations

import os
from typing import Any


def board() -> Any:
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
    try:
        import board as blinka_board
    except NotImplementedError as exc:
        first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
        raise RuntimeError(f"Blinka cannot identify this board: {first}") from None
    return blinka_board


def detected() -> str:
    """The board Blinka's platform detection sees (e.g. RASPBERRY_PI_5), for the selftest."""
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
    from adafruit_blinka.agnostic import board_id

    return str(board_id)
