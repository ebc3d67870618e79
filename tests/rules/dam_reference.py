"""A slow, plain Dam move generator, written from docs/rules-dam.md alone, to check the engine.

It shares nothing with ``controller/rules/movegen.py``: a board is a dict from ``(x, y)`` to
``(side, king)``, pieces walk one square at a time, and every rule is spelled out where it
applies. It is meant to be read against the rules, not to be fast.
"""

from __future__ import annotations

SIZE = 12
STEPS = ((1, 1), (-1, 1), (1, -1), (-1, -1))

Board = dict[tuple[int, int], tuple[int, bool]]
Move = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
"""(path, taken squares in order): the path is start, the square beyond every jump that a leg
passes through, the end of every leg."""


def on_board(square: tuple[int, int]) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def far_row(side: int) -> int:
    return SIZE - 1 if side == 0 else 0


def opening() -> Board:
    """Thirty men a side on the dark squares (x + y odd) of the first five rows."""
    board: Board = {}
    for y in range(SIZE):
        for x in range(SIZE):
            if (x + y) % 2 == 1:
                if y < 5:
                    board[(x, y)] = (0, False)
                elif y >= SIZE - 5:
                    board[(x, y)] = (1, False)
    return board


def plus(square: tuple[int, int], step: tuple[int, int]) -> tuple[int, int]:
    return (square[0] + step[0], square[1] + step[1])


def man_takings(board: Board, start: tuple[int, int], side: int) -> list[Move]:
    """Short jumps in all four directions; a man goes on while it can, and a man that lands on
    the far row is crowned there and stops."""
    found: list[Move] = []

    def go(square, path, taken):
        if taken and square[1] == far_row(side):
            found.append((tuple(path), tuple(taken)))
            return
        went_on = False
        for step in STEPS:
            over = plus(square, step)
            land = plus(over, step)
            if not on_board(land) or over in taken:
                continue
            piece = board.get(over)
            if piece is None or piece[0] == side:
                continue
            if land in board and land != start:
                continue
            went_on = True
            go(land, [*path, land], [*taken, over])
        if not went_on and taken:
            found.append((tuple(path), tuple(taken)))

    go(start, [start], [])
    return found


def king_takings(board: Board, start: tuple[int, int], side: int) -> list[Move]:
    """The king walks square by square along a diagonal. After a jump it may stop on any empty
    square; it may keep walking to jump the next opposing piece on the same diagonal; standing
    on the edge at the end of a leg that jumped, it may set off at a right angle."""
    found: list[Move] = []

    def empty(square):
        return on_board(square) and (square not in board or square == start)

    def walk(square, step, legs, beyonds, taken):
        """``legs``: the path so far (start and finished legs); ``beyonds``: the squares just
        beyond each piece jumped in this leg."""
        if beyonds:
            found.append(((*legs, *beyonds[:-1], square), tuple(taken)))
            ahead = plus(square, step)
            if not on_board(ahead):
                sideways = (-step[0], step[1])
                upways = (step[0], -step[1])
                if on_board(plus(square, sideways)) and not on_board(plus(square, upways)):
                    walk(square, sideways, (*legs, *beyonds[:-1], square), [], taken)
                elif on_board(plus(square, upways)) and not on_board(plus(square, sideways)):
                    walk(square, upways, (*legs, *beyonds[:-1], square), [], taken)
        nxt = plus(square, step)
        if empty(nxt):
            walk(nxt, step, legs, beyonds, taken)
            return
        if not on_board(nxt) or nxt in taken:
            return
        if board[nxt][0] == side:
            return
        beyond = plus(nxt, step)
        if empty(beyond):
            walk(beyond, step, legs, [*beyonds, beyond], [*taken, nxt])

    for step in STEPS:
        walk(start, step, (start,), [], [])
    return found


def legal_moves(board: Board, side: int, most: bool = False) -> list[Move]:
    """Taking is compulsory; with ``most`` only the takings of the most pieces."""
    takings: list[Move] = []
    for square, (owner, king) in board.items():
        if owner != side:
            continue
        if king:
            takings += king_takings(board, square, side)
        else:
            takings += man_takings(board, square, side)
    if takings:
        if most:
            top = max(len(t[1]) for t in takings)
            takings = [t for t in takings if len(t[1]) == top]
        return takings
    moves: list[Move] = []
    for square, (owner, king) in board.items():
        if owner != side:
            continue
        for step in STEPS:
            nxt = plus(square, step)
            while on_board(nxt) and nxt not in board:
                moves.append(((square, nxt), ()))
                if not king:
                    break
                nxt = plus(nxt, step)
    return moves


def play(board: Board, move: Move) -> Board:
    path, taken = move
    after = dict(board)
    side, king = after.pop(path[0])
    for square in taken:
        del after[square]
    end = path[-1]
    after[end] = (side, king or end[1] == far_row(side))
    return after


def perft(board: Board, side: int, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(play(board, m), 1 - side, depth - 1) for m in moves)
