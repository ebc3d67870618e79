"""The spectator pages: the wall (every board live, for a projector) and one board large with
its scoresheet. Plain HTML, CSS and a little JavaScript from ``hub/static``; the pages draw
what the stream pushes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from controller.rules.damath_data import OPERATORS

if TYPE_CHECKING:
    from ..context import HubContext

STATIC = Path(__file__).resolve().parent.parent / "static"


def routes(ctx: HubContext) -> list[BaseRoute]:
    def wall(request: Request) -> FileResponse:
        return FileResponse(STATIC / "wall.html")

    def board(request: Request) -> FileResponse:
        return FileResponse(STATIC / "board.html")

    def tournament_facts() -> tuple[str, list[dict[str, object]] | None]:
        """The tournament's name and the tables of its current rounds (None: no tournament,
        the wall shows every board)."""
        from controller.tournament.model import TournamentError

        from ..rounds import current_tables

        try:
            with ctx.tournament() as t:
                return t.event.name, current_tables(t)
        except TournamentError:
            return ctx.store.event_name, None

    async def facts(request: Request) -> JSONResponse:
        name, tables = await run_in_threadpool(tournament_facts)
        return JSONResponse(
            {
                "event": name,
                "tables": tables,
                "operators": [{"square": list(sq), "op": op} for sq, op in OPERATORS.items()],
            }
        )

    return [
        Route("/", wall),
        Route("/board/{board}", board),
        Route("/api/facts", facts),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
