"""The generic draughts move generator: one core for every rule set.

A board is a flat list of cells over the playable squares (see ``geometry``): 0 is empty,
+1/+2 a man/king of the side that moves first, -1/-2 of the other side. A raw move is a tuple
``(path, captured, promotes, by_king)`` of dense indices, cheap to build and compare; ``game``
turns raw moves into ``Move`` records with coordinates, chips and takings.

Captured pieces stay on the board until the sequence ends (RULES.md D-4), so they block and can
never be jumped twice; the moving piece's own starting square counts as empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .geometry import DIRECTIONS, DOWN, UP, Geometry, geometry
from .ruleset import KingTurns, Priority, RuleSet, Trail

EMPTY, MAN, KING = 0, 1, 2

RawMove = tuple[tuple[int, ...], tuple[int, ...], bool, bool]
"""(path, captured squares in order, promotes, moved piece is a king)."""


class Board:
    """Mutable generator state: cells and the side to move, with make/unmake for search."""

    __slots__ = (
        "_bits",
        "_capture_dirs",
        "_crown_stops",
        "_edge_kings",
        "_edge_turn",
        "_forward",
        "_promo",
        "_rays",
        "cells",
        "geo",
        "rules",
        "side",
    )

    def __init__(self, rules: RuleSet, cells: Iterable[int], side: int) -> None:
        self.rules = rules
        self.geo: Geometry = geometry(rules.size, rules.parity)
        self.cells = list(cells)
        if len(self.cells) != self.geo.count:
            raise ValueError(f"a {rules.size}x{rules.size} board has {self.geo.count} squares")
        self.side = side
        self._rays = self.geo.rays
        self._bits = tuple(1 << i for i in range(self.geo.count))
        every = (0, 1, 2, 3)
        self._forward = (every, every) if rules.men_move_backward else (UP, DOWN)
        self._capture_dirs = (
            (0, 1, 2, 3) if rules.men_capture_backward else UP,
            (0, 1, 2, 3) if rules.men_capture_backward else DOWN,
        )
        last = rules.size - 1
        self._promo = (
            frozenset(self.geo.row(last)),  # the first mover promotes on the far row
            frozenset(self.geo.row(0)),
        )
        self._crown_stops = rules.crowning_ends_capture
        self._edge_kings = rules.flying_kings and rules.king_turns is KingTurns.AT_EDGE
        self._edge_turn = edge_turns(rules.size, rules.parity) if self._edge_kings else ()

    def copy(self) -> Board:
        return Board(self.rules, self.cells, self.side)

    # ------------------------------------------------------------------ generation

    def moves(self) -> list[RawMove]:
        """Every legal move: the captures the priority rule allows, else the quiet moves."""
        captures = self.captures()
        if captures:
            return _prioritise(captures, self.rules.priority, self.cells)
        return self.quiet_moves()

    def quiet_moves(self) -> list[RawMove]:
        cells = self.cells
        rays = self._rays
        sgn = 1 if self.side == 0 else -1
        promo = self._promo[self.side]
        forward = self._forward[self.side]
        flying = self.rules.flying_kings
        out: list[RawMove] = []
        for sq, c in enumerate(cells):
            c *= sgn
            if c == MAN:
                r = rays[sq]
                for d in forward:
                    ray = r[d]
                    if ray and cells[ray[0]] == EMPTY:
                        to = ray[0]
                        out.append(((sq, to), (), to in promo, False))
            elif c == KING:
                for ray in rays[sq]:
                    for to in ray:
                        if cells[to] != EMPTY:
                            break
                        out.append(((sq, to), (), False, True))
                        if not flying:
                            break
        return out

    def captures(self) -> list[RawMove]:
        """Every complete capture sequence of the side to move, before the priority rule."""
        cells = self.cells
        sgn = 1 if self.side == 0 else -1
        out: list[RawMove] = []
        for sq, c in enumerate(cells):
            c *= sgn
            if c <= 0:
                continue
            cells[sq] = EMPTY  # the moving piece leaves its square
            if c == MAN:
                self._man_captures(sq, sgn, [sq], [], out)
            elif self._edge_kings:
                for d in range(4):
                    self._edge_leg(sq, d, sgn, [sq], [], out)
            elif self.rules.flying_kings:
                trail_mode = self.rules.king_trail
                trail = 0 if trail_mode is Trail.FREE else self._bits[sq]
                self._flying_captures(sq, sgn, [sq], [], trail, trail_mode is Trail.STRICT, out)
            else:
                self._short_king_captures(sq, sgn, [sq], [], out)
            cells[sq] = c * sgn
        return out

    def _man_captures(
        self, sq: int, sgn: int, path: list[int], captured: list[int], out: list[RawMove]
    ) -> None:
        if self._crown_stops and captured and sq in self._promo[self.side]:
            out.append((tuple(path), tuple(captured), True, False))  # crowned: the move ends
            return
        cells = self.cells
        rays = self._rays[sq]
        no_kings = not self.rules.men_capture_kings
        extended = False
        for d in self._capture_dirs[self.side]:
            ray = rays[d]
            if len(ray) < 2:
                continue
            over = ray[0]
            c = cells[over] * sgn
            if c >= 0 or cells[ray[1]] != EMPTY or over in captured:
                continue
            if no_kings and c == -KING:
                continue
            land = ray[1]
            captured.append(over)
            path.append(land)
            self._man_captures(land, sgn, path, captured, out)
            path.pop()
            captured.pop()
            extended = True
        if not extended and captured:
            out.append((tuple(path), tuple(captured), sq in self._promo[self.side], False))

    def _short_king_captures(
        self, sq: int, sgn: int, path: list[int], captured: list[int], out: list[RawMove]
    ) -> None:
        cells = self.cells
        extended = False
        for ray in self._rays[sq]:
            if len(ray) < 2:
                continue
            over = ray[0]
            if cells[over] * sgn >= 0 or cells[ray[1]] != EMPTY or over in captured:
                continue
            land = ray[1]
            captured.append(over)
            path.append(land)
            self._short_king_captures(land, sgn, path, captured, out)
            path.pop()
            captured.pop()
            extended = True
        if not extended and captured:
            out.append((tuple(path), tuple(captured), False, True))

    def _flying_captures(
        self,
        sq: int,
        sgn: int,
        path: list[int],
        captured: list[int],
        trail: int,
        extend_trail: bool,
        out: list[RawMove],
    ) -> None:
        """A flying king jumps one piece at any distance and lands on any empty square beyond.

        ``trail`` holds the squares it may not pass over or land on (D-3); it grows with every
        square passed when ``extend_trail`` (the strict reading), else stays the start square.
        """
        cells = self.cells
        bits = self._bits
        extended = False
        for ray in self._rays[sq]:
            n = len(ray)
            i = 0
            passed = 0
            while i < n and cells[ray[i]] == EMPTY:
                passed |= bits[ray[i]]
                i += 1
            if i >= n - 1:
                continue
            over = ray[i]
            if cells[over] * sgn >= 0 or over in captured or passed & trail:
                continue
            j = i + 1
            captured.append(over)
            while j < n:
                land = ray[j]
                if cells[land] != EMPTY or bits[land] & trail:
                    break
                passed |= bits[land]
                path.append(land)
                self._flying_captures(
                    land,
                    sgn,
                    path,
                    captured,
                    (trail | passed) if extend_trail else trail,
                    extend_trail,
                    out,
                )
                path.pop()
                extended = True
                j += 1
            captured.pop()
        if not extended and captured:
            out.append((tuple(path), tuple(captured), False, True))

    def _edge_leg(
        self, sq: int, d: int, sgn: int, path: list[int], captured: list[int], out: list[RawMove]
    ) -> None:
        """One leg of a Dam king's taking (``KingTurns.AT_EDGE``), from ``sq`` along ``d``.

        The king jumps the first opposing piece on the diagonal (the square beyond it empty),
        then may stop on any empty square before the next piece or the edge, or go on along
        the same diagonal to jump the next one; only a leg that ends on the edge square may go
        on, at a right angle. Every stop is a complete move. A jump that the leg passes
        through is recorded in the path by the square just beyond the jumped piece.
        """
        cells = self.cells
        ray = self._rays[sq][d]
        n = len(ray)
        i = 0
        while i < n and cells[ray[i]] == EMPTY:
            i += 1
        if i >= n - 1:
            return
        over = ray[i]
        if cells[over] * sgn >= 0 or over in captured or cells[ray[i + 1]] != EMPTY:
            return
        captured.append(over)
        j = i + 1
        while j < n and cells[ray[j]] == EMPTY:
            path.append(ray[j])
            out.append((tuple(path), tuple(captured), False, True))
            if j == n - 1:
                turn = self._edge_turn[ray[j]][d]
                if turn >= 0:
                    self._edge_leg(ray[j], turn, sgn, path, captured, out)
            path.pop()
            j += 1
        if j < n:  # a piece ends the run of empty squares: the leg may go on over it
            path.append(ray[i + 1])
            self._edge_leg(ray[i + 1], d, sgn, path, captured, out)
            path.pop()
        captured.pop()

    # ------------------------------------------------------------------ make / unmake

    def make(self, move: RawMove) -> tuple[int, tuple[int, ...]]:
        """Play ``move``; returns what ``unmake`` needs (the moved piece, the captured pieces)."""
        cells = self.cells
        path, captured, promotes, _ = move
        start = path[0]
        piece = cells[start]
        taken = tuple(cells[s] for s in captured)
        cells[start] = EMPTY
        for s in captured:
            cells[s] = EMPTY
        cells[path[-1]] = (KING if piece > 0 else -KING) if promotes else piece
        self.side ^= 1
        return piece, taken

    def unmake(self, move: RawMove, undo: tuple[int, tuple[int, ...]]) -> None:
        cells = self.cells
        path, captured, _, _ = move
        piece, taken = undo
        cells[path[-1]] = EMPTY
        for s, c in zip(captured, taken, strict=True):
            cells[s] = c
        cells[path[0]] = piece
        self.side ^= 1


@cache
def edge_turns(size: int, parity: int) -> tuple[tuple[int, ...], ...]:
    """For each square and arrival direction, the direction at a right angle that leads back
    into the board from an edge square (-1 elsewhere, and in the corners, where none does)."""
    geo = geometry(size, parity)
    last = size - 1
    table = []
    for x, y in geo.squares:
        row = []
        for dx, dy in DIRECTIONS:
            on_side = x in (0, last)
            on_end = y in (0, last)
            if on_side and not on_end:
                row.append(DIRECTIONS.index((-dx, dy)))
            elif on_end and not on_side:
                row.append(DIRECTIONS.index((dx, -dy)))
            else:
                row.append(-1)
        table.append(tuple(row))
    return tuple(table)


def _prioritise(captures: list[RawMove], priority: Priority, cells: list[int]) -> list[RawMove]:
    """Keep only the capture sequences the rule set's priority allows (RULES.md D-1)."""
    if priority is Priority.ANY:
        return captures
    if priority is Priority.DAMA_THEN_MOST:
        by_dama = [m for m in captures if m[3]]
        if by_dama:
            captures = by_dama
    most = max(len(m[1]) for m in captures)
    best = [m for m in captures if len(m[1]) == most]
    if priority is Priority.MOST_THEN_DAMA:
        by_dama = [m for m in best if m[3]]
        return by_dama or best
    if priority is Priority.ITALIAN:
        by_king = [m for m in best if m[3]]
        best = by_king or best

        def kings_taken(m: RawMove) -> tuple[int, tuple[bool, ...]]:
            flags = tuple(abs(cells[s]) == KING for s in m[1])
            return sum(flags), flags

        top = max(kings_taken(m) for m in best)
        best = [m for m in best if kings_taken(m) == top]
    return best
