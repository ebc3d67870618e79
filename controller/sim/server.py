"""The simulator's web app: the board pages, their live channel and the downloads.

Starlette and one WebSocket per open page. The page sends actions (a click, a drag, a button);
the server applies them to the board and pushes the new snapshot to every page showing that
board. A ticker lets time pass on every board (settle, error delay, the arbiter clocks) and
pushes a snapshot whenever what the page shows has changed. Everything a page sends is checked:
a bad message gets an error message back, never a traceback or a dead server.
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
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .engine import SimBoard, SimError, static_facts
from .pages import class_routes
from .registry import Boards

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 4096
log = logging.getLogger("damath-board.sim")


class Hub:
    """The open pages of every board, and the last snapshot each board sent them."""

    def __init__(self, boards: Boards) -> None:
        self.boards = boards
        self.pages: dict[str, set[WebSocket]] = {}
        self.sent: dict[str, str] = {}

    async def push(self, board_id: str, board: SimBoard, force: bool = False) -> None:
        pages = self.pages.get(board_id)
        if not pages:
            return
        text = json.dumps({"type": "state", "state": board.snapshot()}, ensure_ascii=False)
        if not force and self.sent.get(board_id) == text:
            return
        self.sent[board_id] = text
        for ws in list(pages):
            try:
                await ws.send_text(text)
            except Exception:  # a page closed mid-send: forget it
                pages.discard(ws)

    async def tick_all(self) -> None:
        for board_id, board in self.boards.items():
            board.tick()
            await self.push(board_id, board)


def _error_page(status: int, text: str) -> HTMLResponse:
    body = (
        "<!doctype html><html lang='en'><meta charset='utf-8'><title>Damath board</title>"
        "<link rel='stylesheet' href='/static/sim.css'><main class='notice'>"
        f"<h1>{status}</h1><p>{_escape(text)}</p><p><a href='/'>Open a board</a></p></main></html>"
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
) -> Starlette:
    """The app; tests pass their own ``clock`` (a value they advance) and tracker settings.
    With ``state_dir`` every board's game is journaled there and resumed after a restart.
    ``defaults`` (``sim --set``) start every new game; ``roster_file`` is the class list."""
    boards = Boards(clock, settings, max_boards, state_dir, defaults, roster_file)
    hub = Hub(boards)

    async def ticker() -> None:
        while True:
            try:
                await hub.tick_all()
            except Exception:  # a bug in one tick must not stop time for every board
                log.exception("tick failed")
            await asyncio.sleep(tick_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(ticker())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            boards.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def board_page(request: Request) -> Response:
        board_id = request.path_params["board_id"]
        try:
            boards.open(board_id)
        except SimError as exc:
            return _error_page(404, str(exc))
        return FileResponse(STATIC / "board.html")

    async def boards_json(request: Request) -> Response:
        return JSONResponse({"boards": boards.ids()})

    async def facts(request: Request) -> Response:
        return JSONResponse(static_facts())

    async def state(request: Request) -> Response:
        board = boards.get(request.path_params["board_id"])
        if board is None:
            return JSONResponse({"error": "no such board: open /board/<id> first"}, 404)
        return JSONResponse(board.snapshot())

    async def download(request: Request) -> Response:
        board_id = request.path_params["board_id"]
        board = boards.get(board_id)
        if board is None:
            return _error_page(404, f"there is no board {board_id!r}: open /board/<id> first")
        name = request.path_params["name"]
        what = {
            "scoresheet.csv": "csv",
            "scoresheet.html": "html",
            "game.pdn": "pdn",
            "position.json": "position",
        }.get(name)
        if what is None:
            return _error_page(
                404, f"no download {name!r}: scoresheet.csv, .html, game.pdn or position.json"
            )
        text, media = board.export(what)
        headers = {}
        if what != "html":
            filename = f"damath-{board_id}-{name}"
            headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return Response(text, media_type=media, headers=headers)

    async def oled(request: Request) -> Response:
        """The scoresheet display's page, drawn by the driver's own ``render_page``; never
        cached: the page asks again whenever the display's lines change."""
        board = boards.get(request.path_params["board_id"])
        if board is None:
            return _error_page(404, "there is no such board: open /board/<id> first")
        return Response(
            board.oled_png(), media_type="image/png", headers={"Cache-Control": "no-store"}
        )

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def channel(ws: WebSocket) -> None:
        board_id = ws.path_params["board_id"]
        await ws.accept()
        try:
            board = boards.open(board_id)
        except SimError as exc:
            await ws.send_json({"type": "error", "message": str(exc)})
            await ws.close(code=1008)
            return
        hub.pages.setdefault(board_id, set()).add(ws)
        try:
            await ws.send_text(
                json.dumps({"type": "hello", "facts": static_facts()}, ensure_ascii=False)
            )
            await hub.push(board_id, board, force=True)
            while True:
                text = await ws.receive_text()
                reply = _handle(board, text)
                await ws.send_json(reply)
                if reply["type"] == "done":
                    board.tick()
                    await hub.push(board_id, board, force=True)
        except WebSocketDisconnect:
            pass
        except Exception:  # the page went away in an unusual way; the server keeps going
            log.exception("board %s: channel closed", board_id)
        finally:
            hub.pages.get(board_id, set()).discard(ws)

    routes = [
        Route("/", index),
        Route("/board/{board_id}", board_page),
        Route("/board/{board_id}/state.json", state),
        Route("/board/{board_id}/oled.png", oled),
        Route("/favicon.ico", favicon),
        *class_routes(boards),
        Route("/board/{board_id}/{name}", download),
        Route("/api/boards", boards_json),
        Route("/api/facts", facts),
        WebSocketRoute("/ws/{board_id}", channel),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.boards = boards
    app.state.hub = hub
    return app


def _handle(board: SimBoard, text: str) -> dict[str, Any]:
    """Apply one message; the reply for the sender (an error or what was done)."""
    if len(text) > MAX_MESSAGE:
        return {"type": "error", "message": f"message too long (over {MAX_MESSAGE} characters)"}
    try:
        message = json.loads(text)
    except ValueError:
        return {"type": "error", "message": 'not a JSON message: expected {"type": ...}'}
    try:
        done = board.act(message)
    except SimError as exc:
        return {"type": "error", "message": str(exc)}
    except ValueError as exc:  # a value the rules or the tracker refused
        return {"type": "error", "message": str(exc)}
    except Exception as exc:
        log.exception("board %s: action %r failed", board.board_id, message)
        return {"type": "error", "message": f"the board could not do that ({type(exc).__name__})"}
    return {"type": "done", "message": done}
