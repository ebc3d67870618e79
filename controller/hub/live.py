"""What the spectator pages show, kept in memory and pushed to every open page.

The ingest thread updates a board's card (and, while a page shows that board large, its
detail); each open page holds the latest card per board that it has not sent yet, so a slow
page skips intermediate states instead of falling behind, and a fast one sees every move.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class Subscriber:
    board: str | None
    """The board shown large on this page (its detail is pushed too), or None."""
    loop: asyncio.AbstractEventLoop
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    details: dict[str, dict[str, Any]] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def take(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        cards, details = list(self.pending.values()), list(self.details.values())
        self.pending.clear()
        self.details.clear()
        self.wake.clear()
        return cards, details


class Live:
    def __init__(self) -> None:
        self.cards: dict[str, dict[str, Any]] = {}
        self.details: dict[str, dict[str, Any]] = {}
        self.subscribers: set[Subscriber] = set()
        self.lock = threading.Lock()
        self.pushed = 0
        self.recorded: dict[tuple[str, str], dict[str, str]] = {}
        """The results recorded otherwise than the boards' (``set_recorded``)."""

    def subscribe(self, board: str | None) -> Subscriber:
        sub = Subscriber(board, asyncio.get_running_loop())
        with self.lock:
            self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self.lock:
            self.subscribers.discard(sub)

    def wants_detail(self, board: str) -> bool:
        with self.lock:
            return any(s.board == board for s in self.subscribers)

    def snapshot(self) -> list[dict[str, Any]]:
        with self.lock:
            return [self._noted(self.cards[b]) for b in sorted(self.cards)]

    def _noted(self, card: dict[str, Any]) -> dict[str, Any]:
        """The card with the result recorded for its game when the tournament's is not the
        board's (``recorded``: its result, words, who and why); under the lock."""
        note = self.recorded.get((card["board"], card.get("game") or ""))
        return {**card, "recorded": note} if note else card

    def set_recorded(self, notes: dict[tuple[str, str], dict[str, str]]) -> None:
        """From any thread: the results recorded otherwise than the boards' (``(board, game)``
        -> note); every open page gets the cards they change."""
        with self.lock:
            if notes == self.recorded:
                return
            changed = {k for k in notes.keys() | self.recorded.keys()
                       if notes.get(k) != self.recorded.get(k)}  # fmt: skip
            self.recorded = dict(notes)
            cards = [c for c in self.cards.values() if (c["board"], c.get("game") or "") in changed]
        for card in cards:
            self.update(card)

    def detail(self, board: str) -> dict[str, Any] | None:
        with self.lock:
            return self.details.get(board)

    def update(self, card: dict[str, Any], detail: dict[str, Any] | None = None) -> None:
        """From any thread: a board's card changed (and its detail, if computed)."""
        board = card["board"]
        card = {k: v for k, v in card.items() if k != "recorded"} | {"pushed": time.time()}
        with self.lock:
            self.cards[board] = card
            if detail is not None:
                self.details[board] = detail
            subs = list(self.subscribers)
            card = self._noted(card)
        for sub in subs:
            with_detail = detail if sub.board == board else None
            try:
                sub.loop.call_soon_threadsafe(self._deliver, sub, card, with_detail)
            except RuntimeError:  # the page's loop has closed
                self.unsubscribe(sub)

    def remove(self, board: str) -> None:
        """From any thread: the board was retired: its card leaves every open page."""
        with self.lock:
            if board not in self.cards:
                return
            del self.cards[board]
            self.details.pop(board, None)
            subs = list(self.subscribers)
        gone = {"board": board, "removed": True, "pushed": time.time()}
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(self._deliver, sub, gone, None)
            except RuntimeError:
                self.unsubscribe(sub)

    def _deliver(
        self, sub: Subscriber, card: dict[str, Any], detail: dict[str, Any] | None
    ) -> None:
        sub.pending[card["board"]] = card
        if detail is not None:
            sub.details[card["board"]] = detail
        sub.wake.set()
        self.pushed += 1
