"""The puzzle page's routes: a child picks their name from the class list, gets the puzzle
nearest their rating, answers on the page's board; the answer is judged, kept in the class's
puzzle store (``puzzles.sqlite`` beside ``players.txt``) and both ratings move.

| route | what |
|---|---|
| ``/puzzles`` | the page |
| ``/api/puzzles/class`` | the class list and how many puzzles the store holds |
| ``/api/puzzles/next?variant=…`` | the next puzzle for this device's child, of the class's
  variant (``sim --set variant=…``, else Integer) or the one the child chose, the variants the
  store holds, and the child's rating |
| ``/api/puzzles/answer`` (POST) | a move judged: right, right so far, or wrong with the reason |
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from controller.i18n import _
from controller.puzzles.model import Path_
from controller.puzzles.solve import board_json, judge, position_at, solution_words, themes_words
from controller.puzzles.store import (
    StoreError,
    next_puzzle,
    present,
    puzzle,
    puzzle_db_path,
    record_attempt,
    solver_rating,
    variant_counts,
)
from controller.rules import variants
from controller.rules.notation import NotationError, load_json

from .access import ARBITER
from .child_access import COOKIE as CHILD_COOKIE
from .child_access import SECONDS as CHILD_SECONDS
from .child_access import ChildError, ChildSessions
from .registry import Boards
from .site import who

STATIC = Path(__file__).resolve().parent / "static"
MAX_ANSWER = 4096
"""An answer is a few squares: a body longer than this is refused unread."""
TRIES = 2
"""A child gets a second try after a wrong first one; then the solution is shown."""
MAX_SECONDS = 24 * 3600
"""The longest an answer may say it took (a day: a tab left open); beyond, or not a number at
all (``inf`` was stored), the answer is not read."""


def _error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


def _path(raw: object) -> Path_:
    if not isinstance(raw, list) or not 2 <= len(raw) <= 16:
        raise ValueError(_("a move is a list of squares"))
    out = []
    for sq in raw:
        if not (isinstance(sq, list) and len(sq) == 2 and all(type(v) is int for v in sq)):
            raise ValueError(_("a move is a list of squares"))
        out.append((sq[0], sq[1]))
    return tuple(out)


async def _small_json(request: Request) -> object:
    """A small JSON body (at most ``MAX_ANSWER`` bytes, never read further); ValueError for
    anything else."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_ANSWER:
            raise ValueError("too long")
    try:
        return load_json(raw)
    except NotationError:
        raise ValueError("not JSON") from None


def puzzle_routes(
    boards: Boards, children: ChildSessions, role_of: Callable[[Request], str]
) -> list[Route]:
    def db() -> Path | None:
        return puzzle_db_path(boards.state_dir) if boards.state_dir is not None else None

    def listed(raw: object) -> str | None:
        return raw if isinstance(raw, str) and raw in boards.roster() else None

    def session_child(request: Request) -> str | None:
        """The child whose session this device holds (and who is still on the list)."""
        return listed(children.child(request.cookies.get(CHILD_COOKIE)))

    def pick_your_name() -> JSONResponse:
        return JSONResponse(
            {"error": _("Pick your name from the class list."), "need": "child"}, status_code=403
        )

    async def me(request: Request) -> Response:
        return JSONResponse(
            {"child": session_child(request), "code": role_of(request) != ARBITER},
            headers={"Cache-Control": "no-store"},
        )

    async def join(request: Request) -> Response:
        try:
            body = await _small_json(request)
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return _error(_("The answer could not be read."))
        child = listed(body.get("child"))
        if child is None:
            return _error(_("Pick your name from the class list."))
        teacher = role_of(request) == ARBITER
        try:
            token = children.join(child, body.get("code"), who(request), teacher)
        except ChildError as exc:
            return JSONResponse({"error": str(exc), "need": "code"}, status_code=403)
        response = JSONResponse({"child": child}, headers={"Cache-Control": "no-store"})
        response.set_cookie(
            CHILD_COOKIE, token, max_age=CHILD_SECONDS, httponly=True, samesite="strict", path="/"
        )
        return response

    async def leave(request: Request) -> Response:
        children.leave(request.cookies.get(CHILD_COOKIE))
        response = JSONResponse({"child": None})
        response.delete_cookie(CHILD_COOKIE, path="/")
        return response

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "puzzle.html")

    async def class_json(request: Request) -> Response:
        return JSONResponse(
            {"children": list(boards.roster())}, headers={"Cache-Control": "no-store"}
        )

    def class_variant() -> str:
        """The class's variant: what its new games start with (``sim --set variant=…``)."""
        chosen = boards.defaults.get("variant")
        return chosen if isinstance(chosen, str) and chosen in variants.NAMES else variants.DEFAULT

    async def next_json(request: Request) -> Response:
        child = session_child(request)  # this device's child: never a name in the address
        store = db()
        if child is None:
            return pick_your_name()
        variant = request.query_params.get("variant") or class_variant()
        if variant not in variants.NAMES:
            return _error(
                _("{variant}: not a variant; the variants are {variants}").format(
                    variant=variant[:20], variants=", ".join(variants.NAMES)
                )
            )
        try:
            if store is None or not present(store):
                return _error(_("No puzzles yet: the teacher generates them first."), 404)
            counts = variant_counts(store)
            found = next_puzzle(store, child, variant)
            rating = solver_rating(store, child)
        except StoreError as exc:
            return _error(str(exc), 500)
        offered = [{"name": v, "puzzles": counts[v]} for v in variants.NAMES if counts.get(v)]
        if found is None:
            text = _("No {variant} Damath puzzles yet: choose another variant, or the teacher "
                     "generates them (puzzles generate --variant {name}).")  # fmt: skip
            return JSONResponse(
                {
                    "error": text.format(variant=variant.capitalize(), name=variant),
                    "variant": variant,
                    "variants": offered,
                },
                status_code=404,
                headers={"Cache-Control": "no-store"},
            )
        p, p_rating = found
        return JSONResponse(
            {
                "id": p.id,
                "variant": p.variant,
                "class_variant": class_variant(),
                "variants": offered,
                "themes": themes_words(p),
                "steps": p.steps,
                "rating": round(rating.rating),
                "puzzle_rating": round(p_rating.rating),
                "board": board_json(p.game(), p.solver),
            },
            headers={"Cache-Control": "no-store"},
        )

    async def answer(request: Request) -> Response:
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_ANSWER:
                return _error(_("The answer could not be read."), 413)
        try:
            body = load_json(raw)
            if not isinstance(body, dict) or not isinstance(body.get("played", []), list):
                raise ValueError
            if len(body.get("played", [])) > 4:
                raise ValueError
            played = [_path(m) for m in body.get("played", [])]
            move = _path(body.get("move"))
            seconds = float(body.get("seconds", 0))
            if not 0 <= seconds <= MAX_SECONDS:  # NaN, inf, a negative time: not read
                raise ValueError
        except (ValueError, TypeError, NotationError):
            return _error(_("The answer could not be read."))
        child = session_child(request)  # this device's child, whatever the body says
        store = db()
        if child is None:
            return pick_your_name()
        if store is None:
            return _error(_("No puzzles yet: the teacher generates them first."), 404)
        try:
            found = puzzle(store, str(body.get("puzzle", "")))
            if found is None:
                return _error(_("No such puzzle."), 404)
            p, _rating = found
            judged = judge(p, played, move)
        except StoreError as exc:
            return _error(str(exc), 500)
        except ValueError as exc:
            return _error(str(exc))
        out: dict[str, Any] = {"result": judged.result, "said": judged.said}
        text = " ".join(f"{x}{y}" for x, y in move)
        if judged.result == "continue":
            out["board"] = board_json(judged.game, p.solver)
            out["reply"] = [list(s) for s in judged.reply or ()]
            return JSONResponse(out)
        try:
            done = record_attempt(store, child, p.id, text, judged.result == "right", seconds)
        except StoreError as exc:
            return _error(str(exc), 500)
        out["first_try"] = done.first_try
        out["rating_before"] = round(done.child_before.rating)
        out["rating_after"] = round(done.child_after.rating)
        if judged.result == "right":
            out["board"] = board_json(judged.game, p.solver)
            return JSONResponse(out)
        tries = int(body.get("try", 1)) if str(body.get("try", 1)).isdigit() else 1
        out["tries_left"] = max(0, TRIES - tries)
        at = position_at(p, played)
        if out["tries_left"] == 0:  # the best move, told and drawn on the board
            out["said"] = [*out["said"], *solution_words(p, played)]
            if at is not None:
                out["best"] = [list(sq) for sq in p.solution[2 * at[1]]]
        out["board"] = board_json(at[0] if at else p.game(), p.solver)
        return JSONResponse(out)

    return [
        Route("/puzzles", page),
        Route("/api/puzzles/class", class_json),
        Route("/api/puzzles/me", me),
        Route("/api/puzzles/join", join, methods=["POST"]),
        Route("/api/puzzles/leave", leave, methods=["POST"]),
        Route("/api/puzzles/next", next_json),
        Route("/api/puzzles/answer", answer, methods=["POST"]),
    ]
