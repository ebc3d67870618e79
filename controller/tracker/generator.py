"""Realistic human traces of a legal game, for tests and the benchmark.

Hands do not move chips the way a move list reads: they lift, hesitate, put back, slide chips
across squares, set a taker down on some landing squares, remove taken chips in any order (some
before the taker moves), crown a new dama, and every switch bounces for a few milliseconds.
``human_trace`` plays a move list that way; replaying it must give back the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from controller.rules.game import Game
from controller.rules.move import Move, Square

from .positions import PositionIndex
from .settings import Settings
from .trace import frame_line, header_line
from .tracker import resolve


@dataclass
class _Clock:
    t: float
    board: set[Square]
    lines: list[str]


def random_game(game: Game, plies: int, rng: random.Random) -> list[Move]:
    """Up to ``plies`` random legal moves from ``game`` (which is left as it was)."""
    g = game.copy()
    moves = []
    for _ in range(plies):
        legal = g.legal_moves()
        if not legal or g.ending() is not None:
            break
        move = rng.choice(legal)
        moves.append(move)
        g.push(move)
    return moves


def human_trace(
    game: Game,
    moves: Sequence[Move],
    rng: random.Random,
    settings: Settings | None = None,
    header: str | None = None,
) -> list[str]:
    """The trace lines (header first) of a person playing ``moves`` from ``game``'s position."""
    settings = settings or Settings()
    g = game.copy()
    clock = _Clock(0.0, set(g.occupied()), [header or header_line(g.variant or "integer")])
    _emit(clock, clock.board)
    clock.t += settings.settle + 0.05
    for move in moves:
        pos = PositionIndex(g)
        _play(clock, pos, move, rng, settings)
        g.push(move)
        if move.promotes and rng.random() < 0.5:
            _crown(clock, move.end, rng, settings)
    return clock.lines


def _emit(clock: _Clock, board: set[Square]) -> None:
    clock.board = set(board)
    clock.lines.append(frame_line(clock.t, board))


def _change(clock: _Clock, board: set[Square], rng: random.Random, dwell: float) -> None:
    """Go to ``board``, with switch bounce of a few ms, then stay ``dwell`` seconds."""
    before = set(clock.board)
    if rng.random() < 0.3 and before != board:
        for _ in range(rng.randint(1, 3)):
            _emit(clock, board)
            clock.t += rng.uniform(0.001, 0.004)
            _emit(clock, before)
            clock.t += rng.uniform(0.001, 0.004)
    _emit(clock, board)
    clock.t += dwell


def _play(
    clock: _Clock, pos: PositionIndex, move: Move, rng: random.Random, settings: Settings
) -> None:
    settle = settings.settle
    shape = next(s for s in pos.shapes if s.move == move)
    siblings = [s for s in pos.by_final[shape.final] if s.move.start == move.start]
    ambiguous = len(siblings) > 1
    start_board = set(clock.board)

    def dwell(board: set[Square], longest: float = 0.6) -> float:
        """In-hand pauses; short on a board that is another move's final position."""
        if pos.mask(board) in pos.by_final and board != final_board:
            return rng.uniform(0.01, settle * 0.5)
        return rng.uniform(0.02, longest)

    final_board = (start_board - {move.start} - set(move.captures)) | {move.end}
    # a hesitation: lift the chip and put it back
    if rng.random() < 0.2:
        _change(clock, start_board - {move.start}, rng, rng.uniform(0.05, 0.5))
        _change(clock, start_board, rng, rng.uniform(0.05, 0.4))
    board = set(start_board)
    taken = list(move.captures)
    rng.shuffle(taken)
    early = rng.randint(0, len(taken))
    for sq in taken[:early]:  # some taken chips removed before the taker moves
        board.discard(sq)
        _change(clock, board, rng, dwell(board))
    board.discard(move.start)
    stops = list(move.path[1:-1])
    slide = not move.captures and not ambiguous and rng.random() < 0.4
    if slide:
        # the chip never leaves the board: it is sensed on every square it passes
        for sq in _line(move.start, move.end):
            _change(
                clock,
                (board | {sq}) | ({move.start} if sq == move.path[1] else set()),
                rng,
                rng.uniform(0.005, 0.03),
            )
            _change(clock, board | {sq}, rng, rng.uniform(0.005, 0.03))
    else:
        _change(clock, board, rng, dwell(board))
        for sq in stops:
            if ambiguous or rng.random() < 0.5:
                _change(clock, board | {sq}, rng, dwell(board | {sq}))
                _change(clock, board, rng, dwell(board, 0.2))
    rest = taken[early:]
    split = rng.randint(0, len(rest)) if rest else 0
    for sq in rest[:split]:  # some removed while the taker is in hand
        board.discard(sq)
        _change(clock, board, rng, dwell(board))
    board.add(move.end)
    _change(clock, board, rng, dwell(board) if rest[split:] else 0.0)
    for sq in rest[split:]:
        board.discard(sq)
        _change(clock, board, rng, dwell(board) if sq != rest[-1] else 0.0)
    clock.t += settle + rng.uniform(0.01, 0.4)
    if ambiguous:
        touched = pos.mask(set(move.path[1:]))
        left = resolve(siblings, touched, pos)
        if len(left) > 1:
            for _ in range(left.index(shape) + 1):
                clock.lines.append(f'{{"t": {round(clock.t, 3)}, "button": "next"}}')
                clock.t += 0.2
            clock.lines.append(f'{{"t": {round(clock.t, 3)}, "button": "confirm"}}')
            clock.t += 0.2


def _crown(clock: _Clock, square: Square, rng: random.Random, settings: Settings) -> None:
    board = set(clock.board)
    _change(clock, board - {square}, rng, rng.uniform(0.2, 2.0))
    _change(clock, board, rng, settings.settle + rng.uniform(0.01, 0.3))


def _line(a: Square, b: Square) -> list[Square]:
    """Every square from after ``a`` to ``b`` along their diagonal."""
    dx = 1 if b[0] > a[0] else -1
    dy = 1 if b[1] > a[1] else -1
    return [(a[0] + k * dx, a[1] + k * dy) for k in range(1, abs(b[0] - a[0]) + 1)]
