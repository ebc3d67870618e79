"""The desk's login and logout: a login form with a token of its own (a cookie scoped to
``/desk``, so a form from another site cannot log someone in), the session cookie (HttpOnly,
SameSite=Strict, 14 hours at most) and its end."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from ..accounts import LIFETIME, AccountError, Session
from .desk_frame import COOKIE, LOGIN_COOKIE, Desk, read_form
from .page import e, hidden, layout


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def _next(target: str) -> str:
    """Where to go after the login: a desk page, never another site."""
    return target if target.startswith("/desk") else "/desk"


async def login_page(desk: Desk, request: Request) -> Response:
    token = secrets.token_urlsafe(16)
    message = request.query_params.get("err", "")
    body = (
        (f'<p class="err">{e(message)}</p>' if message else "")
        + '<form method="post" action="/desk/login" class="login">'
        + hidden("csrf", token)
        + hidden("next", _next(request.query_params.get("next", "/desk")))
        + '<label>Name <input name="name" autocomplete="username" required autofocus>'
        + '</label><label>Password <input name="password" type="password" '
        + 'autocomplete="current-password" required></label>'
        + '<button type="submit">Log in</button></form>'
    )
    resp = HTMLResponse(layout(f"{desk.ctx.store.event_name or 'Damath'}: the desk", body))
    resp.set_cookie(
        LOGIN_COOKIE, token, httponly=True, samesite="strict", secure=_secure(request), path="/desk"
    )
    return resp


async def login(desk: Desk, request: Request) -> Response:
    data = await read_form(request) or {}
    token = request.cookies.get(LOGIN_COOKIE, "")
    if not token or not hmac.compare_digest(data.get("csrf", "").encode(), token.encode()):
        return RedirectResponse("/desk/login?err=The+form+expired:+try+again", 303)
    try:
        address = request.client.host if request.client else ""
        session = await run_in_threadpool(
            desk.accounts.login, data.get("name", ""), data.get("password", ""), address
        )
    except AccountError as exc:
        return RedirectResponse("/desk/login?" + urlencode({"err": str(exc)}), 303)
    resp = RedirectResponse(_next(data.get("next", "/desk")), 303)
    resp.set_cookie(
        COOKIE,
        session,
        httponly=True,
        samesite="strict",
        secure=_secure(request),
        path="/",
        max_age=LIFETIME,
    )
    resp.delete_cookie(LOGIN_COOKIE, path="/desk")
    return resp


async def logout(desk: Desk, request: Request, s: Session) -> Response:
    await run_in_threadpool(desk.accounts.logout, request.cookies.get(COOKIE, ""))
    resp = RedirectResponse("/desk/login", 303)
    resp.delete_cookie(COOKIE, path="/")
    return resp
