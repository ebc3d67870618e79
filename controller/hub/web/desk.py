"""The arbiter's desk: the round's tables (pairing, board, live state, the board's result to
accept), corrections and games recorded by hand, a game moved to another board, standings, the
log; and for the organiser: pairing and publishing rounds, the boards' seats, the archive.

Behind a login (``accounts``): a session cookie (HttpOnly, SameSite=Strict) and a CSRF token in
every form, checked on every POST (``desk_frame``). Pages are plain HTML; a little JavaScript
refreshes the live cells. This module is the desk's table of routes only: each handler is a
module function of ``desk_login``, ``desk_pages``, ``desk_players``, ``desk_actions`` or
``desk_table``.
"""

from __future__ import annotations

from starlette.routing import Route

from ..accounts import Accounts
from ..context import HubContext
from . import desk_actions as act
from . import desk_login, desk_pages, desk_players, desk_table
from .desk_frame import Desk

POST = ["POST"]


def routes(ctx: HubContext) -> list[Route]:
    desk = Desk(ctx, Accounts(ctx.folder))
    who, page, post = desk.login_required, desk.page, desk.post
    return [
        Route("/desk/login", desk.open(desk_login.login_page), methods=["GET"]),
        Route("/desk/login", desk.open(desk_login.login), methods=POST),
        Route("/desk/logout", who(desk_login.logout, post=True), methods=POST),
        Route("/desk", who(desk_pages.round_get)),
        Route("/desk/round.json", who(desk_pages.round_json)),
        Route("/desk/standings", page(desk_pages.standings_page)),
        Route("/desk/log", page(desk_pages.log_page)),
        Route("/desk/seats", page(desk_pages.seats_page, organiser=True)),
        Route("/desk/players", page(desk_players.players_page, organiser=True)),
        Route("/desk/create", who(desk_players.create, True, post=True), methods=POST),
        Route("/desk/player", post(desk_players.add_player, True), methods=POST),
        Route("/desk/division", post(desk_players.add_division, True), methods=POST),
        Route("/desk/player-edit", post(desk_players.edit_player, True), methods=POST),
        Route("/desk/import", post(desk_players.import_players, True), methods=POST),
        Route("/desk/withdraw", post(desk_players.withdraw, True), methods=POST),
        Route("/desk/archive.zip", who(desk_pages.archive, organiser=True)),
        Route("/desk/accept", post(act.accept), methods=POST),
        Route("/desk/uphold", post(act.uphold), methods=POST),
        Route("/desk/start", post(act.start), methods=POST),
        Route("/desk/accept-all", post(act.accept_all), methods=POST),
        Route("/desk/result", post(act.result), methods=POST),
        Route("/desk/move", post(act.move), methods=POST),
        Route("/desk/pair", post(act.pair, True), methods=POST),
        Route("/desk/publish", post(act.publish, True), methods=POST),
        Route("/desk/seat", post(act.seat, True), methods=POST),
        Route("/desk/table", page(desk_pages.table_page)),
        Route("/desk/sheet", who(desk_pages.sheet)),
        Route("/desk/pdn", who(desk_pages.pdn)),
        Route("/desk/print", who(desk_pages.printed)),
        Route("/desk/pause", post(desk_table.pause), methods=POST),
    ]
