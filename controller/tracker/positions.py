"""What a board may look like during and after each legal move of one position.

Built once per position, then every frame is a few bit operations per legal move. Squares are
bits (the engine's dense index), so an occupancy is one int. For each move we keep its final
occupancy and what may change while it is being played: the start and the taken chips may
disappear, and at most one square of the chip's trail (every square it passes over or lands on)
may hold it. That covers chips in hand, set down on intermediate landings, slid along a diagonal,
and taken chips removed in any order, before or after the taker moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.rules.game import Game
from controller.rules.move import Move, Square


@dataclass(frozen=True, slots=True)
class MoveShape:
    move: Move
    start: int
    """Bit of the start square."""
    removable: int
    """Bits that may be empty while the move is in progress: the start and every taken chip."""
    trail: int
    """Bits of the squares the chip may stand on while moving (landings, end, passed over)."""
    final: int
    landings: frozenset[Square]
    """The intermediate landing squares (path without start and end): what tells D-5 paths apart."""


class PositionIndex:
    """The occupancies reachable during and after every legal move of ``game``'s position."""

    def __init__(self, game: Game) -> None:
        self.index = game.geo.index
        self.squares = game.geo.squares
        self.size = game.rules.size
        self.occupied = self.mask(game.occupied())
        self.moves = game.legal_moves()
        self.side = game.side_to_move
        self.chips = game.chips()
        self.shapes = [self._shape(m) for m in self.moves]
        self.by_final: dict[int, list[MoveShape]] = {}
        for shape in self.shapes:
            self.by_final.setdefault(shape.final, []).append(shape)
        self.starts = {s.start for s in self.shapes}
        self.must_take = bool(self.moves) and self.moves[0].is_capture

    def mask(self, squares: object) -> int:
        index = self.index
        m = 0
        for sq in squares:  # type: ignore[attr-defined]
            m |= 1 << index[sq]
        return m

    def squares_of(self, mask: int) -> tuple[Square, ...]:
        out = []
        i = 0
        while mask:
            if mask & 1:
                out.append(self.squares[i])
            mask >>= 1
            i += 1
        return tuple(sorted(out))

    def _shape(self, move: Move) -> MoveShape:
        bit = self.index
        start = 1 << bit[move.start]
        taken = self.mask(move.captures)
        trail = 0
        for a, b in zip(move.path, move.path[1:], strict=False):
            trail |= self.mask(_between(a, b)) | 1 << bit[b]
        trail &= ~taken
        final = (self.occupied & ~start & ~taken) | 1 << bit[move.end]
        return MoveShape(move, start, start | taken, trail, final, frozenset(move.path[1:-1]))

    def in_progress(self, board: int, allowed_start: int | None = None) -> list[MoveShape]:
        """The moves of which ``board`` can be a moment while they are played."""
        gone = self.occupied & ~board
        new = board & ~self.occupied
        if new & (new - 1):
            return []  # two new chips: never one move
        out = []
        for s in self.shapes:
            if allowed_start is not None and s.start != allowed_start:
                continue
            if gone & ~s.removable or new & ~s.trail:
                continue
            if new and not gone & s.start:
                continue  # a chip appeared but the mover is still on its start
            out.append(s)
        return out

    def destinations(self, start: Square) -> tuple[Square, ...]:
        return tuple(sorted({s.move.end for s in self.shapes if s.move.start == start}))


def _between(a: Square, b: Square) -> list[Square]:
    """The squares strictly between two squares of one diagonal."""
    dx = 1 if b[0] > a[0] else -1
    dy = 1 if b[1] > a[1] else -1
    return [(a[0] + k * dx, a[1] + k * dy) for k in range(1, abs(b[0] - a[0]))]
