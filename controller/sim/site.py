"""What every page of the simulator shares: its boards, their open pages, the arbiter's PIN and
each child's progress (``Site``), and the small pieces of its answers: an error page in the
page's language, a missing board's page with its create form, the arbiter's cookie, a small
form read within its limit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.websockets import WebSocket

from controller import i18n
from controller.i18n import _
from controller.rules.notation import NotationError, load_json

from .access import COOKIE, TOKEN_SECONDS, Access
from .engine import SimBoard, SimError
from .fanout import Hub
from .registry import Boards

MAX_FORM = 4096
Endpoint = Callable[[Request], Awaitable[Response]]


@dataclass
class Site:
    """The simulator's boards, their pages, its access and its progress store (or None)."""

    boards: Boards
    hub: Hub
    access: Access
    progress: Any = None
    """Each child's progress (``controller.progress.service.Progress``) with a state folder."""

    def role_of(self, conn: Request | WebSocket) -> str:
        return self.access.role(conn.cookies.get(COOKIE))

    def existing(self, request: Request) -> SimBoard | Response:
        """The board the address names, or the page that says it does not exist."""
        board_id = request.path_params["board_id"]
        try:
            board = self.boards.find(board_id)
        except SimError as exc:
            return error_page(404, str(exc))
        if board is None:
            return error_page(
                404,
                _("there is no board {board_id!r}: open /board/<id> first").format(
                    board_id=board_id
                ),
            )
        return board

    def failed(self, board_id: str, exc: Exception) -> Response:
        """A board's code failed while answering: it is marked broken, the page told why."""
        return error_page(500, self.hub.broke(board_id, exc))

    def route(self, fn: Callable[[Site, Request], Awaitable[Response]]) -> Endpoint:
        """A handler of this site as a Starlette endpoint."""

        async def endpoint(request: Request) -> Response:
            return await fn(self, request)

        return endpoint


def who(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "?"


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def error_page(status: int, text: str) -> HTMLResponse:
    title = escape(_("Damath board"))
    back = escape(_("Open a board"))
    body = (
        f"<!doctype html><html lang='{i18n.language()}'><meta charset='utf-8'>"
        f"<title>{title}</title>"
        "<link rel='stylesheet' href='/static/sim.css'><main class='notice'>"
        f"<h1>{status}</h1><p>{escape(text)}</p><p><a href='/'>{back}</a></p></main></html>"
    )
    return HTMLResponse(body, status_code=status)


def create_page(board_id: str, pin: bool, problem: str = "") -> HTMLResponse:
    """A missing board's page: it is created only by a deliberate act (this form)."""
    pin_label = escape(_("Arbiter's PIN"))
    field = (
        f"<p><label>{pin_label} <input name='pin' type='password' autocomplete='off' "
        "inputmode='numeric' required></label></p>"
        if pin
        else ""
    )
    note = f"<p class='error' role='alert'>{escape(problem)}</p>" if problem else ""
    board = escape(board_id)
    title = escape(_("Damath board"))
    heading = escape(_("There is no board {id} yet").format(id=board_id))
    why = escape(
        _(
            "Boards are created by the arbiter (the teacher), so that nobody fills the "
            "simulator with boards by opening addresses."
        )
    )
    create = escape(_("Create board {id}").format(id=board_id))
    everything = escape(_("All boards"))
    body = (
        f"<!doctype html><html lang='{i18n.language()}'><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{title}</title><link rel='stylesheet' href='/static/sim.css'>"
        f"<main class='notice'><h1>{heading}</h1>{note}<p>{why}</p>"
        f"<form method='post' action='/board/{board}/create'>{field}"
        f"<button type='submit'>{create}</button></form>"
        f"<p><a href='/'>{everything}</a></p></main></html>"
    )
    return HTMLResponse(body, status_code=404)


def set_token(response: Response, token: str) -> None:
    """The arbiter's cookie (HttpOnly, SameSite=Strict) for as long as the token lasts."""
    response.set_cookie(
        COOKIE, token, max_age=TOKEN_SECONDS, httponly=True, samesite="strict", path="/"
    )


async def small_form(request: Request) -> dict[str, Any]:
    """A small form or JSON body (at most ``MAX_FORM`` bytes, never read further)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return {}
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            data = load_json(body)
        except NotationError:
            return {}
        return data if isinstance(data, dict) else {}
    try:
        pairs = parse_qs(body.decode("utf-8"), max_num_fields=8)
    except (UnicodeDecodeError, ValueError):
        return {}
    return {k: v[0] for k, v in pairs.items()}
