"""The engine's work for a board, done in worker processes.

A search holds the CPU for up to a few seconds; in the board's loop (the simulator's event
loop, the Pi's scan loop) it would stop the clocks, the LEDs and every page meanwhile. So every
search runs in a separate process (the GIL would let a thread slow the loop down) and the loop
only polls its ``Future``. Requests and answers are plain JSON-ready data: the start position
(the JSON position format), the moves played as paths, and what to do; each task rebuilds the
game with the rules engine, so nothing but data crosses the process boundary.

The pool is shared by every board of the process (two workers) and started on first use with
``spawn`` (forking a process that runs an event loop and threads is unsafe). The engine is
imported by the tasks, in the workers: the board's own start stays as quick as before."""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from controller.rules.game import Game

HINT_DEPTH = 8
HINT_SECONDS = 1.5
"""A hint: full strength, at most 1.5 s (8 moves ahead at most, so it is usually reproducible)."""
WORKERS = 2

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def _executor() -> ProcessPoolExecutor:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=WORKERS, mp_context=context, initializer=die_with_parent
            )
            atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
        return _pool


def die_with_parent() -> None:
    """A worker's first act: it ends itself the moment its parent is gone (20 simulators
    killed with SIGKILL left 40 workers, 842 MB, behind: a worker mid-search never reads the
    closed queue). It waits on the parent's sentinel, which also tells a parent that died
    before the worker had started."""
    import multiprocessing
    import multiprocessing.connection
    import os

    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch(sentinel: int) -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(
        target=watch, args=(parent.sentinel,), name="parent-watch", daemon=True
    ).start()


def submit(
    task: Callable[[dict[str, Any]], dict[str, Any]], request: dict[str, Any]
) -> Future[dict[str, Any]]:
    """Run ``task(request)`` in a worker; a pool broken by a killed worker is started again."""
    from concurrent.futures.process import BrokenProcessPool

    global _pool
    try:
        return _executor().submit(task, request)
    except (BrokenProcessPool, RuntimeError):
        with _lock:
            _pool = None
        return _executor().submit(task, request)


def _game(request: dict[str, Any]) -> Game:
    from controller.rules.notation import game_from_json

    game = game_from_json(request["start"])
    for path in request["paths"]:
        game.push(game.find_move([tuple(sq) for sq in path]))
    return game


def computer_move(request: dict[str, Any]) -> dict[str, Any]:
    """The computer's move at its level: ``{"path", "score", "depth", "seconds"}``."""
    from controller.engine.think import think
    from controller.rules.scoring import score_move

    game = _game(request)
    answer = think(game, level=request["level"], seed=request.get("seed"), clock=time.monotonic)
    assert game.variant is not None
    return {
        "path": [list(sq) for sq in answer.move.path],
        "score": score_move(answer.move, game.variant).text,
        "depth": answer.depth,
        "seconds": round(answer.seconds, 3),
    }


def best_move(request: dict[str, Any]) -> dict[str, Any]:
    """A hint: the best move at full strength within ``HINT_SECONDS``."""
    from controller.engine.coach import hint

    game = _game(request)
    found = hint(game, depth=HINT_DEPTH, seconds=HINT_SECONDS, clock=time.monotonic)
    return {
        "path": [list(sq) for sq in found.move.path],
        "score": found.score_text,
        "takings": list(found.takings),
    }


def game_review(request: dict[str, Any]) -> dict[str, Any]:
    """The post-game review of the board's own PDN export (the file a teacher downloads).
    Against the computer (``computer``: its side, 0 or 1) the biggest mistakes are the child's
    only: every card says "Your move", and the computer's moves are not the child's."""
    from controller.engine.coach import review
    from controller.engine.game_record import read_record
    from controller.engine.review_format import review_json

    record = read_record(request["pdn"], "this game")
    result = review(record.start, record.paths, totals=record.totals, depth=request["depth"])
    out = review_json(result, record)
    computer = request.get("computer")
    out["computer"] = ("blue", "red")[computer] if computer in (0, 1) else None
    if computer in (0, 1):
        out["mistakes"] = [m.index for m in result.mistakes(1 - computer)]
    out["lessons"] = _lessons(record.start, record.paths, set(out["mistakes"]))
    return out


def _lessons(start: Game, paths: Any, wanted: set[int]) -> dict[str, Any]:
    """The position before each of the mistakes (JSON position format): a lesson to practise."""
    from controller.rules.notation import game_to_json

    game = start.copy()
    lessons = {}
    for index, path in enumerate(paths):
        if index in wanted:
            lessons[str(index)] = game_to_json(game)
        game.push(game.find_move([tuple(sq) for sq in path]))
    return lessons
