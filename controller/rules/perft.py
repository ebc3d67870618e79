"""Perft: count the leaves of the move tree to a depth.

The standard check that a move generator is right: its counts must equal the published tables.
The last ply is counted without being played ("bulk counting"), as every perft tool does.

Two conventions exist for captures that take the same pieces from the same start to the same end
by different landing squares. Damath keeps every path (D-5: the landing squares carry the
operators, so the scores differ); the published draughts tables count such moves once. The
``unique`` flag selects the published convention: Brazilian draughts at depth 8 is 907,836 paths
but 907,830 unique moves.
"""

from __future__ import annotations

from .movegen import Board, RawMove


def unique_moves(moves: list[RawMove]) -> list[RawMove]:
    """One move per (start, end, set of taken squares), the first found."""
    seen: dict[tuple[int, int, frozenset[int]], RawMove] = {}
    for m in moves:
        seen.setdefault((m[0][0], m[0][-1], frozenset(m[1])), m)
    return list(seen.values())


def perft(board: Board, depth: int, unique: bool = False) -> int:
    if depth <= 0:
        return 1
    moves = board.moves()
    if unique and moves and moves[0][1]:
        moves = unique_moves(moves)
    if depth == 1:
        return len(moves)
    total = 0
    make, unmake = board.make, board.unmake
    for move in moves:
        undo = make(move)
        total += perft(board, depth - 1, unique)
        unmake(move, undo)
    return total


def divide(board: Board, depth: int, unique: bool = False) -> list[tuple[RawMove, int]]:
    """Perft split by first move: what a developer compares against another program."""
    moves = board.moves()
    if unique and moves and moves[0][1]:
        moves = unique_moves(moves)
    result = []
    for move in moves:
        undo = board.make(move)
        result.append((move, perft(board, depth - 1, unique)))
        board.unmake(move, undo)
    return result
