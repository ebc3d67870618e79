"""The teacher's progress pages: the class, each child, the report, the class list, privacy.

Every route here is the teacher's: it answers only a page unlocked with the PIN (the arbiter's
role, ``access``), as New game and the players' names do; a locked page is told to ask for the
PIN (403, ``need``). Without a state folder nothing is kept, and the pages say so.

| route | what |
|---|---|
| ``/class/progress`` | the page (the class; ``?child=NAME``: one child, printable as the report) |
| ``/api/progress`` | the class's figures (JSON) |
| ``/api/progress/child?name=`` | one child's figures, week by week |
| ``/api/progress/export?name=`` | one child's data, one JSON file (a download) |
| ``POST /api/progress/delete`` | ``{"name", "confirm": NAME}``: delete one child's data |
| ``POST /api/roster`` | ``{"action": add/rename/remove, "name", "new"}``: the class list |
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from controller.i18n import _
from controller.progress.roster import RosterError, clean_name
from controller.progress.service import PrivacyError, Progress

from .access import ARBITER
from .child_access import ChildSessions

STATIC = Path(__file__).resolve().parent / "static"
NO_STORE = {"Cache-Control": "no-store"}
MAX_BODY = 2048
log = logging.getLogger("damath-board.progress")


class GameEnds:
    """Tells the progress indexer when a board's game ends, so the game is counted within the
    second rather than at the next scan (the scan, every few seconds, stays as the backstop:
    a game ended while the simulator was stopped, a file copied in). Called after each tick;
    it costs one ``finished()`` per board."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self._seen: dict[str, Hashable | None] = {}

    def check(self, boards: Iterable[tuple[str, Any]]) -> bool:
        """Whether a game ended since the last check (the indexer was then woken)."""
        ended = False
        for board_id, board in boards:
            try:
                now = board.game.finished()
            except Exception:  # a board that cannot say is the scan's, never the ticker's end
                log.debug("board %s: cannot tell whether its game ended", board_id)
                continue
            if now is not None and self._seen.get(board_id) != now:
                ended = True
            self._seen[board_id] = now
        if ended:
            self.progress.poke()
        return ended


def _refused() -> JSONResponse:
    return JSONResponse(
        {
            "error": _("the children's progress is the teacher's: unlock with the PIN"),
            "need": ARBITER,
        },
        403,
        headers=NO_STORE,
    )


def _nothing_kept() -> JSONResponse:
    return JSONResponse(
        {"error": _("this simulator keeps no games (no state folder), so no progress either")},
        404,
        headers=NO_STORE,
    )


async def _body(request: Request) -> dict[str, Any]:
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            return {}
    try:
        found = json.loads(data or b"{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return found if isinstance(found, dict) else {}


def progress_routes(
    progress: Progress | None, role_of: Callable[[Request], str], children: ChildSessions
) -> list[Route]:
    """The routes, over ``progress`` (None without a state folder), the page's role and the
    children's puzzle sessions (their class code shown to the teacher; a renamed, removed or
    deleted child's sessions follow)."""

    def gate(request: Request) -> JSONResponse | Progress:
        if role_of(request) != ARBITER:
            return _refused()
        if progress is None:
            return _nothing_kept()
        return progress

    def child_of(request: Request, p: Progress, raw: object) -> str | JSONResponse:
        try:
            name = clean_name(raw)
        except RosterError as exc:
            return JSONResponse({"error": str(exc)}, 400, headers=NO_STORE)
        except PrivacyError as exc:
            return JSONResponse({"error": str(exc)}, 503, headers=NO_STORE)
        if not p.known(name):
            return JSONResponse(
                {
                    "error": _("{name} is not on the class list and has no figures").format(
                        name=name
                    )
                },
                404,
                headers=NO_STORE,
            )
        return name

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "progress.html")

    async def class_json(request: Request) -> Response:
        p = gate(request)
        if isinstance(p, Response):
            return p
        p.poke()
        return JSONResponse({**p.class_json(), "puzzle_code": children.code}, headers=NO_STORE)

    async def child_json(request: Request) -> Response:
        p = gate(request)
        if isinstance(p, Response):
            return p
        name = child_of(request, p, request.query_params.get("name"))
        if isinstance(name, Response):
            return name
        return JSONResponse(p.child_json(name), headers=NO_STORE)

    async def export(request: Request) -> Response:
        p = gate(request)
        if isinstance(p, Response):
            return p
        name = child_of(request, p, request.query_params.get("name"))
        if isinstance(name, Response):
            return name
        try:
            text = json.dumps(p.export(name), ensure_ascii=False, indent=1)
        except PrivacyError as exc:  # a page opened by the browser: said in plain words
            return Response(str(exc), 503, media_type="text/plain", headers=NO_STORE)
        slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-") or "child"
        headers = {
            "Content-Disposition": f'attachment; filename="progress-{slug}.json"',
            **NO_STORE,
        }
        return Response(text, media_type="application/json", headers=headers)

    async def delete(request: Request) -> Response:
        p = gate(request)
        if isinstance(p, Response):
            return p
        body = await _body(request)
        name = child_of(request, p, body.get("name"))
        if isinstance(name, Response):
            return name
        if body.get("confirm") != name:
            return JSONResponse(
                {"error": _("deleting a child's data must be confirmed with the child's name")},
                400,
                headers=NO_STORE,
            )
        try:
            done = p.delete(name)
        except PrivacyError as exc:
            return JSONResponse({"error": str(exc)}, 503, headers=NO_STORE)
        children.forget(name)
        return JSONResponse({"deleted": name, **done}, headers=NO_STORE)

    async def roster_edit(request: Request) -> Response:
        p = gate(request)
        if isinstance(p, Response):
            return p
        body = await _body(request)
        action = body.get("action")
        try:
            if action == "add":
                done = p.add(body.get("name"))
            elif action == "rename":
                done = p.rename(body.get("name"), body.get("new"))
                children.rename(clean_name(body.get("name")), done)
            elif action == "remove":
                done = p.remove(body.get("name"))
                children.forget(done)
            else:
                return JSONResponse(
                    {"error": _("the class list's actions are add, rename and remove")}, 400
                )
        except RosterError as exc:
            return JSONResponse({"error": str(exc)}, 400, headers=NO_STORE)
        except PrivacyError as exc:
            return JSONResponse({"error": str(exc)}, 503, headers=NO_STORE)
        return JSONResponse({"done": action, "name": done, "roster": list(p.roster())})

    return [
        Route("/class/progress", page),
        Route("/api/progress", class_json),
        Route("/api/progress/child", child_json),
        Route("/api/progress/export", export),
        Route("/api/progress/delete", delete, methods=["POST"]),
        Route("/api/roster", roster_edit, methods=["POST"]),
    ]
