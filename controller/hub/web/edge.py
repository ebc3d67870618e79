"""The hub's HTTP edge policy (docs/hall.md, "The security model"), served through the one
edge of the hub, the simulator and the federation (``controller.httpedge.asgi``): bodies
refused by their announced length before a byte is read (16 KiB; the desk's CSV import
256 KiB: 500 players in about 30 KiB), chunked bodies refused, what the app reads cut at the
limit (four 100 MB POSTs to the login page once took the hub to 1 GB); and on every response
a Content-Security-Policy that allows only the hub's own scripts, styles and connections (no
inline script on any page), no framing, ``nosniff``, a same-origin referrer, no server name.
"""

from __future__ import annotations

from controller.httpedge.asgi import Policy
from controller.httpedge.asgi import csp_with_styles as _with_styles

DEFAULT_LIMIT = 16 * 1024
LIMITS = {"/desk/import": 256 * 1024}
"""Bytes of body a route reads: forms and JSON are small; a roster pasted into the desk's
import is the largest."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
POLICY = Policy(CSP, DEFAULT_LIMIT, LIMITS)


def body_limit(path: str) -> int:
    return POLICY.limit(path)


def csp_with_styles(html: str) -> str:
    """The policy for a page that carries its own ``<style>`` (a printed scoresheet): those
    style sheets allowed by their hashes, nothing else added."""
    return _with_styles(CSP, html)
