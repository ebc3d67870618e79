"""Feeds for broadcasters and programs: every game of a round as PDN (live: always the games as
they stand), and JSON per round and per game. Plain GETs of stable URLs (docs/mqtt.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from controller.link.protocol import BOARD_ID, GAME_ID

from .. import sheets
from .page import MAX_NUMBER

if TYPE_CHECKING:
    from ..context import HubContext

PDN = "application/x-pdn; charset=utf-8"
NO_CACHE = {"Cache-Control": "no-cache"}


def routes(ctx: HubContext) -> list[Route]:
    store, feeds = ctx.store, ctx.feeds

    def _game_row(request: Request) -> dict[str, Any] | None:
        board, game = request.path_params["board"], request.path_params["game"]
        if not BOARD_ID.match(board) or not GAME_ID.match(game):
            return None
        return store.game(board, game)

    def index(request: Request) -> JSONResponse:
        rounds = [
            {
                **r,
                "json": f"/feeds/rounds/{r['number']}.json",
                "pdn": f"/feeds/rounds/{r['number']}.pdn",
            }
            for r in store.rounds()
        ]
        games = [
            {
                "board": g["board_id"],
                "game": g["game_id"],
                "round": g["round"],
                "json": f"/feeds/games/{g['board_id']}/{g['game_id']}.json",
                "pdn": f"/feeds/games/{g['board_id']}/{g['game_id']}.pdn",
            }
            for g in store.games()
        ]
        return JSONResponse(
            {"v": 1, "event": store.event_name, "rounds": rounds, "games": games},
            headers=NO_CACHE,
        )

    def round_json(request: Request) -> JSONResponse:
        number = request.path_params["number"]
        if number > MAX_NUMBER:  # no such round (and SQLite holds 64-bit numbers only)
            return JSONResponse({"error": "no such round"}, status_code=404)
        with ctx.event_tournament() as t:  # a result recorded at the desk is the feed's too
            feed = sheets.round_feed_json(feeds, store, t, number)
        return JSONResponse(feed, headers=NO_CACHE)

    def round_pdn(request: Request) -> Response:
        number = request.path_params["number"]
        if number > MAX_NUMBER:
            return PlainTextResponse("no such round\n", status_code=404)
        with ctx.event_tournament() as t:  # a result recorded at the desk is the feed's too
            text = sheets.round_feed_pdn(feeds, store, t, number)
        return PlainTextResponse(text, media_type=PDN, headers=NO_CACHE)

    def game_json(request: Request) -> JSONResponse:
        row = _game_row(request)
        if row is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return JSONResponse(feeds.game_json(row), headers=NO_CACHE)

    def game_pdn(request: Request) -> Response:
        row = _game_row(request)
        if row is None:
            return PlainTextResponse("no such game\n", status_code=404)
        return PlainTextResponse(feeds.game_pdn(row), media_type=PDN, headers=NO_CACHE)

    return [
        Route("/feeds", index),
        Route("/feeds/rounds/{number:int}.json", round_json),
        Route("/feeds/rounds/{number:int}.pdn", round_pdn),
        Route("/feeds/games/{board}/{game}.json", game_json),
        Route("/feeds/games/{board}/{game}.pdn", game_pdn),
    ]
