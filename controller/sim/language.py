"""Each page's language: a cookie its language switch sets, read for every HTTP request, and the
catalogue the page's scripts translate their words with.

The board speaks its own language (``sim --lang``): what it says on its live channel (messages,
the display, the moves) is in that language for every page. A page's own words (its buttons,
labels and hints) and what it asks for over HTTP (the scoresheet downloads, the legend, the
teacher's pages' data) follow the page's switch, remembered in the browser by the cookie.
"""

from __future__ import annotations

import json
from http.cookies import SimpleCookie
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from controller import i18n

COOKIE = "damath_lang"


def chosen(cookie_header: str) -> str | None:
    """The language a request's cookies choose, or None (the board's)."""
    try:
        jar = SimpleCookie(cookie_header)
    except Exception:  # a malformed cookie header: the board's language
        return None
    morsel = jar.get(COOKIE)
    return i18n.normalise(morsel.value) if morsel is not None else None


class PageLanguage:
    """ASGI middleware: an HTTP request runs in its page's language (websockets do not: the
    live channel speaks the board's)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = b"; ".join(v for k, v in scope.get("headers", ()) if k == b"cookie")
        with i18n.use(chosen(cookies.decode("latin-1"))):
            await self.app(scope, receive, send)


def catalogue_script() -> str:
    """The script that gives a page its language's words (``static/i18n.js`` uses them)."""
    lang = i18n.language()
    data = {
        "lang": lang,
        "board": i18n.board_language(),
        "cookie": COOKIE,
        "languages": i18n.LANGUAGES,
        "messages": i18n.catalogue(lang),
    }
    return "window.DAMATH_I18N = " + json.dumps(data, ensure_ascii=False) + ";\n"


def language_routes() -> list[Route]:
    async def catalogue(request: Request) -> Response:
        return Response(
            catalogue_script(),
            media_type="text/javascript; charset=utf-8",
            headers={"Cache-Control": "no-store"},
        )

    return [Route("/i18n/catalogue.js", catalogue)]
