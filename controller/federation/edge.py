"""The federation's HTTP edge policy, served through the one edge of the hub, the simulator and
the federation (``controller.httpedge.asgi``): a submission at most ``bundle.MAX_SUBMISSION``
bytes, any other body ``SMALL_BODY``, refused by its announced length before a byte is read (a
POST without a length too: a hub always sends one); refusals as JSON, in the reader's words;
a strict Content-Security-Policy on every response, no framing, no server name."""

from __future__ import annotations

from controller.httpedge.asgi import Policy
from controller.i18n import _

from . import bundle

SMALL_BODY = 16 * 1024
SUBMISSIONS = "/api/submissions"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)


def _too_large(limit: int) -> str:
    return _("at most {n} bytes may be sent here").format(n=limit)


def _no_length() -> str:
    return _("a request's body needs its length")


POLICY = Policy(
    CSP,
    SMALL_BODY,
    {SUBMISSIONS: bundle.MAX_SUBMISSION},
    length_required=True,
    json_errors=True,
    too_large=_too_large,
    no_length=_no_length,
)
