"""The simulator's web app: the board pages, their live channel and the downloads.

Starlette and one WebSocket per open page. The page sends actions (a click, a drag, a button);
the server applies them to the board and pushes the new snapshot to every page showing that
board. A ticker lets time pass on every board (settle, error delay, the arbiter clocks) and
pushes a snapshot whenever what the page shows has changed. Everything a page sends is checked:
a bad message gets an error message back, never a traceback or a dead server.

Hostile pages and failures (docs/security.md, docs/failures.md): every request passes
``guard.Guard`` (security headers, Host and Origin checks); every message is classified by
``access.action_of`` and refused unless the page's role may do it (``access.ACTIONS``); every
page is served through its own ``clients.Client`` (a bounded queue, a send timeout, a rate
limit), so no page can make the server wait; a board whose code fails is marked broken and
skipped, so one board can never stop another's clock.

This module assembles the app (its routes, its middleware, its ticker); the handlers are
module functions of ``board_routes`` (the board's pages, its downloads, the PIN) and
``channel`` (the live channel), over the ``Site`` they share (``site``); the open pages and
the ticker's pushes are ``fanout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from controller.httpedge.asgi import SecurityEdge

from . import board_routes as pages
from .access import Access
from .channel import channel
from .child_access import ChildSessions
from .fanout import Hub
from .guard import POLICY, Guard
from .language import PageLanguage, language_routes
from .pages import class_routes
from .progress import GameEnds, progress_routes
from .puzzles import puzzle_routes
from .registry import Boards
from .site import Site

log = logging.getLogger("damath-board.sim")


def create_app(
    clock: Callable[[], float] = time.monotonic,
    settings: dict[str, Any] | None = None,
    tick_seconds: float = 0.05,
    max_boards: int = 64,
    state_dir: Path | None = None,
    defaults: dict[str, Any] | None = None,
    roster_file: Path | None = None,
    access: Access | None = None,
    allowed_hosts: frozenset[str] | None = None,
    links: Any = None,
) -> Starlette:
    """The app; tests pass their own ``clock`` (a value they advance) and tracker settings.
    With ``state_dir`` every board's game is journaled there and resumed after a restart.
    ``defaults`` (``sim --set``) start every new game; ``roster_file`` is the class list.
    ``access`` holds the arbiter's PIN (none: everyone is the arbiter); ``allowed_hosts`` the
    host names it answers to (``damath-board sim`` on 127.0.0.1 gives the loopback names).
    ``links`` (``sim --hub``): each of its boards is opened at start and publishes to the hub."""
    boards = Boards(clock, settings, max_boards, state_dir, defaults, roster_file)
    hub = Hub(boards, links)
    progress = _progress(state_dir, boards.roster_file)
    site = Site(boards, hub, access if access is not None else Access(), progress)
    children = ChildSessions()
    ends = GameEnds(progress) if progress is not None else None

    async def ticker() -> None:
        while True:
            try:
                await hub.tick_all()
                if ends is not None:  # a game that ended is counted now, not at the next scan
                    ends.check(boards.items())
            except Exception:  # a bug in one tick must not stop time for every board
                log.exception("tick failed")
            await asyncio.sleep(tick_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if links is not None:
            for board_id in links.ids():
                boards.create(board_id)
            links.start()
        task = asyncio.create_task(ticker())
        if progress is not None:
            progress.start()
        try:
            yield
        finally:
            if progress is not None:
                await asyncio.to_thread(progress.stop)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            boards.close()
            if links is not None:
                await asyncio.to_thread(links.stop, 2.0)

    on = site.route

    async def live_channel(ws: WebSocket) -> None:
        await channel(site, ws)

    routes = [
        Route("/", on(pages.index)),
        Route("/board/", on(pages.open_board)),
        Route("/board/{board_id}", on(pages.board_page)),
        Route("/board/{board_id}/create", on(pages.create_board), methods=["POST"]),
        Route("/board/{board_id}/state.json", on(pages.state)),
        Route("/board/{board_id}/oled.png", on(pages.oled)),
        Route("/favicon.ico", on(pages.favicon)),
        *class_routes(boards),
        *puzzle_routes(boards, children, site.role_of),
        *progress_routes(progress, site.role_of, children),
        Route("/mathchess/{board_id}", on(pages.old_mathchess)),
        Route("/board/{board_id}/{name}", on(pages.download)),
        Route("/api/boards", on(pages.boards_json)),
        Route("/api/facts", on(pages.facts)),
        Route("/api/access", on(pages.whoami)),
        Route("/api/unlock", on(pages.unlock), methods=["POST"]),
        Route("/api/lock", on(pages.lock), methods=["POST"]),
        WebSocketRoute("/ws/{board_id}", live_channel),
        Mount("/static", StaticFiles(directory=pages.STATIC), name="static"),
    ]
    routes[:0] = language_routes()
    middleware = [
        Middleware(SecurityEdge, policy=POLICY),
        Middleware(Guard, allowed_hosts=allowed_hosts),
        Middleware(PageLanguage),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.boards = boards
    app.state.hub = hub
    app.state.access = site.access
    app.state.progress = progress
    return app


def _progress(state_dir: Path | None, roster_file: Path | None) -> Any:
    """Each child's progress (``controller.progress``), kept in the state folder; None without."""
    if state_dir is None:
        return None
    from controller.progress.service import Progress

    return Progress(state_dir, roster_file)
