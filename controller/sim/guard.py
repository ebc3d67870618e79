"""The simulator's HTTP edge: what every response carries, who may send requests, and the
limits uvicorn is started with (docs/security.md).

- Security headers on every page: a Content-Security-Policy that allows only the simulator's
  own scripts, styles, images and channel; no framing (``X-Frame-Options: DENY`` and
  ``frame-ancestors 'none'``); ``X-Content-Type-Options: nosniff``; no referrer. No ``server``
  header.
- The ``Host`` a request names must be one the simulator answers to when it listens on
  127.0.0.1 only (a site whose DNS points its name at 127.0.0.1 cannot reach the board). A
  browser's WebSocket or POST must come from the simulator's own pages (``Origin``).
- Slow headers: a connection that has not sent a whole request within ``HEADER_TIMEOUT``
  seconds is closed (uvicorn itself waits for ever). WebSocket messages are limited to
  ``WS_MAX_SIZE`` bytes before they are read into memory.
"""

from __future__ import annotations

from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from controller.i18n import _

from .access import host_ok, origin_ok

HEADER_TIMEOUT = 10.0
WS_MAX_SIZE = 16 * 1024
"""Bytes in one WebSocket message: the longest the page sends (a position) is under 3 KB."""
MAX_CONNECTIONS = 512

# Scripts only from the simulator's own files; style attributes (a colour set per LED) are
# allowed, style elements only from its own files: a style attribute cannot run anything.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would make Origin "null"
    (b"cross-origin-opener-policy", b"same-origin"),
]
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class Guard:
    """ASGI middleware: the headers above on every HTTP response, and requests from other
    hosts or other sites' pages refused before the app sees them."""

    def __init__(self, app: Any, allowed_hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host")
        refused = None
        if not host_ok(host, self.allowed_hosts):
            refused = _("this simulator does not answer to that host name")
        elif (scope["type"] == "websocket" or scope.get("method") in _UNSAFE) and not origin_ok(
            headers.get("origin"), host
        ):
            refused = _("requests from other sites' pages are refused")
        if refused is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": refused})
            else:
                await _plain(send, 403, refused)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _plain(send: Any, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS],
        }
    )
    await send({"type": "http.response.body", "body": body})


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for a whole request's headers, counted
    from the connection (or the previous response); a slow-loris connection is closed."""

    header_timeout = HEADER_TIMEOUT

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._upgraded = False
        self._arm()

    def _arm(self) -> None:
        self._armed_for = self.cycle  # a new request makes a new cycle
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _headers_too_slow(self) -> None:
        if self._upgraded or self.transport.is_closing():
            return
        if self.cycle is self._armed_for:  # no whole request since the deadline was set
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._header_timer.cancel()
        self._arm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._header_timer.cancel()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._header_timer.cancel()
        super().connection_lost(exc)


def server_config(app: Any, **overrides: Any) -> Any:
    """The uvicorn configuration the simulator runs with (``damath-board sim`` and tests)."""
    import uvicorn

    options: dict[str, Any] = {
        "log_level": "warning",
        "lifespan": "on",
        "http": GuardedH11Protocol,
        "ws_max_size": WS_MAX_SIZE,
        "server_header": False,
        "limit_concurrency": MAX_CONNECTIONS,
        "timeout_keep_alive": 5,
    }
    options.update(overrides)
    return uvicorn.Config(app, **options)
