"""Games played through the simulator's own board (``SimBoard``: the tracker, the session, the
journal) by the engine, and kept in a state folder as a class's boards keep them: what the
indexer reads. Shared by the progress tests and bench/bench_class_term.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.engine.think import think
from controller.sim.engine import SimBoard
from tests.sim.conftest import ManualClock

SETTLE = 0.25


def _play(board: SimBoard, clock: ManualClock, *clicks: Any) -> None:
    for sq in clicks:
        board.act({"type": "click", "square": list(sq)})
    clock.advance(SETTLE)
    board.tick()


def play_game(
    board: SimBoard,
    clock: ManualClock,
    blue: str,
    red: str,
    *,
    date: str = "",
    levels: tuple[int, int] = (2, 2),
    seed: int = 1,
    position: dict[str, Any] | None = None,
    variant: str = "integer",
    max_moves: int = 200,
) -> int:
    """Start a new game on ``board`` (the last one is kept), name the players, let the engine
    play both sides at ``levels`` until the game ends; the moves played."""
    message: dict[str, Any] = {"type": "new_game", "variant": variant, "confirm": True}
    if position is not None:
        message["position"] = position
    board.act(message)
    info = {"blue": blue, "red": red}
    if date:
        info["date"] = date
    board.act({"type": "info", "info": info})
    clock.advance(SETTLE)
    board.tick()
    session = board.session
    moves = 0
    while session.outcome is None and moves < max_moves:
        game = session.game
        level = levels[game.side_to_move]
        move = think(game, level=level, seed=seed * 1000 + moves).move
        if _ambiguous(game, move):  # a dama's two ways to one square: the board asks which;
            plain = [m for m in game.legal_moves() if not _ambiguous(game, m)]
            if not plain:  # (the clicks here cannot answer it): another move, or stop here
                break
            move = plain[0]
        _play(board, clock, move.start, move.end, *move.captures)
        moves += 1
    return moves


def _ambiguous(game: Any, move: Any) -> bool:
    same = [
        m
        for m in game.legal_moves()
        if m.start == move.start and m.end == move.end and set(m.captures) == set(move.captures)
    ]
    return len(same) > 1


def keep(board: SimBoard) -> None:
    """Put the finished game away in ``games/`` (a new game starts: the board's own way)."""
    board.act({"type": "new_game", "confirm": True})


def new_board(state_dir: Path, board_id: str, clock: ManualClock) -> SimBoard:
    board = SimBoard(board_id, clock, state_dir=state_dir)
    clock.advance(SETTLE)
    board.tick()
    return board
