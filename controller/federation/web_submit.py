"""A hub's submission of an event (``POST /api/submissions``): the credential first, then the
archive streamed to a temporary file and judged."""

from __future__ import annotations

import tempfile

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from controller.i18n import _

from . import bundle
from .service import unknown_credential
from .web_site import Site, error


async def submit(site: Site, request: Request) -> Response:
    """The event's token is checked from the headers, before a byte of the body is read
    (a stranger's upload is refused unread); the body then streams to a temporary file,
    never into memory (the edge closes an upload that stalls)."""
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    event = await run_in_threadpool(site.fed.event_for, token)
    if event is None:
        return error(401, unknown_credential(), close=True)
    with tempfile.TemporaryFile(prefix="damath-submission-") as spool:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > bundle.MAX_SUBMISSION:
                return error(413, _("the archive is too large"), close=True)
            await run_in_threadpool(spool.write, chunk)
        if not size:
            return error(400, _("no archive was sent"))
        verdict = await run_in_threadpool(site.fed.accept_file, event["id"], spool)
    return JSONResponse(verdict)
