"""The federation's web service: hubs submit events here (HTTPS, the event's token), the hub
imports players by ID from here, and anyone reads the rating list (page, CSV, JSON), a
player's history, the events with their verdicts, and the live wall of every hall.

Every body is refused by its announced length before it is read (a submission at most
``bundle.MAX_SUBMISSION``, anything else 16 KiB); every response carries a strict
Content-Security-Policy; errors are a sentence, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from controller.i18n import _

from . import bundle, lists, pages, registry
from .ids import check_id
from .service import Federation, unknown_credential
from .wall import Wall, encode

SMALL_BODY = 16 * 1024
STATIC = {"fed.css": "text/css", "wall.js": "text/javascript"}
HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; "
    "base-uri 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


class Edge:
    """Headers on every response; a body refused by its length before a byte is read."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope["headers"])
            limit = bundle.MAX_SUBMISSION if scope["path"] == "/api/submissions" else SMALL_BODY
            raw = headers.get(b"content-length")
            if raw is None or not raw.isdigit():
                await _send(send, 411, _("a request's body needs its length"))
                return
            if int(raw) > limit:
                await _send(
                    send, 413, _("at most {n} bytes may be sent here").format(n=limit), close=True
                )
                return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [
                    (k, v) for k, v in message["headers"] if k.lower() != b"server"
                ] + [(k.encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        await self.app(scope, receive, with_headers)


async def _send(send: Send, status: int, text: str, close: bool = False) -> None:
    body = json.dumps({"error": text}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    headers += [(k.encode(), v.encode()) for k, v in HEADERS.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def create_app(fed: Federation, wall: Wall | None = None) -> Starlette:
    name = fed.settings.name
    wall = wall if wall is not None else Wall()

    async def submit(request: Request) -> Response:
        """The event's token is checked from the headers, before a byte of the body is read
        (a stranger's upload is refused unread); the body then streams to a temporary file,
        never into memory (the edge closes an upload that stalls)."""
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        event = await run_in_threadpool(fed.event_for, token)
        if event is None:
            return _error(401, unknown_credential(), close=True)
        with tempfile.TemporaryFile(prefix="damath-submission-") as spool:
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > bundle.MAX_SUBMISSION:
                    return _error(413, _("the archive is too large"), close=True)
                await run_in_threadpool(spool.write, chunk)
            if not size:
                return _error(400, _("no archive was sent"))
            verdict = await run_in_threadpool(fed.accept_file, event["id"], spool)
        return JSONResponse(verdict)

    def filters(request: Request) -> lists.Filters:
        q = request.query_params
        return lists.Filters(
            pool=q.get("pool") or "all",
            region=q.get("region", "")[:40],
            school=q.get("school", "")[:60],
            age=q.get("age", ""),
            provisional=q.get("established") != "1",
        ).check()

    def ratings_page(request: Request) -> Response:
        try:
            f = filters(request)
        except ValueError as exc:
            return _error(400, str(exc))
        as_of, rows = fed.rating_list(f)
        return HTMLResponse(pages.rating_list(as_of, rows, f, name))

    def ratings_csv(request: Request) -> Response:
        try:
            f = filters(request)
        except ValueError as exc:
            return _error(400, str(exc))
        _as_of, rows = fed.rating_list(f)
        return Response(
            lists.to_csv(rows),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": 'attachment; filename="ratings.csv"'},
        )

    def ratings_json(request: Request) -> Response:
        try:
            f = filters(request)
        except ValueError as exc:
            return _error(400, str(exc))
        as_of, rows = fed.rating_list(f)
        return JSONResponse(
            {
                "v": 1,
                "as_of": as_of,
                "pool": f.pool,
                "region": f.region,
                "school": f.school,
                "age": f.age,
                "players": rows,
            }
        )

    def player(request: Request) -> Response:
        raw = request.path_params["fed_id"]
        as_json = raw.endswith(".json")
        try:
            fed_id = check_id(raw.removesuffix(".json"))
        except ValueError as exc:
            return _error(404, str(exc))
        p = fed.player(fed_id)
        if p is None:
            return _error(404, _("no player {id} in the registry").format(id=fed_id))
        if as_json:
            return JSONResponse(p)
        return HTMLResponse(pages.player_page(p, name))

    def api_player(request: Request) -> Response:
        """What a hub reads to import a player by ID (never the birth year)."""
        try:
            fed_id = check_id(request.path_params["fed_id"])
        except ValueError as exc:
            return _error(404, str(exc))
        p = fed.store.player(fed_id)
        if p is None:
            return _error(404, _("no player {id} in the registry").format(id=fed_id))
        return JSONResponse(registry.public(p))

    def events(request: Request) -> Response:
        rows = fed.store.events()
        if request.url.path.endswith(".json"):
            keep = ("id", "name", "date", "region", "state", "submission_id")
            return JSONResponse({"v": 1, "events": [{k: r[k] for k in keep} for r in rows]})
        return HTMLResponse(pages.events_page(rows, name))

    def event(request: Request) -> Response:
        raw = request.path_params["event_id"]
        as_json = raw.endswith(".json")
        ev = fed.store.event(raw.removesuffix(".json"))
        if ev is None:
            return _error(404, _("no such event"))
        subs = fed.store.submissions(ev["id"])
        results = fed.store.results(event_id=ev["id"])
        games = fed.store.games(ev["id"])
        if as_json:
            keep = ("id", "name", "date", "region", "state", "submission_id")
            return JSONResponse(
                {
                    "v": 1,
                    "event": {k: ev[k] for k in keep},
                    "submissions": subs,
                    "results": results,
                    "games": games,
                }
            )
        return HTMLResponse(pages.event_page(ev, subs, results, games, name))

    def game_pdn(request: Request) -> Response:
        raw = request.path_params["game"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
            return _error(404, _("no such game"))
        text = fed.store.game_pdn(int(raw))
        if text is None:
            return _error(404, _("no such game"))
        return PlainTextResponse(text, media_type="application/x-pdn; charset=utf-8")

    def wall_page(request: Request) -> Response:
        return HTMLResponse(pages.wall_page(name))

    def wall_json(request: Request) -> Response:
        broker = vars(wall.broker) if wall.broker is not None else None
        return JSONResponse(
            {
                "v": 1,
                "broker": broker,
                "received": wall.received,
                "stale": wall.stale,
                "cards": wall.snapshot(_top(request)),
            }
        )

    async def wall_stream(request: Request) -> Response:
        top = _top(request)
        sub = wall.subscribe(top)

        async def events() -> Any:
            try:
                yield encode("hello", {"cards": wall.snapshot(top)})
                while True:
                    try:
                        await asyncio.wait_for(sub.wake.wait(), 15)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    for card in sub.take():
                        yield encode("card", card)
            finally:
                wall.unsubscribe(sub)

        return StreamingResponse(
            events(), media_type="text/event-stream", headers={"cache-control": "no-store"}
        )

    def static(request: Request) -> Response:
        file = request.path_params["file"]
        if file not in STATIC:
            return _error(404, _("no such file"))
        data = resources.files("controller.federation").joinpath("static", file).read_bytes()
        return Response(data, media_type=STATIC[file])

    def home(request: Request) -> Response:
        return Response(status_code=303, headers={"location": "/ratings"})

    routes = [
        Route("/", home),
        Route("/api/submissions", submit, methods=["POST"]),
        Route("/api/players/{fed_id}", api_player),
        Route("/ratings", ratings_page),
        Route("/ratings.csv", ratings_csv),
        Route("/ratings.json", ratings_json),
        Route("/players/{fed_id}", player),
        Route("/events", events),
        Route("/events.json", events),
        Route("/events/{event_id}", event),
        Route("/games/{game}.pdn", game_pdn),
        Route("/wall", wall_page),
        Route("/api/wall", wall_json),
        Route("/api/wall/stream", wall_stream),
        Route("/static/{file}", static),
    ]
    return Starlette(routes=routes, middleware=[Middleware(Edge)])


def _top(request: Request) -> int:
    raw = request.query_params.get("top", "4")
    return min(int(raw), 1000) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 4


def _error(status: int, text: str, close: bool = False) -> JSONResponse:
    """An error in one sentence; ``close``: the connection too (a body left unread)."""
    headers = {"connection": "close"} if close else None
    return JSONResponse({"error": text}, status_code=status, headers=headers)
