"""Perft: count the leaves of the move tree to a depth, every capture path counted (D-5).

The standard check that a move generator is right: its counts must equal the published tables.
The last ply is counted without being played ("bulk counting"), as every perft tool does.
"""

from __future__ import annotations

from .movegen import Board, RawMove


def perft(board: Board, depth: int) -> int:
    if depth <= 0:
        return 1
    moves = board.moves()
    if depth == 1:
        return len(moves)
    total = 0
    make, unmake = board.make, board.unmake
    for move in moves:
        undo = make(move)
        total += perft(board, depth - 1)
        unmake(move, undo)
    return total


def divide(board: Board, depth: int) -> list[tuple[RawMove, int]]:
    """Perft split by first move: what a developer compares against another program."""
    result = []
    for move in board.moves():
        undo = board.make(move)
        result.append((move, perft(board, depth - 1)))
        board.unmake(move, undo)
    return result
