"""The simulator's HTTP edge: what every response carries, who may send requests, and the
limits uvicorn is started with (docs/security.md).

- Security headers on every page (``POLICY``, through the one edge, ``controller.httpedge``):
  a Content-Security-Policy that allows only the simulator's own scripts, styles, images and
  channel; no framing (``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``);
  ``X-Content-Type-Options: nosniff``; a same-origin referrer. No ``server`` header. A body
  over 16 KiB refused by its length before it is read.
- The ``Host`` a request names must be one the simulator answers to when it listens on
  127.0.0.1 only (a site whose DNS points its name at 127.0.0.1 cannot reach the board). A
  browser's WebSocket or POST must come from the simulator's own pages (``Origin``).
- Slow headers: a connection that has not sent a whole request within ``HEADER_TIMEOUT``
  seconds is closed (uvicorn itself waits for ever). WebSocket messages are limited to
  ``WS_MAX_SIZE`` bytes before they are read into memory.
- Connections per address: at most ``MAX_PER_ADDRESS`` open at once from one address (its
  pages' WebSockets included); one more is answered 503 and closed at once. Half-sent requests
  from one machine used to fill the server's ``MAX_CONNECTIONS`` and turn every other
  machine's requests away for as long as it kept reopening them.
"""

from __future__ import annotations

from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from controller.httpedge.asgi import Policy
from controller.i18n import _

from .access import host_ok, origin_ok

HEADER_TIMEOUT = 10.0
WS_MAX_SIZE = 16 * 1024
"""Bytes in one WebSocket message: the longest the page sends (a position) is under 3 KB."""
MAX_CONNECTIONS = 512
MAX_PER_ADDRESS = 256
"""Connections one address may hold: half the server's, so one machine (a teacher's browser
with a page per board, 200 pages in tests/sim) never holds them all."""
TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 39\r\nconnection: close\r\n\r\ntoo many connections from your address\n"
)

# Scripts only from the simulator's own files; style attributes (a colour set per LED) are
# allowed, style elements only from its own files: a style attribute cannot run anything.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
POLICY = Policy(CSP, extra=((b"cross-origin-opener-policy", b"same-origin"),))
"""Served through the one edge of the hub, the simulator and the federation
(``controller.httpedge.asgi``): its headers, and bodies at most 16 KiB (the pages' forms and
JSON are a few hundred bytes; each route reads at most its own, smaller, limit)."""
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class Guard:
    """ASGI middleware inside the edge (which adds the headers to everything, this refusal
    too): requests from other hosts or other sites' pages refused before the app sees them."""

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
        await self.app(scope, receive, send)


async def _plain(send: Any, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": body})


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for a whole request's headers, counted
    from the connection (or the previous response); a slow-loris connection is closed."""

    header_timeout = HEADER_TIMEOUT
    per_address = MAX_PER_ADDRESS

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._upgraded = False
        self._address: str | None = None
        self._header_timer: Any = None
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else ""
        held: dict[str, int] = getattr(self.server_state, "per_address", None) or {}
        self.server_state.per_address = held  # type: ignore[attr-defined]
        if held.get(address, 0) >= self.per_address:
            transport.write(TOO_MANY)
            transport.close()
            return
        held[address] = held.get(address, 0) + 1
        self._address = address
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
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._arm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        if self._header_timer is not None:
            self._header_timer.cancel()
        super().handle_websocket_upgrade(event)
        ws = self.transport.get_protocol()
        if ws is not self and self._address is not None:
            # the WebSocket's protocol owns the connection now: it gives the address back
            address, self._address = self._address, None
            lost = ws.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                self._release(address)
                lost(exc)

            ws.connection_lost = connection_lost  # type: ignore[method-assign]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        if self._address is not None:
            self._release(self._address)
            self._address = None
        super().connection_lost(exc)

    def _release(self, address: str) -> None:
        held: dict[str, int] = self.server_state.per_address  # type: ignore[attr-defined]
        held[address] = held.get(address, 1) - 1
        if held[address] <= 0:
            del held[address]


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
