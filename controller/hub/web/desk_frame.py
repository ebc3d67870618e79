"""The desk's frame: who is logged in, the CSRF check on every POST, the answer to an action
(a redirect back with its message), a page's errors in the desk's words, the menu.

Every desk handler is a plain module function (``desk_login``, ``desk_pages``,
``desk_players``, ``desk_actions``): an action takes the hub, the open tournament, the form and
the person and returns its sentence, a page builder returns its HTML; ``Desk`` wraps them into
Starlette endpoints, so each can be called and tested without HTTP.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from controller.tournament.model import TournamentError
from controller.tournament.tournament import Tournament

from ..accounts import Accounts, Session
from ..context import HubContext
from .edge import body_limit
from .page import BadRequest, e, form, layout

COOKIE = "damath_desk"
LOGIN_COOKIE = "damath_login"
Handler = Callable[[Request], Awaitable[Response]]
Page = Callable[["Desk", Request, Session], Awaitable[Response]]
Builder = Callable[["HubContext", Request, Session], str]
Action = Callable[["HubContext", Tournament, dict[str, str], Session], str]


def nav(s: Session) -> list[tuple[str, str]]:
    """The desk's menu: the organiser's pages only for the organiser."""
    items = [("/desk", "Round"), ("/desk/standings", "Standings"), ("/desk/log", "Log")]
    if s.organiser:
        items += [
            ("/desk/players", "Players"),
            ("/desk/seats", "Boards"),
            ("/desk/archive.zip", "Archive"),
        ]
    return [*items, ("/event", "Wall")]


def logout_form(s: Session) -> str:
    return form("/desk/logout", s.csrf, "", "Log out", "logout")


def by(s: Session) -> str:
    """Who did it, as the tournament's log names a person."""
    return f"{s.role} {s.name}"


def desk_page(title: str, body: str, s: Session) -> str:
    return layout(title, body, nav=nav(s), user=s.name)


def error_page(exc: TournamentError | BadRequest, s: Session | None = None) -> HTMLResponse:
    """A refused page: 400 for a malformed request, 200 with the fix for the tournament's
    refusal (the desk's own words), the menu kept when someone is logged in."""
    said = exc.at_desk() if isinstance(exc, TournamentError) else str(exc)
    body = f'<p class="err">{e(said)}</p>'
    status = 400 if isinstance(exc, BadRequest) else 200
    if s is None:
        return HTMLResponse(layout("The desk", body), status)
    return HTMLResponse(desk_page("The desk", body, s), status)


def not_found(exc: TournamentError | BadRequest) -> HTMLResponse:
    """A document that cannot be made (a sheet, a PDN, a list): 400 or 404, no menu."""
    status = 400 if isinstance(exc, BadRequest) else 404
    return HTMLResponse(layout("The desk", f'<p class="err">{e(exc)}</p>'), status)


async def read_form(request: Request) -> dict[str, str] | None:
    """The form's fields; None when it is over the route's limit (the edge refuses such a
    body by its length before it is read: this is the second line)."""
    body = await request.body()
    if len(body) > body_limit(request.url.path):
        return None
    parsed = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in parsed.items()}


def flash(request: Request) -> str:
    """The message an action left in the redirect's query (``msg`` or ``err``)."""
    out = ""
    if request.query_params.get("msg"):
        out += f'<p class="msg" role="status">{e(request.query_params["msg"])}</p>'
    if request.query_params.get("err"):
        out += f'<p class="err" role="alert">{e(request.query_params["err"])}</p>'
    return out


def back_with(back: str, key: str, message: str) -> RedirectResponse:
    """Back to a desk page (never elsewhere) with the action's sentence."""
    back = back if back.startswith("/desk") else "/desk"
    sep = "&" if "?" in back else "?"
    return RedirectResponse(back + sep + urlencode({key: message}), 303)


@dataclass(frozen=True)
class Desk:
    """The running hub and its accounts, and the wrappers that make handlers endpoints."""

    ctx: HubContext
    accounts: Accounts

    def open(self, fn: Callable[[Desk, Request], Awaitable[Response]]) -> Handler:
        """A page anybody may open (the login's)."""

        async def endpoint(request: Request) -> Response:
            return await fn(self, request)

        return endpoint

    def login_required(self, fn: Page, organiser: bool = False, post: bool = False) -> Handler:
        """The page for a logged-in person (the organiser only, if asked); a POST's form read
        within its limit and its CSRF token checked, then left in ``request.state.form``."""

        async def endpoint(request: Request) -> Response:
            s = await run_in_threadpool(self.accounts.session, request.cookies.get(COOKIE))
            if s is None:
                if post:
                    return HTMLResponse("Log in first.", status_code=401)
                return RedirectResponse("/desk/login?" + urlencode({"next": request.url.path}), 303)
            if organiser and not s.organiser:
                return HTMLResponse("Only the organiser may do this.", status_code=403)
            if post:
                data = await read_form(request)
                if data is None:
                    return HTMLResponse("The form is too large.", status_code=413)
                if not hmac.compare_digest(data.get("csrf", "").encode(), s.csrf.encode()):
                    return HTMLResponse(
                        "This form is out of date (or came from another site): reload the page.",
                        status_code=403,
                    )
                request.state.form = data
            return await fn(self, request, s)

        return endpoint

    def act(self, fn: Action) -> Page:
        """An action run on the open tournament in a worker thread; its sentence, or the
        refusal's fix, carried back to the page the form named."""

        async def endpoint(desk: Desk, request: Request, s: Session) -> Response:
            data: dict[str, str] = request.state.form

            def run() -> str:
                with self.ctx.tournament() as t:
                    return fn(self.ctx, t, data, s)

            try:
                message, key = await run_in_threadpool(run), "msg"
            except TournamentError as exc:  # the fix named in the desk's own words
                message, key = exc.at_desk(), "err"
            except ValueError as exc:
                message, key = str(exc), "err"
            return back_with(data.get("back", "/desk"), key, message)

        return endpoint

    def post(self, fn: Action, organiser: bool = False) -> Handler:
        return self.login_required(self.act(fn), organiser, post=True)

    def page(self, builder: Builder, organiser: bool = False) -> Handler:
        """A page built in a worker thread; a refusal shown in the desk's words."""

        async def endpoint(desk: Desk, request: Request, s: Session) -> Response:
            try:
                return HTMLResponse(await run_in_threadpool(builder, self.ctx, request, s))
            except (TournamentError, BadRequest) as exc:
                return error_page(exc, s)

        return self.login_required(endpoint, organiser)
