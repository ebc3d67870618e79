"""The live wall of every hall: its page, its JSON and its stream of cards (server-sent
events, a keep-alive every 15 s)."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from . import pages
from .wall import encode
from .web_site import Site, top


def wall_page(site: Site, request: Request) -> Response:
    broker = vars(site.wall.broker) if site.wall.broker is not None else None
    return HTMLResponse(pages.wall_page(site.name, broker))


def wall_json(site: Site, request: Request) -> Response:
    broker = vars(site.wall.broker) if site.wall.broker is not None else None
    return JSONResponse(
        {
            "v": 1,
            "broker": broker,
            "received": site.wall.received,
            "stale": site.wall.stale,
            "cards": site.wall.snapshot(top(request)),
        }
    )


async def wall_stream(site: Site, request: Request) -> Response:
    count = top(request)
    sub = site.wall.subscribe(count)

    async def events() -> Any:
        try:
            yield encode("hello", {"cards": site.wall.snapshot(count)})
            while True:
                try:
                    await asyncio.wait_for(sub.wake.wait(), 15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                for card in sub.take():
                    yield encode("card", card)
        finally:
            site.wall.unsubscribe(sub)

    return StreamingResponse(
        events(), media_type="text/event-stream", headers={"cache-control": "no-store"}
    )
