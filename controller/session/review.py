"""The coach's review of a finished Damath game on the board's display: its pages come after the
tally, turned with Next, while the game stays as it was reviewed (the review itself is the
coach's, ``controller/coach``; it is not journaled, it is made again from the moves)."""

from __future__ import annotations

from typing import Any


class ShownReview:
    """The review the display may show, the ply it is of, and the page turned to."""

    def __init__(self) -> None:
        self.review: dict[str, Any] | None = None
        self.ply = -1
        self.page = 0
        """The display's review page the Next button turned to (0: the tally)."""

    def set(self, review: dict[str, Any] | None, ply: int) -> None:
        """The review of the game as it stood after ``ply`` moves; the display turns to its
        first page when it comes (the tally was on it meanwhile)."""
        self.review, self.ply, self.page = review, ply, 1 if review else 0

    def current(self, over: bool, ply: int) -> dict[str, Any] | None:
        """The review, if it is of the finished game as it stands."""
        if self.review is None or not over or self.ply != ply:
            return None
        return self.review
