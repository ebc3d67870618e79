"""The teacher's pages of the simulator: the class overview, the projector view of one board,
and each board's kept games with their downloads.

Reading only: none of these routes creates a board or changes a game. Each route is a small
function over the registry, mounted by ``server.create_app`` beside the board's own routes.

| route | role | what |
|---|---|---|
| ``/class`` | anyone | the overview page (every board, live) |
| ``/api/class`` | anyone | every open board's summary, and the boards kept in the state folder |
| ``/board/<id>/projector`` | anyone | one board, large, read only |
| ``/board/<id>/games.json`` | anyone | the board's kept games |
| ``/board/<id>/games/<name>/<file>`` | anyone | a kept game's scoresheet (html, csv) or record |
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from controller.board import BoardHost
from controller.i18n import _
from controller.session.archive import ArchiveError, kept_game, kept_games

from .engine import SimError, export_session
from .registry import Boards

STATIC = Path(__file__).resolve().parent / "static"
KEPT_FILES = {
    "scoresheet.html": "html",
    "scoresheet.csv": "csv",
    "game.pdn": "pdn",
    "position.json": "position",
}


def _games_folder(boards: Boards, board_id: str) -> Path | None:
    return BoardHost.of_board(boards.state_dir, Boards.check_id(board_id)).games_folder


def class_routes(boards: Boards) -> list[Route]:
    async def overview(request: Request) -> Response:
        return FileResponse(STATIC / "class.html")

    async def class_json(request: Request) -> Response:
        open_boards = [board.summary() for _, board in boards.items()]
        listed = {b["board"] for b in open_boards}
        kept = [i for i in boards.ids() if i not in listed]
        return JSONResponse(
            {"boards": open_boards, "kept": kept, "roster": list(boards.roster())},
            headers={"Cache-Control": "no-store"},
        )

    async def projector(request: Request) -> Response:
        try:
            Boards.check_id(request.path_params["board_id"])
        except SimError as exc:
            return JSONResponse({"error": str(exc)}, 404)
        return FileResponse(STATIC / "projector.html")

    async def games_json(request: Request) -> Response:
        board_id = request.path_params["board_id"]
        try:
            folder = _games_folder(boards, board_id)
        except SimError as exc:
            return JSONResponse({"error": str(exc)}, 404)
        games = [g.json() for g in kept_games(folder)] if folder is not None else []
        board = dict(boards.items()).get(board_id)
        ended = board.ended_game() if board is not None else None
        if ended is not None and folder is not None:  # kept already, listed from now on
            games.insert(0, ended)
        return JSONResponse(
            {"board": board_id, "games": games},
            headers={"Cache-Control": "no-store"},
        )

    async def kept_file(request: Request) -> Response:
        board_id = request.path_params["board_id"]
        name = request.path_params["name"]
        what = KEPT_FILES.get(request.path_params["file"])
        try:
            folder = _games_folder(boards, board_id)
            if folder is None or what is None:
                raise ArchiveError(_("there is no kept game {name!r}").format(name=name))
            session = kept_game(folder, name)
        except (SimError, ArchiveError) as exc:
            return JSONResponse({"error": str(exc)}, 404)
        text, media = export_session(session, what)
        headers = {}
        if what != "html":
            filename = f"damath-{board_id}-{name}-{request.path_params['file']}"
            headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return Response(text, media_type=media, headers=headers)

    return [
        Route("/class", overview),
        Route("/api/class", class_json),
        Route("/board/{board_id}/projector", projector),
        Route("/board/{board_id}/games.json", games_json),
        Route("/board/{board_id}/games/{name}/{file}", kept_file),
    ]
