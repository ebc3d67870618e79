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
- Connections through the one edge of the three servers (``controller.httpedge``, ``LIMITS``):
  a connection that has not sent a whole request within ``HEADER_TIMEOUT`` seconds is closed
  (uvicorn itself waits for ever), a body that stalls too; WebSocket messages are limited to
  ``WS_MAX_SIZE`` bytes before they are read into memory; at most ``MAX_PER_ADDRESS``
  connections open at once from one address (its pages' WebSockets included): one more is
  answered 503 and closed at once. Half-sent requests from one machine used to fill the
  server's ``MAX_CONNECTIONS`` and turn every other machine's requests away for as long as it
  kept reopening them.
"""

from __future__ import annotations

from typing import Any

from controller.httpedge import EdgeLimits, edge_config
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


LIMITS = EdgeLimits(
    header_seconds=HEADER_TIMEOUT,
    max_connections=MAX_CONNECTIONS,
    per_address=MAX_PER_ADDRESS,
    share=2,
)
"""The simulator's connections through the one edge (``controller.httpedge``): a request's
headers within 10 s, a body at its pace, 512 connections and half of them from one address."""


def server_config(app: Any, limits: EdgeLimits = LIMITS, whole_process: bool = False) -> Any:
    """The uvicorn configuration the simulator runs with (``damath-board sim``, in its own
    process: ``whole_process``; and tests, in theirs): the edge's protocol with the
    simulator's limits, its pages' WebSockets, no server header."""
    return edge_config(
        app, "127.0.0.1", 0, limits=limits, whole_process=whole_process,
        websockets=WS_MAX_SIZE, lifespan="on",
    )  # fmt: skip
