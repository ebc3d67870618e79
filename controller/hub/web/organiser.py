"""What changes things, behind the organiser's token (``hub.toml``): assignments for now; the
tournament adds pairings and results here. ``Authorization: Bearer <organiser_token>``."""

from __future__ import annotations

import hmac
import json
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

if TYPE_CHECKING:
    from ..context import HubContext

MAX_BODY = 8192


def routes(ctx: HubContext) -> list[Route]:
    def allowed(request: Request) -> bool:
        given = request.headers.get("authorization", "")
        want = f"Bearer {ctx.settings.organiser_token}"
        return hmac.compare_digest(given.encode(), want.encode())

    async def assign(request: Request) -> JSONResponse:
        if not allowed(request):
            return JSONResponse({"error": "the organiser's token is needed"}, status_code=401)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": "too large"}, status_code=413)
        try:
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("board"), str):
                raise ValueError("expected an object with 'board'")
            payload = ctx.assign(data["board"], data)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(payload, status_code=201)

    return [Route("/api/assignments", assign, methods=["POST"])]
