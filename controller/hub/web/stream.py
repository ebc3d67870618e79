"""Live updates to the pages: server-sent events, pushed by the hub, never polled.

``GET /api/stream`` sends ``hello`` (every board's card and the hub's time), then a ``card``
whenever a board changes; ``?board=ID`` adds ``detail`` (that board's scoresheet and moves) for
the large view. The browser's EventSource reconnects by itself and gets a fresh ``hello``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from controller.link.protocol import BOARD_ID

if TYPE_CHECKING:
    from ..context import HubContext

KEEPALIVE = 15.0


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def routes(ctx: HubContext) -> list[Route]:
    live = ctx.live

    async def stream(request: Request) -> StreamingResponse | JSONResponse:
        board = request.query_params.get("board")
        if board is not None and not BOARD_ID.match(board):
            return JSONResponse({"error": "no such board"}, status_code=404)
        sub = live.subscribe(board)
        if board is not None:
            ctx.ingest.show(board)

        async def events() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n\n"
                yield _event("hello", {"now": time.time(), "cards": live.snapshot()})
                while True:
                    try:
                        await asyncio.wait_for(sub.wake.wait(), KEEPALIVE)
                    except TimeoutError:
                        yield ": keepalive\n\n"
                        continue
                    cards, details = sub.take()
                    now = time.time()
                    # everything of one wake-up in one write: at 10x pace a page gets dozens
                    # of cards a second, and a write (and a wake of the page) per card cost more
                    # than the cards
                    text = "".join(
                        [_event("card", {"now": now, "card": card}) for card in cards]
                        + [_event("detail", detail) for detail in details]
                    )
                    if text:
                        yield text
            finally:
                live.unsubscribe(sub)

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def cards(request: Request) -> JSONResponse:
        return JSONResponse({"now": time.time(), "cards": live.snapshot()})

    return [Route("/api/stream", stream), Route("/api/cards", cards)]
