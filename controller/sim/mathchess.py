"""The simulated board of Mathematical Chess: 81 point sensors the page's clicks set and clear,
the name buttons of Prepare now! and the player's turn button, driving the same tracker and
session as a real board (``controller.session.mathchess``). Its own routes beside the Damath
boards':

- ``/mathchess/<id>``: the page; ``/mathchess/<id>/record.json`` and ``…/scoresheet.txt``: the
  game's record (it replays exactly) and its scoresheet;
- ``/api/mathchess/<id>``: GET the board's state; POST one of ``{"op": "click", "point": [x, y]}``
  (a hand on a point), ``{"op": "name", "piece": "+"}``, ``{"op": "done"}`` (the player's
  button), ``{"op": "new", "level": 9}`` or ``{"op": "new", "position": {...}}`` (the JSON
  position format, docs/notation-mathchess.md); the answer is the state.

A board's game is journaled in the state folder (``mathchess/<id>/journal.jsonl``) and resumed
after a restart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from controller.board.ids import BoardIdError, check_board_id
from controller.i18n import _
from controller.rules.mathchess import (
    LEVELS,
    SIDES,
    ConditionsError,
    NotationError,
    Phase,
    Point,
    Position,
    Remove,
    from_level,
    point_text,
    position_from_json,
)
from controller.scoresheet.mathchess import sheet_json, sheet_text
from controller.session.mathchess import MathChessSession

STATIC = Path(__file__).resolve().parent / "static"
FOLDER = "mathchess"
JOURNAL = "journal.jsonl"
MAX_BOARDS = 64


class MathChessBoard:
    """One simulated board: its sensors (the points a piece stands on) and its session."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / JOURNAL
        start = Position.start(from_level(9))
        if self.path is not None and self.path.is_file():
            self.session = MathChessSession.open(self.path, start)
        else:
            self.session = MathChessSession.start(start, self.path)
        self.session.frame(self._occupied(self.session.position))

    @staticmethod
    def _occupied(position: Position) -> frozenset[Point]:
        return frozenset(p for p, _piece in position.board.pieces())

    def new(self, position: Position) -> None:
        """A new game: the one on the board is kept in ``games/`` (if anything was played)."""
        self.session.put_away(time.time())
        problems = self.session.problems
        self.session = MathChessSession.start(position, self.path)
        self.session.problems += problems[-1:]
        self.session.frame(self._occupied(position))

    def click(self, point: Point) -> None:
        """A hand on a point: a piece there is lifted, an empty point gets the piece in hand."""
        size = self.session.position.board.size
        if not (0 <= point[0] < size and 0 <= point[1] < size):
            raise ValueError(_("{point} is off the board").format(point=point_text(point)))
        sensors = set(self.session.sensors or ())
        sensors ^= {point}
        self.session.frame(frozenset(sensors))

    # ------------------------------------------------------------------ what the page shows

    def state(self) -> dict[str, Any]:
        session = self.session
        position = session.position
        tracker = session.tracker
        reading = tracker.reading
        sensors = session.sensors or frozenset()
        lit = tracker.still_removable()
        refused = {r.point: r for r in reading.refused}
        accepted = reading.accepted
        after = tracker.after_move() if position.phase is Phase.PLAY else None
        points = []
        for y in range(position.board.size):
            for x in range(position.board.size):
                at = (x, y)
                piece = position.board.at(at)
                shown = piece if at in sensors else None
                state = ""
                if reading.move is not None and at == reading.move.end:
                    shown = position.board.at(reading.move.start)
                    state = "moved"
                elif at == reading.naming:
                    state = "naming"
                elif at in refused:
                    state, shown = "refused", piece
                elif at in accepted:
                    state, shown = "removed", piece
                elif at in reading.strays:
                    state = "stray"
                elif piece is not None and at not in sensors:
                    state, shown = "lifted", piece
                item: dict[str, Any] = {"at": [x, y], "state": state}
                if shown is not None:
                    item["piece"] = {
                        "symbol": shown.symbol,
                        "side": SIDES[shown.side],
                        "name": shown.name(),
                        "digit": shown.is_digit,
                    }
                if at in lit:
                    item["lit"] = lit[at]
                if at in refused:
                    item["rule"] = refused[at].rule
                points.append(item)
        options = []
        if after is not None and not reading.refused:
            for _rule, part in reading.steps:
                after = after.apply(Remove(part))  # what may still be removed now
            options = [
                {
                    "rule": m.rule,
                    "text": m.text(),
                    "removable": [point_text(p) for p in m.removable],
                }
                for m in after.removal_options()
            ]
        ending = position.ending()
        said = session.said
        conditions = position.conditions
        return {
            "game": "mathchess",
            "phase": position.phase.name.lower(),
            "to_move": SIDES[position.to_move],
            "level": conditions.level,
            "conditions": {
                "digits": list(conditions.digits),
                "operators": {op.value: n for op, n in conditions.operators},
                "compare": conditions.compare,
                "zero": conditions.zero,
            },
            "size": position.board.size,
            "points": points,
            "names": tracker.names(),
            "box": {SIDES[s]: dict(position.box(s)) for s in (0, 1)},
            "steps": [
                {"rule": rule, "points": [point_text(p) for p in sorted(part)]}
                for rule, part in reading.steps
            ],
            "options": options,
            "problem": tracker.problem(),
            "said": None if said is None else {"text": said.text, "rule": said.rule},
            "ending": None if ending is None else ending.describe(),
            "sheet": sheet_json(session.game),
            "problems": session.problems,
        }


class MathChessBoards:
    def __init__(self, state_dir: Path | None) -> None:
        self.state_dir = state_dir
        self.boards: dict[str, MathChessBoard] = {}

    def get(self, board_id: str) -> MathChessBoard:
        board_id = check_board_id(board_id)
        board = self.boards.get(board_id)
        if board is None:
            if len(self.boards) >= MAX_BOARDS:
                raise ValueError(_("too many boards are open"))
            folder = None if self.state_dir is None else self.state_dir / FOLDER / board_id
            board = self.boards[board_id] = MathChessBoard(folder)
        return board

    def close(self) -> None:
        for board in self.boards.values():
            board.session.close()


def _start(message: dict[str, Any]) -> Position:
    if "position" in message:
        return position_from_json(message["position"])
    level = message.get("level", 9)
    if type(level) is not int or level not in LEVELS:
        raise ValueError(_("a level is a whole number from 1 to 10"))
    return Position.start(from_level(level))


def _point(raw: Any) -> Point:
    if not (isinstance(raw, list) and len(raw) == 2 and all(type(v) is int for v in raw)):
        raise ValueError(_("a point is [x, y]"))
    return (raw[0], raw[1])


def handle(board: MathChessBoard, message: Any) -> None:
    """One message from the page; ValueError says what is wrong with it."""
    if not isinstance(message, dict):
        raise ValueError(_("expected an object with op"))
    op = message.get("op")
    if op == "click":
        board.click(_point(message.get("point")))
    elif op == "name":
        board.session.name(str(message.get("piece", "")))
    elif op == "done":
        board.session.done()
    elif op == "new":
        board.new(_start(message))
    else:
        raise ValueError(_("unknown op {op!r}").format(op=op))


def mathchess_routes(state_dir: Path | None) -> tuple[list[Route], MathChessBoards]:
    boards = MathChessBoards(state_dir)

    async def page(request: Request) -> Response:
        try:
            check_board_id(request.path_params["board_id"])
        except BoardIdError as exc:
            return JSONResponse({"error": str(exc)}, 404)
        return FileResponse(STATIC / "mathchess.html")

    async def api(request: Request) -> Response:
        try:
            board = boards.get(request.path_params["board_id"])
            if request.method == "POST":
                body = await request.body()
                if len(body) > 65536:
                    raise ValueError(_("the message is too long"))
                handle(board, json.loads(body or b"{}"))
        except BoardIdError as exc:
            return JSONResponse({"error": str(exc)}, 404)
        except (ValueError, NotationError, ConditionsError) as exc:
            return JSONResponse({"error": str(exc)}, 400)
        return JSONResponse(board.state(), headers={"Cache-Control": "no-store"})

    async def download(request: Request) -> Response:
        """The game's record (replays exactly: ``rules``' reader) or its scoresheet as text."""
        try:
            board = boards.get(request.path_params["board_id"])
        except (BoardIdError, ValueError) as exc:
            return JSONResponse({"error": str(exc)}, 404)
        game = board.session.game
        name = request.path_params["file"]
        if name == "record.json":
            text, media = (
                json.dumps(game.record_json(), ensure_ascii=False, indent=1),
                "application/json",
            )
        elif name == "scoresheet.txt":
            text, media = sheet_text(game), "text/plain; charset=utf-8"
        else:
            return JSONResponse({"error": _("there is no file {name!r}").format(name=name)}, 404)
        filename = f"mathchess-{request.path_params['board_id']}-{name}"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        return Response(text, media_type=media, headers=headers)

    routes = [
        Route("/mathchess/{board_id}/{file}", download),
        Route("/mathchess/{board_id}", page),
        Route("/api/mathchess/{board_id}", api, methods=["GET", "POST"]),
    ]
    return routes, boards
