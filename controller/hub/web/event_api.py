"""The tournament's actions for programs (the organiser's command line, scripts), behind the
organiser's token: publish a round to the boards, start it, move a game to another board, accept the
boards' results, read a round as the desk shows it. The desk's pages call the same functions.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from controller.tournament.model import TournamentError

from .. import rounds
from ..signing import record_signed
from .page import MAX_NUMBER

if TYPE_CHECKING:
    from ..context import HubContext

MAX_BODY = 8192
Handler = Callable[[Request], Awaitable[JSONResponse]]


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_NUMBER:
        raise TournamentError(f"'{name}' must be a whole number from 1 to {MAX_NUMBER}")
    return value


def _text(data: dict[str, Any], name: str, default: str = "") -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise TournamentError(f"'{name}' must be text")
    return value[:500]


def _division(data: dict[str, Any]) -> str | None:
    value = data.get("division")
    if value is not None and not isinstance(value, str):
        raise TournamentError("'division' must be text")
    return value


def routes(ctx: HubContext) -> list[Route]:
    def allowed(request: Request) -> bool:
        given = request.headers.get("authorization", "")
        want = f"Bearer {ctx.settings.organiser_token}"
        return hmac.compare_digest(given.encode(), want.encode())

    def action(fn: Callable[[dict[str, Any]], Any]) -> Handler:
        async def endpoint(request: Request) -> JSONResponse:
            if not allowed(request):
                return JSONResponse({"error": "the organiser's token is needed"}, status_code=401)
            body = await request.body()
            if len(body) > MAX_BODY:
                return JSONResponse({"error": "too large"}, status_code=413)
            try:
                data = json.loads(body or b"{}")
                if not isinstance(data, dict):
                    raise TournamentError("expected a JSON object")
                return JSONResponse(await run_in_threadpool(fn, data))
            except (ValueError, TournamentError) as exc:  # JSON errors are ValueErrors
                return JSONResponse({"error": str(exc)}, status_code=400)

        return endpoint

    def publish(data: dict[str, Any]) -> dict[str, Any]:
        with ctx.tournament() as t:
            plan = rounds.publish_round(
                ctx, t, _division(data), _int(data, "round"), _text(data, "by", "organiser")
            )
            return {"sent": [{"table": p.table, "board": b} for p, b in plan]}

    def start(data: dict[str, Any]) -> dict[str, Any]:
        with ctx.tournament() as t:
            told = rounds.start_round(
                ctx, t, _division(data), _int(data, "round"), _text(data, "by", "arbiter")
            )
            return {"started": [{"table": p.table, "board": b} for p, b in told]}

    def move(data: dict[str, Any]) -> dict[str, Any]:
        with ctx.tournament() as t:
            p = t.pairing(_int(data, "round"), _int(data, "table"), _division(data))
            ident = rounds.move_pairing(
                ctx,
                t,
                p.id,
                _text(data, "board"),
                _text(data, "by", "arbiter"),
                _text(data, "reason"),
            )
            return {"assignment": ident}

    def accept(data: dict[str, Any]) -> dict[str, Any]:
        with ctx.tournament() as t:
            division, rnd = _division(data), _int(data, "round")
            by = _text(data, "by", "arbiter")
            if "table" in data:
                p = t.pairing(rnd, _int(data, "table"), division)
                rounds.accept(ctx.store, t, p.id, by)
                return {"accepted": 1}
            return {"accepted": rounds.accept_round(ctx.store, t, division, rnd, by)}

    def view(data: dict[str, Any]) -> dict[str, Any]:
        with ctx.tournament() as t:
            record_signed(ctx.store, t, _division(data), _int(data, "round"))
            rows = rounds.round_view(
                ctx.store, t, _division(data), _int(data, "round"), ctx.live.cards
            )
            return {"round": data["round"], "tables": rows}

    return [
        Route("/api/event/publish", action(publish), methods=["POST"]),
        Route("/api/event/start", action(start), methods=["POST"]),
        Route("/api/event/move", action(move), methods=["POST"]),
        Route("/api/event/accept", action(accept), methods=["POST"]),
        Route("/api/event/round", action(view), methods=["POST"]),
    ]
