"""The hub's HTTP edge: what every request may send and what every response carries.

One ASGI middleware around every route (docs/hall.md, "The security model"):

- **Bodies are refused by their announced length, before a byte of them is read.** A request
  whose ``Content-Length`` is over its route's limit (``body_limit``: 16 KiB, the desk's CSV
  import 256 KiB) is answered 413 and its connection closed; a body without a length
  (``Transfer-Encoding: chunked``) is answered 411. What the app then reads is cut at the
  limit too, so no route can be made to hold more (four 100 MB POSTs to the login page took the
  hub to 1 GB when the form reader read first and measured after).
- **Security headers on every response**: a Content-Security-Policy that allows only the hub's
  own scripts, styles and connections (no inline script on any page), no framing
  (``X-Frame-Options: DENY``, ``frame-ancestors 'none'``), ``X-Content-Type-Options:
  nosniff``, a same-origin referrer. uvicorn's ``server`` header is off (``controller/cli/hub.py``).
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

DEFAULT_LIMIT = 16 * 1024
LIMITS = {"/desk/import": 256 * 1024}
"""Bytes of body a route reads: forms and JSON are small; a roster pasted into the desk's
import is the largest (500 players in about 30 KiB)."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def body_limit(path: str) -> int:
    return LIMITS.get(path, DEFAULT_LIMIT)


def csp_with_styles(html: str) -> str:
    """The policy for a page that carries its own ``<style>`` (a printed scoresheet): those
    style sheets allowed by their hashes, nothing else added."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m.encode()).digest()).decode() + "'"
        for m in STYLE.findall(html)
    )
    return CSP.replace("style-src 'self'", f"style-src 'self' {hashes}".rstrip())


class Edge:
    """ASGI middleware: the body limits and the headers above."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["path"])
        length = b""
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding" and value.strip().lower() != b"identity":
                chunked = True
        if chunked:
            await refuse(send, 411, "send the body with its length (Content-Length)")
            return
        if length and (not length.isdigit() or len(length) > 12 or int(length) > limit):
            await refuse(send, 413, f"the body is too large (at most {limit} bytes here)")
            return
        left = limit

        async def limited_receive() -> dict[str, Any]:
            nonlocal left
            message: dict[str, Any] = await receive()
            if message["type"] == "http.request":
                left -= len(message.get("body", b""))
                if left < 0:  # more than announced: h11 does not let it through, but still
                    return {"type": "http.disconnect"}
            return message

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, limited_receive, send_with_headers)


async def refuse(send: Any, status: int, text: str) -> None:
    """Answer without reading the body; the connection is closed after it (the rest of the
    body is never read)."""
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
