"""The simulator's pages of a board and its downloads, and the arbiter's PIN (unlock, lock,
who am I): each a plain function of the site and the request (``Site.route`` makes it an
endpoint). Opening an address never creates a board: the arbiter's form does."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response

from controller import i18n
from controller.i18n import _

from .access import ARBITER, COOKIE, AccessError
from .engine import SimError, static_facts
from .site import Site, create_page, error_page, set_token, small_form, who

STATIC = Path(__file__).resolve().parent / "static"
DOWNLOADS = {
    "scoresheet.csv": "csv",
    "scoresheet.html": "html",
    "game.pdn": "pdn",
    "position.json": "position",
    "record.json": "json",
    "scoresheet.txt": "txt",
}
"""A board's downloads: the file name on the page -> the game's file (``BoardGame.files``)."""


async def index(site: Site, request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def board_page(site: Site, request: Request) -> Response:
    board_id = request.path_params["board_id"]
    try:
        board = site.boards.find(board_id)
    except SimError as exc:
        return error_page(404, str(exc))
    if board is None:  # opening an address never creates a board
        return create_page(board_id, pin=site.role_of(request) != ARBITER)
    return FileResponse(STATIC / "board.html")


async def open_board(site: Site, request: Request) -> Response:
    """The index's form without its script (GET /board/?id=NAME): to that board's page."""
    board_id = request.query_params.get("id", "").strip()
    try:
        site.boards.check_id(board_id)
    except SimError as exc:
        return error_page(400, str(exc))
    return RedirectResponse(f"/board/{board_id}", status_code=303)


async def create_board(site: Site, request: Request) -> Response:
    """The arbiter's deliberate act: the form on a missing board's page (or a script)."""
    board_id = request.path_params["board_id"]
    try:
        site.boards.check_id(board_id)
    except SimError as exc:
        return error_page(404, str(exc))
    fields = await small_form(request)
    new_token = None
    if site.access.role(request.cookies.get(COOKIE)) != ARBITER:
        try:
            new_token = await site.access.unlock_off_loop(fields.get("pin"), who(request))
        except AccessError as exc:
            page = create_page(board_id, pin=True, problem=str(exc))
            page.status_code = 403
            return page
    try:
        with i18n.board():  # the board speaks its own language, not the creating page's
            site.boards.create(board_id)
    except SimError as exc:
        return error_page(409, str(exc))
    response = RedirectResponse(f"/board/{board_id}", status_code=303)
    if new_token is not None:
        set_token(response, new_token)
    return response


async def unlock(site: Site, request: Request) -> Response:
    fields = await small_form(request)
    try:
        token = await site.access.unlock_off_loop(fields.get("pin"), who(request))
    except AccessError as exc:
        return JSONResponse({"role": site.role_of(request), "error": str(exc)}, 403)
    response = JSONResponse({"role": ARBITER, "pin": not site.access.open})
    set_token(response, token)
    return response


async def lock(site: Site, request: Request) -> Response:
    site.access.lock(request.cookies.get(COOKIE))
    response = JSONResponse({"role": site.access.role(None), "pin": not site.access.open})
    response.delete_cookie(COOKIE, path="/")
    return response


async def whoami(site: Site, request: Request) -> Response:
    return JSONResponse({"role": site.role_of(request), "pin": not site.access.open})


async def boards_json(site: Site, request: Request) -> Response:
    return JSONResponse({"boards": site.boards.ids()})


async def facts(site: Site, request: Request) -> Response:
    return JSONResponse(static_facts())


async def state(site: Site, request: Request) -> Response:
    board = site.existing(request)
    if isinstance(board, Response):
        return JSONResponse({"error": _("no such board: open /board/<id> first")}, 404)
    try:
        return JSONResponse(board.snapshot())
    except Exception as exc:
        return site.failed(board.board_id, exc)


async def download(site: Site, request: Request) -> Response:
    board = site.existing(request)
    if isinstance(board, Response):
        return board
    board_id = board.board_id
    name = request.path_params["name"]
    what = DOWNLOADS.get(name)
    if what is None:
        return error_page(
            404,
            _("no download {name!r}: scoresheet.csv, .html, game.pdn or position.json").format(
                name=name[:40]
            ),
        )
    try:
        text, media = board.export(what)
    except SimError as exc:
        return error_page(404, str(exc))
    except Exception as exc:
        return site.failed(board_id, exc)
    headers = {}
    if what != "html":
        filename = f"damath-{board_id}-{name}"
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return Response(text, media_type=media, headers=headers)


async def oled(site: Site, request: Request) -> Response:
    """The scoresheet display's page, drawn by the driver's own ``render_page``; never
    cached: the page asks again whenever the display's lines change."""
    board = site.existing(request)
    if isinstance(board, Response):
        return board
    try:
        png = board.oled_png()
    except Exception as exc:
        return site.failed(board.board_id, exc)
    return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})


async def old_mathchess(site: Site, request: Request) -> Response:
    """A Mathematical Chess board was once at /mathchess/<id>: it is an ordinary board now,
    playing the game its new-game dialog chose."""
    board_id = request.path_params["board_id"]
    try:
        site.boards.check_id(board_id)
    except SimError as exc:
        return error_page(404, str(exc))
    return RedirectResponse(f"/board/{board_id}", status_code=301)


async def favicon(site: Site, request: Request) -> Response:
    return Response(status_code=204)
