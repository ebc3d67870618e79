"""Real disk faults for the journal tests: a file-size limit (RLIMIT_FSIZE: the kernel cuts a
write short, then refuses it with EFBIG) and moves played by hand on a session."""

from __future__ import annotations

import contextlib
import resource
from collections.abc import Iterator

from controller.rules.move import Move
from controller.session import Session


@contextlib.contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """No file of this process may grow past ``size`` bytes while inside (Python ignores
    SIGXFSZ, so a write past it comes back short or fails with EFBIG, as on a full disk)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def play_move(s: Session, t: float, move: Move) -> float:
    """A person's hands on the board: lift the chip, take the taken chips off, set it down;
    then the board stands still past the settle time. Returns the time after it."""
    board = set(s.tracker.game.occupied())
    board.discard(move.start)
    s.feed_frame(t, board)
    t += 0.3
    for square in move.captures:
        board.discard(square)
        s.feed_frame(t, board)
        t += 0.3
    board.add(move.end)
    s.feed_frame(t, board)
    t += 0.5
    s.advance(t)
    return t + 0.1


def set_board_as_shown(s: Session, t: float) -> float:
    """The players put the chips where the board's LEDs ask (a restore)."""
    s.feed_frame(t, s.tracker.game.occupied())
    t += 0.5
    s.advance(t)
    return t + 0.1
