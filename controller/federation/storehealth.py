"""Whether the federation's store answers now: a store that stops answering while the service
runs (PostgreSQL stopped, restarted, its host cut off) is said once in the log and once when it
is back, and every answer meanwhile is a 503 with a retry (``StoreUnreachable``), never a
traceback; the status page shows it (``/status``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from sqlalchemy.exc import DBAPIError, OperationalError

from controller.i18n import _

log = logging.getLogger("damath-board.federation.store")

RETRY_SECONDS = 15
"""What a 503 tells a client to wait before it tries again (PostgreSQL's restart takes seconds)."""


class StoreUnreachable(ValueError):
    """The store does not answer now (a connection refused or lost); the request may be tried
    again later. Its message names the store (a command's one line, the log); ``public`` is
    what a web client is told (the store's address is not the public's)."""

    def __init__(self, shown: str, why: str) -> None:
        super().__init__(
            _("the store {url} cannot be reached: {error}").format(url=shown, error=why)
        )

    @staticmethod
    def public() -> str:
        return _("the federation's store is not answering just now; try again in {n} s").format(
            n=RETRY_SECONDS
        )


def unreachable(exc: BaseException) -> str | None:
    """Why ``exc`` means the store is out of reach (its driver's first line), or None for any
    other error (a bug, a constraint: not the store's health)."""
    if not isinstance(exc, DBAPIError):
        return None
    if isinstance(exc, OperationalError) or exc.connection_invalidated:
        text = str(exc.orig).strip().splitlines()
        return text[0] if text else type(exc.orig).__name__
    return None


class StoreHealth:
    """The store's answers as the service saw them: when it stopped answering and why."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        """The store's address with its password hidden (for the log)."""
        self.down_since: float | None = None
        self.problem = ""
        self.logging = False
        """Whether a change is said in the log (the service's; a command says it itself)."""
        self._lock = threading.Lock()

    def down(self, why: str) -> None:
        with self._lock:
            first = self.down_since is None
            if first:
                self.down_since = time.time()
            self.problem = why
        if first and self.logging:
            log.warning(
                "the store %s is not answering (%s): every request gets a 503 until it is back",
                self.shown,
                why,
            )

    def up(self) -> None:
        if self.down_since is None:  # the usual case: no lock, nothing to say
            return
        with self._lock:
            since, self.down_since, self.problem = self.down_since, None, ""
        if since is not None and self.logging:
            log.warning(
                "the store %s answers again (it did not for %.0f s)",
                self.shown,
                time.time() - since,
            )

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.down_since is None, "down_since": self.down_since}
