"""A board's link to its tournament hub (``--hub BOARD.toml``), opened, announced and closed the
same way by every command that runs a board (``run``, ``demo --trace``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from controller.i18n import _, ngettext

if TYPE_CHECKING:
    from controller.link.board import BoardLink


def open_link(conn: str | None, folder: Path, command: str, holds: bool = True) -> BoardLink | None:
    """The board's link to its hub (``--hub``), not started yet; None without one. A wrong
    connection file is a ValueError naming the file and the field. ``holds``: a tournament's
    clocks wait for the round's start on this board (not on a recorded trace played back)."""
    if not conn:
        return None
    from controller.link.board import BoardLink

    def say(text: str) -> None:
        print(f"damath-board {command}: {text}", file=sys.stderr, flush=True)

    link = BoardLink.open(conn, folder, say)
    link.holds = holds
    return link


def announce_link(link: BoardLink | None, command: str) -> None:
    if link is not None:
        said = _("damath-board {command}: publishing to the hub {url} as board {board}")
        print(said.format(command=command, url=link.link.config.url, board=link.board), flush=True)


def close_link(link: BoardLink, command: str, timeout: float) -> int:
    """Stop the link; say what the hub has not acknowledged yet (it goes at the next start)."""
    left = link.stop(timeout)
    if left:
        said = ngettext(
            "damath-board {command}: {left} record not acknowledged by the hub yet: it stays in "
            "the journal and is sent at the next start",
            "damath-board {command}: {left} records not acknowledged by the hub yet: they stay "
            "in the journal and are sent at the next start",
            left,
        )
        print(said.format(command=command, left=left), file=sys.stderr, flush=True)
    return left
