"""The edge's ASGI side, one for the hub, the simulator and the federation: what every
response carries and what a request's body may be (docs/security.md).

- **Bodies are refused by their announced length, before a byte of them is read.** A request
  whose ``Content-Length`` is over its route's limit (``Policy.limit``) is answered 413 and its
  connection closed; a body without a length (``Transfer-Encoding: chunked``, or for a server
  that asks for it any POST, PUT or PATCH without ``Content-Length``) is answered 411. What the
  app then reads is cut at the limit too, so no route can be made to hold more.
- **Security headers on every response**: the server's Content-Security-Policy (each server
  names its own: the simulator's pages set colours in style attributes, the hub's images may
  be data: URLs), no framing (``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``),
  ``X-Content-Type-Options: nosniff``, a same-origin referrer (no-referrer would make a
  browser's ``Origin`` "null"), and never a ``server`` header.

Each server's ``Policy`` says its limits, its policy and the words of its refusals (plain
text for pages, JSON for an API). Connections, deadlines and TLS are ``guard``'s.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

STYLE = re.compile(r"<style>(.*?)</style>", re.S)
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def _too_large(limit: int) -> str:
    return f"the body is too large (at most {limit} bytes here)"


def _no_length() -> str:
    return "send the body with its length (Content-Length)"


@dataclass(frozen=True)
class Policy:
    """What one server's responses carry and what its requests may send."""

    csp: str
    default_limit: int = 16 * 1024
    limits: Mapping[str, int] = field(default_factory=dict)
    """Bytes of body a route (by its path) may send beyond ``default_limit``."""
    length_required: bool = False
    """A POST, PUT or PATCH without ``Content-Length`` is refused (an API's clients send it)."""
    json_errors: bool = False
    """Refusals as ``{"error": ...}`` (an API) instead of a line of text (pages)."""
    extra: tuple[tuple[bytes, bytes], ...] = ()
    too_large: Callable[[int], str] = _too_large
    no_length: Callable[[], str] = _no_length

    def limit(self, path: str) -> int:
        return self.limits.get(path, self.default_limit)

    def headers(self) -> list[tuple[bytes, bytes]]:
        return [
            (b"content-security-policy", self.csp.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
            *self.extra,
        ]


def csp_with_styles(csp: str, html: str) -> str:
    """The policy for a page that carries its own ``<style>`` (a printed scoresheet): those
    style sheets allowed by their hashes, nothing else added."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m.encode()).digest()).decode() + "'"
        for m in STYLE.findall(html)
    )
    return csp.replace("style-src 'self'", f"style-src 'self' {hashes}".rstrip(), 1)


class SecurityEdge:
    """ASGI middleware: a server's ``Policy`` on every HTTP request and response (WebSockets
    and the lifespan pass through)."""

    def __init__(self, app: Any, policy: Policy) -> None:
        self.app = app
        self.policy = policy
        self.added = policy.headers()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.policy
        limit = policy.limit(scope["path"])
        length: bytes | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding" and value.strip().lower() != b"identity":
                chunked = True
        wants_length = policy.length_required and scope.get("method") in BODY_METHODS
        if chunked or (wants_length and not (length or b"").isdigit()):
            await refuse(send, policy, 411, policy.no_length())
            return
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > limit):
            await refuse(send, policy, 413, policy.too_large(limit))
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
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"server"]
                names = {k.lower() for k, _ in kept}
                extra = [(k, v) for k, v in self.added if k not in names]
                message = {**message, "headers": [*kept, *extra]}
            await send(message)

        await self.app(scope, limited_receive, send_with_headers)


async def refuse(send: Any, policy: Policy, status: int, text: str) -> None:
    """Answer without reading the body; the connection is closed after it (the rest of the
    body is never read)."""
    if policy.json_errors:
        body, kind = json.dumps({"error": text}).encode(), b"application/json"
    else:
        body, kind = (text + "\n").encode(), b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *policy.headers(),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
