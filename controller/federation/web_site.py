"""What the federation's pages share: the running federation, the halls' live wall and the
federation's name (``Site``); an error in one sentence (a store that does not answer: a 503
with a retry, whatever the page); the wall's ``top`` parameter read."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from controller.i18n import _

from . import pages
from .service import Federation
from .storehealth import RETRY_SECONDS, StoreUnreachable
from .wall import Wall


@dataclass(frozen=True)
class Site:
    fed: Federation
    wall: Wall

    @property
    def name(self) -> str:
        return self.fed.settings.name

    def route(self, fn: Callable[[Site, Request], Any]) -> Callable[[Request], Any]:
        """A handler of this site as a Starlette endpoint: a coroutine stays one, a plain
        function stays plain (Starlette runs it in a worker thread: the store's reads)."""
        if inspect.iscoroutinefunction(fn):

            async def endpoint(request: Request) -> Response:
                try:
                    response: Response = await fn(self, request)
                except StoreUnreachable:
                    return self.unreachable(request)
                return response

            return endpoint

        def plain(request: Request) -> Response:
            try:
                response: Response = fn(self, request)
            except StoreUnreachable:
                return self.unreachable(request)
            return response

        return plain

    def unreachable(self, request: Request) -> Response:
        """The store does not answer: one sentence and when to try again (a page for a
        browser, JSON for a hub or a script); the log has said it once (``storehealth``)."""
        headers = {"retry-after": str(RETRY_SECONDS), "connection": "close"}
        text = StoreUnreachable.public()
        if "text/html" in request.headers.get("accept", ""):
            body = pages.page(_("Not answering just now"), f"<p>{pages.e(text)}</p>", self.name)
            return HTMLResponse(body, status_code=503, headers=headers)
        return JSONResponse({"error": text}, status_code=503, headers=headers)


def error(status: int, text: str, close: bool = False) -> JSONResponse:
    """An error in one sentence; ``close``: the connection too (a body left unread)."""
    headers = {"connection": "close"} if close else None
    return JSONResponse({"error": text}, status_code=status, headers=headers)


def top(request: Request) -> int:
    """How many boards of each hall the wall shows (``?top=``, 4 by default, at most 1000)."""
    raw = request.query_params.get("top", "4")
    return min(int(raw), 1000) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 4
