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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller import i18n
from controller.i18n import _
from controller.rules.notation import NotationError, load_json

from .access import (
    ARBITER,
    COOKIE,
    TOKEN_SECONDS,
    Access,
    AccessError,
    action_of,
    allowed,
    refusal,
)
from .clients import Client
from .engine import SimBoard, SimError, static_facts
from .guard import Guard
from .language import COOKIE as LANGUAGE_COOKIE
from .language import PageLanguage, language_routes
from .pages import class_routes
from .progress import GameEnds, progress_routes
from .puzzles import puzzle_routes
from .registry import Boards

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 4096
DOWNLOADS = {
    "scoresheet.csv": "csv",
    "scoresheet.html": "html",
    "game.pdn": "pdn",
    "position.json": "position",
    "record.json": "json",
    "scoresheet.txt": "txt",
}
"""A board's downloads: the file name on the page -> the game's file (``BoardGame.files``)."""
log = logging.getLogger("damath-board.sim")


class Hub:
    """The open pages of every board, and the last snapshot each board sent them."""

    def __init__(self, boards: Boards, links: Any = None) -> None:
        self.boards = boards
        self.links = links
        """``sim --hub``: the boards' links to a tournament hub (``link.board.BoardLinks``)."""
        self.pages: dict[str, set[Client]] = {}
        self.sent: dict[str, str] = {}

    def join(self, board_id: str, client: Client) -> None:
        self.pages.setdefault(board_id, set()).add(client)

    def leave(self, board_id: str, client: Client) -> None:
        pages = self.pages.get(board_id)
        if pages is not None:
            pages.discard(client)
            if not pages:
                del self.pages[board_id]
                self.sent.pop(board_id, None)

    async def push(self, board_id: str, board: SimBoard, force: bool = False) -> None:
        """Queue the board's state for its pages (never waits on a page: ``Client.offer``)."""
        pages = self.pages.get(board_id)
        if not pages:
            return
        text = state_text(board)
        if not force and self.sent.get(board_id) == text:
            return
        self.sent[board_id] = text
        for client in list(pages):
            if not client.offer(text, "state"):
                pages.discard(client)

    def tell(self, board_id: str, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, ensure_ascii=False)
        for client in list(self.pages.get(board_id, ())):
            client.offer(text)

    def broke(self, board_id: str, exc: BaseException) -> str:
        """A board's code failed: mark it broken, tell its pages; the others go on."""
        message = self.boards.mark_broken(board_id, exc)
        self.tell(board_id, {"type": "error", "message": message, "broken": True})
        return message

    async def tick_all(self) -> None:
        for board_id, board in self.boards.items():
            if board_id in self.boards.broken:
                continue
            try:
                board.tick()
                linked = board.game.linked() if self.links is not None else None
                if linked is not None:
                    shown = self.links.after_step(board_id, linked, board.clock())
                    if shown:
                        board.notice = board.assignment = shown
                elif self.links is not None:
                    self.links.watch(board_id, board.clock(), board.game.kind.name)
                if self.links is not None:  # a table of another game: on its display and page
                    refused = self.links.refused(board_id)
                    if refused and board.loop.link_line != refused:
                        board.notice = refused
                    board.loop.link_line = refused
                await self.push(board_id, board)
            except Exception as exc:  # this board only: every other board keeps its time
                self.broke(board_id, exc)
            await asyncio.sleep(0)  # pages and other boards get their turn between boards


def state_text(board: SimBoard) -> str:
    with i18n.board():  # every page of the board is sent the same words, in its language
        return json.dumps({"type": "state", "state": board.snapshot()}, ensure_ascii=False)


def _error_page(status: int, text: str) -> HTMLResponse:
    title = _escape(_("Damath board"))
    back = _escape(_("Open a board"))
    body = (
        f"<!doctype html><html lang='{i18n.language()}'><meta charset='utf-8'>"
        f"<title>{title}</title>"
        "<link rel='stylesheet' href='/static/sim.css'><main class='notice'>"
        f"<h1>{status}</h1><p>{_escape(text)}</p><p><a href='/'>{back}</a></p></main></html>"
    )
    return HTMLResponse(body, status_code=status)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


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
    access = access if access is not None else Access()
    progress = _progress(state_dir, boards.roster_file)
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

    def role_of(conn: Request | WebSocket) -> str:
        return access.role(conn.cookies.get(COOKIE))

    def who(conn: Request | WebSocket) -> str:
        return conn.client.host if conn.client else "?"

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def board_page(request: Request) -> Response:
        board_id = request.path_params["board_id"]
        try:
            board = boards.find(board_id)
        except SimError as exc:
            return _error_page(404, str(exc))
        if board is None:  # opening an address never creates a board
            return _create_page(board_id, pin=role_of(request) != ARBITER)
        return FileResponse(STATIC / "board.html")

    async def open_board(request: Request) -> Response:
        """The index's form without its script (GET /board/?id=NAME): to that board's page."""
        board_id = request.query_params.get("id", "").strip()
        try:
            boards.check_id(board_id)
        except SimError as exc:
            return _error_page(400, str(exc))
        return RedirectResponse(f"/board/{board_id}", status_code=303)

    async def create_board(request: Request) -> Response:
        """The arbiter's deliberate act: the form on a missing board's page (or a script)."""
        board_id = request.path_params["board_id"]
        try:
            boards.check_id(board_id)
        except SimError as exc:
            return _error_page(404, str(exc))
        fields = await _small_form(request)
        token = request.cookies.get(COOKIE)
        new_token = None
        if access.role(token) != ARBITER:
            try:
                new_token = access.unlock(fields.get("pin"), who(request))
            except AccessError as exc:
                page = _create_page(board_id, pin=True, problem=str(exc))
                page.status_code = 403
                return page
        try:
            with i18n.board():  # the board speaks its own language, not the creating page's
                boards.create(board_id)
        except SimError as exc:
            return _error_page(409, str(exc))
        response = RedirectResponse(f"/board/{board_id}", status_code=303)
        if new_token is not None:
            _set_token(response, new_token)
        return response

    async def unlock(request: Request) -> Response:
        fields = await _small_form(request)
        try:
            token = access.unlock(fields.get("pin"), who(request))
        except AccessError as exc:
            return JSONResponse({"role": role_of(request), "error": str(exc)}, 403)
        response = JSONResponse({"role": ARBITER, "pin": not access.open})
        _set_token(response, token)
        return response

    async def lock(request: Request) -> Response:
        access.lock(request.cookies.get(COOKIE))
        response = JSONResponse({"role": access.role(None), "pin": not access.open})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def whoami(request: Request) -> Response:
        return JSONResponse({"role": role_of(request), "pin": not access.open})

    async def boards_json(request: Request) -> Response:
        return JSONResponse({"boards": boards.ids()})

    async def facts(request: Request) -> Response:
        return JSONResponse(static_facts())

    def existing(request: Request) -> SimBoard | Response:
        board_id = request.path_params["board_id"]
        try:
            board = boards.find(board_id)
        except SimError as exc:
            return _error_page(404, str(exc))
        if board is None:
            return _error_page(
                404,
                _("there is no board {board_id!r}: open /board/<id> first").format(
                    board_id=board_id
                ),
            )
        return board

    def failed(board_id: str, exc: Exception) -> Response:
        return _error_page(500, hub.broke(board_id, exc))

    async def state(request: Request) -> Response:
        board = existing(request)
        if isinstance(board, Response):
            return JSONResponse({"error": _("no such board: open /board/<id> first")}, 404)
        try:
            return JSONResponse(board.snapshot())
        except Exception as exc:
            return failed(board.board_id, exc)

    async def download(request: Request) -> Response:
        board = existing(request)
        if isinstance(board, Response):
            return board
        board_id = board.board_id
        name = request.path_params["name"]
        what = DOWNLOADS.get(name)
        if what is None:
            return _error_page(
                404,
                _("no download {name!r}: scoresheet.csv, .html, game.pdn or position.json").format(
                    name=name[:40]
                ),
            )
        try:
            text, media = board.export(what)
        except SimError as exc:
            return _error_page(404, str(exc))
        except Exception as exc:
            return failed(board_id, exc)
        headers = {}
        if what != "html":
            filename = f"damath-{board_id}-{name}"
            headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return Response(text, media_type=media, headers=headers)

    async def oled(request: Request) -> Response:
        """The scoresheet display's page, drawn by the driver's own ``render_page``; never
        cached: the page asks again whenever the display's lines change."""
        board = existing(request)
        if isinstance(board, Response):
            return board
        try:
            png = board.oled_png()
        except Exception as exc:
            return failed(board.board_id, exc)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def old_mathchess(request: Request) -> Response:
        """A Mathematical Chess board was once at /mathchess/<id>: it is an ordinary board now,
        playing the game its new-game dialog chose."""
        board_id = request.path_params["board_id"]
        try:
            boards.check_id(board_id)
        except SimError as exc:
            return _error_page(404, str(exc))
        return RedirectResponse(f"/board/{board_id}", status_code=301)

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def channel(ws: WebSocket) -> None:
        board_id = ws.path_params["board_id"]
        await ws.accept()
        try:
            board = boards.find(board_id)
            missing = _(
                "there is no board {board_id!r} yet: the arbiter creates it on its page"
            ).format(board_id=board_id)
        except SimError as exc:
            board, missing = None, str(exc)
        if board is None:
            with contextlib.suppress(Exception):
                text = json.dumps({"type": "error", "message": missing, "need": "create"})
                await asyncio.wait_for(ws.send_text(text), 1.0)
                await asyncio.wait_for(ws.close(code=1008), 1.0)
            return
        page_language = i18n.normalise(ws.cookies.get(LANGUAGE_COOKIE))
        """The page's own language (its menu's cookie): what the page sent is answered in it
        when the answer is the page's (a refusal that asks for the PIN, a message it got
        wrong); what the board says stays in the board's language."""
        client = Client(ws, name=f"{board_id} ({who(ws)})")
        client.start()
        hub.join(board_id, client)
        try:
            client.offer(json.dumps({"type": "hello", "facts": static_facts()}, ensure_ascii=False))
            if board_id in boards.broken:
                client.offer(json.dumps({"type": "error", "message": boards.broken[board_id],
                                         "broken": True}))  # fmt: skip
            else:
                try:
                    client.offer(state_text(board), "state")
                except Exception as exc:
                    hub.broke(board_id, exc)
            while not client.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                why = client.incoming()
                if why is not None:  # over the rate limit: said once a second, else ignored
                    if why:
                        client.offer(json.dumps({"type": "error", "message": why}))
                    await asyncio.sleep(0)
                    continue
                sent: str | None = message.get("text")
                if sent is None:
                    with i18n.use(page_language):
                        reply = _error(_("binary messages are not understood: send JSON text"))
                else:
                    reply = _handle(
                        board, sent, role_of(ws), boards.broken.get(board_id), page_language
                    )
                client.offer(json.dumps(reply, ensure_ascii=False))
                if reply["type"] == "done":
                    try:
                        if reply.get("mended"):
                            boards.mended(board_id)
                        board.tick()
                        await hub.push(board_id, board, force=True)
                    except Exception as exc:
                        hub.broke(board_id, exc)
                await asyncio.sleep(0)  # one page's messages never starve the others
        except WebSocketDisconnect:
            pass
        except Exception:  # the page went away in an unusual way; the server keeps going
            log.exception("board %s: channel closed", board_id)
        finally:
            hub.leave(board_id, client)
            await client.stop()

    routes = [
        Route("/", index),
        Route("/board/", open_board),
        Route("/board/{board_id}", board_page),
        Route("/board/{board_id}/create", create_board, methods=["POST"]),
        Route("/board/{board_id}/state.json", state),
        Route("/board/{board_id}/oled.png", oled),
        Route("/favicon.ico", favicon),
        *class_routes(boards),
        *puzzle_routes(boards),
        *progress_routes(progress, role_of),
        Route("/mathchess/{board_id}", old_mathchess),
        Route("/board/{board_id}/{name}", download),
        Route("/api/boards", boards_json),
        Route("/api/facts", facts),
        Route("/api/access", whoami),
        Route("/api/unlock", unlock, methods=["POST"]),
        Route("/api/lock", lock, methods=["POST"]),
        WebSocketRoute("/ws/{board_id}", channel),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    routes[:0] = language_routes()
    middleware = [Middleware(Guard, allowed_hosts=allowed_hosts), Middleware(PageLanguage)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.boards = boards
    app.state.hub = hub
    app.state.access = access
    app.state.progress = progress
    return app


def _progress(state_dir: Path | None, roster_file: Path | None) -> Any:
    """Each child's progress (``controller.progress``), kept in the state folder; None without."""
    if state_dir is None:
        return None
    from controller.progress.service import Progress

    return Progress(state_dir, roster_file)


def _set_token(response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE, token, max_age=TOKEN_SECONDS, httponly=True, samesite="strict", path="/"
    )


MAX_FORM = 4096


async def _small_form(request: Request) -> dict[str, Any]:
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
    from urllib.parse import parse_qs

    try:
        pairs = parse_qs(body.decode("utf-8"), max_num_fields=8)
    except (UnicodeDecodeError, ValueError):
        return {}
    return {k: v[0] for k, v in pairs.items()}


def _create_page(board_id: str, pin: bool, problem: str = "") -> HTMLResponse:
    """A missing board's page: it is created only by a deliberate act (this form)."""
    pin_label = _escape(_("Arbiter's PIN"))
    field = (
        f"<p><label>{pin_label} <input name='pin' type='password' autocomplete='off' "
        "inputmode='numeric' required></label></p>"
        if pin
        else ""
    )
    note = f"<p class='error' role='alert'>{_escape(problem)}</p>" if problem else ""
    board = _escape(board_id)
    title = _escape(_("Damath board"))
    heading = _escape(_("There is no board {id} yet").format(id=board_id))
    why = _escape(
        _(
            "Boards are created by the arbiter (the teacher), so that nobody fills the "
            "simulator with boards by opening addresses."
        )
    )
    create = _escape(_("Create board {id}").format(id=board_id))
    everything = _escape(_("All boards"))
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


def _error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}


def _read(board: SimBoard, text: str, role: str) -> dict[str, Any] | tuple[dict[str, Any], str]:
    """A message the board should act on, with its action; or the reply to one it cannot act
    on (too long, not JSON, not an object, not for the page's role)."""
    if len(text) > MAX_MESSAGE:
        return _error(
            _("message too long (over {MAX_MESSAGE} characters)").format(MAX_MESSAGE=MAX_MESSAGE)
        )
    try:
        message = load_json(text)
    except NotationError as exc:
        return _error(_('not a JSON message ({exc}): expected {{"type": ...}}').format(exc=exc))
    if not isinstance(message, dict):
        return _error(_("a message must be a JSON object with a 'type'"))
    action = action_of(message, board.game.status(), board.menu_open())
    if not allowed(role, action):
        return {**_error(refusal(action)), "need": ARBITER, "retry": message}
    return message, action


def _handle(
    board: SimBoard,
    text: str,
    role: str = ARBITER,
    broken: str | None = None,
    page_language: str | None = None,
) -> dict[str, Any]:
    """Apply one message; the reply for the sender (an error or what was done). A message the
    page got wrong, and a refusal that asks for the arbiter's PIN, are answered in the page's
    language; what the board does and says, in the board's."""
    with i18n.use(page_language):
        read = _read(board, text, role)
    if isinstance(read, dict):
        return read
    message, action = read
    if broken is not None and action not in ("new_game", "new_game.position"):
        return {**_error(broken), "broken": True}
    try:
        done = board.act(message)
    except SimError as exc:
        return _error(str(exc))
    except ValueError as exc:  # a value the rules or the tracker refused
        return _error(str(exc)[:300])
    except Exception as exc:
        log.exception("board %s: action %r failed", board.board_id, str(message)[:200])
        return _error(_("the board could not do that ({error})").format(error=type(exc).__name__))
    return {"type": "done", "message": done, **({"mended": True} if broken else {})}
