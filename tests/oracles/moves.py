"""A plain, slow reference move generator, written from the rules text alone.

It shares nothing with ``controller.rules.movegen``: no geometry tables, no rays, no bit masks,
no dense indices, no make/unmake. A position is a dict ``(x, y) -> Piece``, and every rule is
spelt out the way the rule book states it (the Damath rules and their decisions D-1..D-9,
docs/rules.md; the draughts federations' rules for the other games). The property tests in
``tests/rules/test_oracle.py`` compare it with the engine move for move; where the two
disagree, one of them misreads the rules.

The side that moves first (Blue in Damath, side 0) starts at ``y = 0`` and moves up.
"""

from __future__ import annotations

from dataclasses import dataclass

Square = tuple[int, int]

# The four diagonal steps; the first two go up (towards larger y).
STEPS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


@dataclass(frozen=True)
class Piece:
    side: int  # 0 moves first, from y = 0 upwards; 1 from the top downwards
    king: bool = False  # a king (draughts) or a dama (Damath)


@dataclass(frozen=True)
class Rules:
    """One game's rules, as the rule books state them."""

    size: int
    men_take_backward: bool
    flying_kings: bool
    men_take_kings: bool
    priority: str
    """``any``: any capture (English); ``most``: the most pieces (International, Brazilian);
    ``italian``: most pieces, then with a king, then most kings, then kings first;
    ``most-then-dama``: Damath's "mayor" (most chips, then a dama's); ``dama-then-most``: the
    Damath online rules (a dama's first, then most)."""
    trail: str = "free"
    """What a flying king may not revisit in one capture: ``free`` (only the jumped pieces
    matter), ``strict`` (Damath D-3: no square passed over or landed on twice, its start
    included), ``loose`` (only its starting square)."""
    crowning_ends_move: bool = False
    """English and Italian: a man that reaches the far row is crowned and its move ends there.
    Damath (D-2), International and Brazilian: it goes on taking and is crowned only if its
    move ends on the far row."""
    men_rows: int = 3


RULES: dict[str, Rules] = {
    "damath-official": Rules(8, True, True, True, "most-then-dama", "strict"),
    "damath-online": Rules(8, True, True, True, "dama-then-most", "strict"),
    "damath-loose": Rules(8, True, True, True, "most-then-dama", "loose"),
    "english": Rules(8, False, False, True, "any", crowning_ends_move=True),
    "italian": Rules(8, False, False, False, "italian", crowning_ends_move=True),
    "international": Rules(10, True, True, True, "most", men_rows=4),
    "brazilian": Rules(8, True, True, True, "most"),
}


@dataclass(frozen=True, order=True)
class OracleMove:
    path: tuple[Square, ...]
    captures: tuple[Square, ...]
    promotes: bool
    by_king: bool


def on_board(rules: Rules, square: Square) -> bool:
    x, y = square
    return 0 <= x < rules.size and 0 <= y < rules.size


def far_row(rules: Rules, side: int) -> int:
    return rules.size - 1 if side == 0 else 0


def forward_steps(side: int) -> tuple[tuple[int, int], ...]:
    return tuple(s for s in STEPS if (s[1] > 0) == (side == 0))


def start_position(rules: Rules) -> dict[Square, Piece]:
    """Men on the first ``men_rows`` rows of each side, on the dark squares (x + y odd)."""
    pieces = {}
    for y in range(rules.size):
        for x in range(rules.size):
            if (x + y) % 2 == 1:
                if y < rules.men_rows:
                    pieces[(x, y)] = Piece(0)
                elif y >= rules.size - rules.men_rows:
                    pieces[(x, y)] = Piece(1)
    return pieces


def legal_moves(rules: Rules, pieces: dict[Square, Piece], side: int) -> list[OracleMove]:
    """Every legal move of ``side``: the captures the priority rule allows, else the quiet moves."""
    captures = []
    for square in sorted(pieces):
        if pieces[square].side == side:
            captures += _captures_from(rules, pieces, square)
    if captures:
        return sorted(_allowed(rules, pieces, captures))
    quiet = []
    for square in sorted(pieces):
        piece = pieces[square]
        if piece.side == side:
            quiet += _quiet_from(rules, pieces, square, piece)
    return sorted(quiet)


def play(pieces: dict[Square, Piece], move: OracleMove) -> dict[Square, Piece]:
    """The position after ``move``: the taken pieces leave, the mover stands on its last
    square, crowned if the move promotes it."""
    after = {sq: p for sq, p in pieces.items() if sq != move.path[0] and sq not in move.captures}
    mover = pieces[move.path[0]]
    after[move.path[-1]] = Piece(mover.side, mover.king or move.promotes)
    return after


# ---------------------------------------------------------------------------- quiet moves


def _quiet_from(rules: Rules, pieces, start: Square, piece: Piece) -> list[OracleMove]:
    moves = []
    if not piece.king:
        for dx, dy in forward_steps(piece.side):
            to = (start[0] + dx, start[1] + dy)
            if on_board(rules, to) and to not in pieces:
                promotes = to[1] == far_row(rules, piece.side)
                moves.append(OracleMove((start, to), (), promotes, False))
        return moves
    for dx, dy in STEPS:
        distance = 1
        while True:
            to = (start[0] + dx * distance, start[1] + dy * distance)
            if not on_board(rules, to) or to in pieces:
                break
            moves.append(OracleMove((start, to), (), False, True))
            if not rules.flying_kings:
                break
            distance += 1
    return moves


# ---------------------------------------------------------------------------- captures


def _captures_from(rules: Rules, pieces, start: Square) -> list[OracleMove]:
    """Every complete capture sequence of the piece on ``start``.

    The piece has left its square (so it may pass over or land on it again, unless a trail
    rule forbids it); the pieces it takes stay on the board until the move is over (they block
    and cannot be taken twice)."""
    piece = pieces[start]
    board = {sq: p for sq, p in pieces.items() if sq != start}
    found: list[OracleMove] = []
    visited = {start} if rules.trail in ("strict", "loose") else set()
    _continue(rules, board, piece, [start], [], visited, found)
    return found


def _continue(rules, board, piece, path, taken, visited, found) -> None:
    here = path[-1]
    jumps = _jumps(rules, board, piece, here, taken, visited)
    crowned_here = (
        rules.crowning_ends_move
        and not piece.king
        and len(path) > 1
        and here[1] == far_row(rules, piece.side)
    )
    if crowned_here:
        jumps = []
    if not jumps:
        if taken:
            promotes = not piece.king and here[1] == far_row(rules, piece.side)
            found.append(OracleMove(tuple(path), tuple(taken), promotes, piece.king))
        return
    for over, land, crossed in jumps:
        now_visited = visited
        if rules.trail == "strict":
            now_visited = visited | crossed
        _continue(rules, board, piece, [*path, land], [*taken, over], now_visited, found)


def _takeable(rules, board, piece, square, taken) -> bool:
    other = board.get(square)
    if other is None or other.side == piece.side or square in taken:
        return False
    return piece.king or rules.men_take_kings or not other.king


def _jumps(rules, board, piece, here, taken, visited):
    """(taken square, landing square, squares crossed to get there) for every single jump."""
    out = []
    if not piece.king or not rules.flying_kings:
        steps = STEPS if piece.king or rules.men_take_backward else forward_steps(piece.side)
        for dx, dy in steps:
            over = (here[0] + dx, here[1] + dy)
            land = (here[0] + 2 * dx, here[1] + 2 * dy)
            if not on_board(rules, land) or land in board:
                continue
            if _takeable(rules, board, piece, over, taken):
                out.append((over, land, {over, land}))
        return out
    # A flying king: slide over empty squares, jump one piece, land on any empty square beyond.
    for dx, dy in STEPS:
        crossed = set()
        k = 1
        square = (here[0] + dx, here[1] + dy)
        while on_board(rules, square) and square not in board:
            crossed.add(square)
            k += 1
            square = (here[0] + dx * k, here[1] + dy * k)
        if not on_board(rules, square) or not _takeable(rules, board, piece, square, taken):
            continue
        if crossed & visited:
            continue
        over = square
        crossed.add(over)
        k += 1
        land = (here[0] + dx * k, here[1] + dy * k)
        while on_board(rules, land) and land not in board and land not in visited:
            crossed.add(land)
            out.append((over, land, set(crossed)))
            k += 1
            land = (here[0] + dx * k, here[1] + dy * k)
    return out


# ---------------------------------------------------------------------------- priority


def _allowed(rules: Rules, pieces, captures: list[OracleMove]) -> list[OracleMove]:
    """The capture sequences the rule set lets the player choose from."""

    def most(moves):
        top = max(len(m.captures) for m in moves)
        return [m for m in moves if len(m.captures) == top]

    def kings_first(moves):
        with_king = [m for m in moves if m.by_king]
        return with_king if with_king else moves

    if rules.priority == "any":
        return captures
    if rules.priority == "most":
        return most(captures)
    if rules.priority == "most-then-dama":
        return kings_first(most(captures))
    if rules.priority == "dama-then-most":
        return most(kings_first(captures))
    if rules.priority == "italian":
        best = kings_first(most(captures))

        def kings_taken(m):
            return [i for i, sq in enumerate(m.captures) if pieces[sq].king]

        top = max(len(kings_taken(m)) for m in best)
        best = [m for m in best if len(kings_taken(m)) == top]
        earliest = min(kings_taken(m) for m in best)
        return [m for m in best if kings_taken(m) == earliest]
    raise ValueError(f"unknown priority {rules.priority!r}")


# ---------------------------------------------------------------------------- Damath takings

# The operator of every Damath square, row 7 at the top, as the rules draw the board.
_GRID = (
    "× . ÷ . − . + .",
    ". ÷ . × . + . −",
    "− . + . × . ÷ .",
    ". + . − . ÷ . ×",
    "× . ÷ . − . + .",
    ". ÷ . × . + . −",
    "− . + . × . ÷ .",
    ". + . − . ÷ . ×",
)
DAMATH_OPERATORS: dict[Square, str] = {
    (x, 7 - row): sign
    for row, line in enumerate(_GRID)
    for x, sign in enumerate(line.split())
    if sign != "."
}


def damath_takings(move: OracleMove, values: dict[Square, str], kings: dict[Square, bool]):
    """(taker, taken, landing square, operator, multiplier) of each taking, in order.

    ``values`` holds the printed chip labels, ``kings`` which chips are damas."""
    start = move.path[0]
    out = []
    for k, over in enumerate(move.captures):
        landing = move.path[k + 1]
        multiplier = (2 if kings[start] else 1) * (2 if kings[over] else 1)
        out.append((values[start], values[over], landing, DAMATH_OPERATORS[landing], multiplier))
    return out
