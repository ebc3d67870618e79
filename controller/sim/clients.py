"""One open page's channel, kept from harming the others (docs/security.md, docs/failures.md).

Every page gets its own bounded queue of messages and its own sender task, so the server never
waits on a page: pushing a state is putting it in the queue, which takes no time. Only the
newest state matters, so a state still waiting is replaced by a newer one; a page whose queue
still fills up (it does not read), or whose one send takes longer than ``SEND_TIMEOUT``, is
dropped. What a page sends is rate-limited (a token bucket: ``RATE`` a second, bursts of
``BURST``); a page that floods for long is dropped too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("damath-board.sim")

MAX_QUEUE = 64
"""Messages waiting for one page: at most one state (a newer one replaces it) and the replies
to what the page sent, which the rate limit keeps under ``BURST``."""
SEND_TIMEOUT = 5.0
"""Seconds one message may take to leave; a page that reads nothing is dropped after it."""
RATE = 20.0
"""Messages a second a page may send, on average (a person clicks a few a second)."""
BURST = 40
FLOOD_DROP = 400
"""Refused messages in a row after which a flooding page is dropped."""


@dataclass
class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    rate: float = RATE
    burst: float = BURST
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(default=-1.0)
    stamp: float = 0.0

    def allow(self) -> bool:
        now = self.clock()
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Client:
    """A page's channel: ``offer`` queues a message without waiting; a task of its own sends."""

    def __init__(
        self,
        ws: Any,
        *,
        max_queue: int | None = None,
        send_timeout: float | None = None,
        name: str = "",
    ) -> None:
        self.ws = ws
        self.name = name
        self.max_queue = max_queue if max_queue is not None else MAX_QUEUE
        self.send_timeout = send_timeout if send_timeout is not None else SEND_TIMEOUT
        self.pending: deque[tuple[str, str]] = deque()
        self.closed = False
        self.reason = ""
        self.limit = RateLimit()
        self.refused = 0
        self.last_warning = float("-inf")
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._sender())

    def offer(self, text: str, kind: str = "reply") -> bool:
        """Queue a message; False if the page is gone or was just dropped for not reading."""
        if self.closed:
            return False
        if kind == "state" and any(k == "state" for k, _ in self.pending):
            # only the newest state matters: it replaces the one waiting, after the replies
            self.pending = deque((k, t) for k, t in self.pending if k != "state")
            self.pending.append((kind, text))
        elif len(self.pending) >= self.max_queue:
            self.drop(f"{len(self.pending)} messages waiting: the page does not read")
            return False
        else:
            self.pending.append((kind, text))
        self._wake.set()
        return True

    async def _sender(self) -> None:
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self.pending and not self.closed:
                    _, text = self.pending.popleft()
                    await asyncio.wait_for(self.ws.send_text(text), self.send_timeout)
        except TimeoutError:
            self.drop(f"a message took over {self.send_timeout:.0f} s to leave")
        except asyncio.CancelledError:
            raise
        except Exception:  # the page went away mid-send
            self.closed = True

    def drop(self, reason: str) -> None:
        """Stop serving this page (it is told why if it still listens) and close it."""
        if self.closed:
            return
        self.closed = True
        self.reason = reason
        self.pending.clear()
        self._wake.set()
        log.warning("page %s dropped: %s", self.name, reason)
        asyncio.get_running_loop().create_task(self._close(reason))

    async def _close(self, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=1008, reason=reason[:120]), 1.0)

    def incoming(self) -> str | None:
        """Account for one message from the page: None to handle it, else why it is refused
        (said at most once a second; a page that keeps flooding is dropped)."""
        if self.limit.allow():
            self.refused = 0
            return None
        self.refused += 1
        if self.refused >= FLOOD_DROP:
            self.drop(f"{self.refused} messages over the limit of {RATE:.0f} a second")
            return ""
        now = self.limit.clock()
        if now - self.last_warning >= 1.0:
            self.last_warning = now
            return f"too many messages: at most {RATE:.0f} a second; the rest are ignored"
        return ""

    async def stop(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
