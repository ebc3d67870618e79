"""What the edge refuses, said once a minute with a count: the first refusal at once, then one
line a minute while refusals go on, never a line (or a traceback) per connection.

A client that opens a thousand connections a second used to write a line for each (asyncio's
``socket.accept() out of system resource`` with its traceback, uvicorn's "Invalid HTTP
request received."): 724 MB of log in three minutes. ``QuietLogs`` takes those messages off
asyncio's and uvicorn's loggers and counts them here instead.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

log = logging.getLogger("damath-board.http")

REASONS = {
    "address": "too many at once from one address",
    "server": "too many at once in all",
    "slow": "no whole request within the deadline",
    "body": "a body sent too slowly",
    "accept": "the system refused to accept (out of files)",
    "invalid": "not an HTTP request",
}
NOISE = {
    "socket.accept() out of system resource": "accept",
    "Invalid HTTP request received.": "invalid",
    "Exceeded concurrency limit.": "server",
    "Unsupported upgrade request.": "invalid",
}
"""The start of each per-connection message of asyncio and uvicorn, and its reason here."""


class RefusalLog:
    """Counts refusals by reason and address; says them at most once every ``every`` s."""

    def __init__(
        self,
        every: float = 60.0,
        say: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.every = every
        self.say = say or log.warning
        self.clock = clock
        self.reasons: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self.total = 0
        """Every refusal since the start (tests and the status read it)."""
        self._last = -float("inf")
        self._since = 0.0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def refused(self, reason: str, address: str = "") -> None:
        with self._lock:
            self.total += 1
            if not self.reasons:
                self._since = self.clock()
            self.reasons[reason] += 1
            if address:
                self.addresses[address] += 1
            due = self.clock() - self._last >= self.every
            if not due and self._timer is None:
                wait = max(0.0, self._last + self.every - self.clock())
                self._timer = threading.Timer(wait, self.flush)
                self._timer.daemon = True
                self._timer.start()
        if due:
            self.flush()

    def flush(self) -> None:
        """Say what was refused since the last line, if anything."""
        with self._lock:
            self._timer = None
            if not self.reasons:
                return
            count = sum(self.reasons.values())
            seconds = max(1, round(self.clock() - self._since))
            parts = [f"{REASONS.get(r, r)}: {n}" for r, n in self.reasons.most_common()]
            top = ", ".join(f"{a} ×{n}" for a, n in self.addresses.most_common(3))
            self.reasons.clear()
            self.addresses.clear()
            self._last = self.clock()
        noun = "connection" if count == 1 else "connections"
        self.say(
            f"refused {count} {noun} in {seconds} s ({'; '.join(parts)})"
            + (f"; most from {top}" if top else "")
            + " (said at most once a minute)"
        )


class QuietLogs(logging.Filter):
    """On asyncio's and uvicorn's loggers: a per-connection message is counted, not written."""

    def __init__(self, refusals: RefusalLog) -> None:
        super().__init__()
        self.refusals = refusals

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        for start, reason in NOISE.items():
            if text.startswith(start):
                self.refusals.refused(reason)
                return False
        return True

    def install(self) -> QuietLogs:
        for name in ("asyncio", "uvicorn.error"):
            logging.getLogger(name).addFilter(self)
        return self
