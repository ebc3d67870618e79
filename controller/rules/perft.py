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

from .dadama import DadamaGame, Phase, Played, Quiet, Step, Stop
from .dadama_notation import throw_text
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


def dice_outcomes(count: int, throw: int | None = None) -> list[tuple[int, ...]]:
    """The outcomes a chance node branches on: a die's six faces, or a dadama's 21 unordered
    pairs (its two dice are alike); with ``throw`` every die shows that value."""
    if throw is not None:
        return [(throw,) * count]
    if count == 1:
        return [(v,) for v in range(1, 7)]
    return [(a, b) for a in range(1, 7) for b in range(a, 7)]


def dadama_perft(game: DadamaGame, depth: int, throw: int | None = None) -> int:
    """Complete turns to ``depth``, summed over the throw outcomes (docs/rules-dadama.md).

    A leaf is a sequence of ``depth`` turns; inside a turn every throw branches on each outcome
    (``dice_outcomes``) and then on every step the player may choose (which taking, which value
    a dadama keeps, going on or stopping). A turn that ends the game counts when it is the last
    one; nothing follows it.
    """
    if depth <= 0:
        return 1
    phase = game.phase
    if phase is Phase.OVER:
        return 0
    if phase is Phase.MOVE:
        moves = game.quiet_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            game.play(move)
            total += dadama_perft(game, depth - 1, throw)
            game.undo()
        return total
    total = 0
    for step in _steps(game, throw):
        played = game.play(step)
        if played.turn_ends:
            total += 1 if depth == 1 else dadama_perft(game, depth - 1, throw)
        else:
            total += dadama_perft(game, depth, throw)
        game.undo()
    return total


def dadama_divide(game: DadamaGame, depth: int, throw: int | None = None) -> list[tuple[str, int]]:
    """Dadama's perft split by the first step (a move, or a throw with its outcome and the
    choice made on it), written as on a scoresheet."""
    rows: list[tuple[str, int]] = []
    if depth <= 0 or game.phase is Phase.OVER:
        return rows
    for step in _steps(game, throw):
        played = game.play(step)
        below = depth - 1 if played.turn_ends else depth
        count = 1 if played.turn_ends and depth == 1 else dadama_perft(game, below, throw)
        game.undo()
        rows.append((_step_text(step, played), count))
    return rows


def _step_text(step: Step, played: Played) -> str:
    if isinstance(step, Quiet):
        return f"({step.start[0]},{step.start[1]})-({step.end[0]},{step.end[1]})"
    if isinstance(step, Stop):
        return f"({step.square[0]},{step.square[1]}) stop"
    sq = f"({step.square[0]},{step.square[1]})"
    to = f"x({step.to[0]},{step.to[1]})" if step.to else ""
    return f"{sq}{to} {throw_text(step, played.piece.dadama)}"


def _steps(game: DadamaGame, throw: int | None) -> list[Step]:
    """Every step from here: the quiet moves, or stopping and every throw outcome's options."""
    if game.phase is Phase.MOVE:
        return list(game.quiet_moves())
    steps: list[Step] = []
    if game.can_stop:
        steps.append(Stop(game.throwers()[0]))
    for square in game.throwers():
        for dice in dice_outcomes(game.dice_to_throw(square), throw):
            steps += game.throw_options(square, dice)
    return steps
