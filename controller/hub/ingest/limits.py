"""What one board may cost the hub (docs/hall.md, "One board cannot crowd out the others"):
its messages a second, the worker's queue, its new games an hour, and how many lines its
refusals get in the problems list. Each is counted per board; nothing here touches the store
or the network, so each limit is tested alone."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from controller.link.protocol import Rejected

QUEUE_LIMIT = 50_000
"""Messages waiting for the worker; beyond, arrivals are dropped (counted as ``busy``)."""
WINDOW = 10.0
REJECTS_PER_WINDOW = 20
FLOOD_SECONDS = 10.0
"""A board dropped for more than this many seconds' worth of its rate within ``WINDOW`` is
flooding (a real board is never dropped at all: its bursts are a few dozen messages)."""
HOLD_SECONDS = 600.0
"""How long the broker holds a flooding board's credential (its own broker only)."""
MAX_BOARDS = 10_000
"""Buckets kept for this many board ids; beyond, arrivals share one (ids the broker lets
through are boards' ids)."""


@dataclass(frozen=True)
class Limits:
    """What one board may send: messages a second on average and at once, new games an hour
    (and at once). A board resending a whole game after an outage sends its window (64
    records and its state) per acknowledgement: well within these."""

    rate: float = 200.0
    burst: int = 1000
    games_per_hour: int = 30
    hold_seconds: float = HOLD_SECONDS
    """How long the broker holds a flooding board's credential (0: never)."""


class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` a second."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


Dropped = dict[tuple[str, str], int]
"""(board, reason) → messages dropped on arrival."""


class Arrivals:
    """The network thread's gate: each board's messages through its bucket, the rest dropped
    on arrival and counted, never queued (this is what keeps a flood from growing the hub).
    The worker takes the counts (``take``) and gives them back if its batch is not written."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._rates: dict[str, Bucket] = {}
        self._dropped: Dropped = {}
        self._lock = threading.Lock()

    def admit(self, board: str, queued: int, now: float) -> bool:
        """Whether a message from ``board`` goes into the queue (``queued`` waiting there)."""
        bucket = self._rates.get(board)
        if bucket is None:
            if len(self._rates) > MAX_BOARDS:
                board = ""
            bucket = self._rates.setdefault(board, Bucket(self.limits.rate, self.limits.burst, now))
        reason = None
        if not bucket.take(now):
            reason = "rate"
        elif queued >= QUEUE_LIMIT:
            reason = "busy"
        if reason is None:
            return True
        with self._lock:
            self._dropped[(board, reason)] = self._dropped.get((board, reason), 0) + 1
        return False

    def any_dropped(self) -> bool:
        return bool(self._dropped)

    def take(self) -> Dropped:
        """The drops counted since the last batch, for this one to list."""
        with self._lock:
            dropped, self._dropped = self._dropped, {}
        return dropped

    def give_back(self, dropped: Dropped) -> None:
        """A batch that was not written: its drops are listed with the next one."""
        with self._lock:
            for key, n in dropped.items():
                self._dropped[key] = self._dropped.get(key, 0) + n


class Listing:
    """How many of a board's refusals for one reason get a line of their own: at most
    ``REJECTS_PER_WINDOW`` every ``WINDOW`` seconds; the rest are counted into the next line,
    so a flood costs the store a few rows, not one each."""

    def __init__(self) -> None:
        self._windows: dict[tuple[str | None, str], list[float]] = {}
        """(board, reason) → [window start, lines listed in it, refusals not listed]."""

    def line(self, board: str | None, reason: str, at: float, count: int) -> str | None:
        """None when this refusal is only counted; else the words to add to its line (how
        many were counted and not listed since the last one), possibly empty."""
        key = (board, reason)
        window = self._windows.get(key)
        if window is None or at - window[0] >= WINDOW:  # the last window's unlisted carried
            window = self._windows[key] = [at, 0.0, window[2] if window else 0.0]
            if len(self._windows) > 5000:
                self._windows = {key: window}
        if window[1] >= REJECTS_PER_WINDOW:
            window[2] += count
            return None
        window[1] += 1
        more = ""
        if window[2]:
            more = f" (and {int(window[2])} more refused for the same reason since)"
            window[2] = 0
        return more


class Floods:
    """A board's drops within a window: past ``FLOOD_SECONDS`` of its rate, it floods."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._windows: dict[str, list[float]] = {}
        """board → [window start, messages dropped in it]."""

    def add(self, board: str, dropped: int, now: float) -> tuple[float, float]:
        """Count the drops; the window's start and its count so far."""
        window = self._windows.get(board)
        if window is None or now - window[0] >= WINDOW:
            window = self._windows[board] = [now, 0.0]
        window[1] += dropped
        return window[0], window[1]

    def flooding(self, count: float) -> bool:
        return count >= self.limits.rate * FLOOD_SECONDS


class NewGames:
    """A board's new games: ``games_per_hour`` an hour, as many at once."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._buckets: dict[str, Bucket] = {}

    def check(self, board: str, game: str, now: float) -> None:
        """Rejected('games') when the board has opened its games of the hour (a refused one is
        not acknowledged and comes again later)."""
        per_hour = self.limits.games_per_hour
        bucket = self._buckets.get(board)
        if bucket is None:
            bucket = self._buckets[board] = Bucket(per_hour / 3600, per_hour, now)
        if not bucket.take(now):
            raise Rejected(
                "games",
                f"game {game}: more than {per_hour} new games in an hour from this board; "
                "refused for now (the board sends it again later)",
            )
