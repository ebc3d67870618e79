"""The search's own position: the rules engine's generator board plus what Damath scores.

Legal moves come from the rules engine's generator (``movegen.Board.moves``), the one source
of legality; this class plays them on the same cells and keeps, incrementally and exactly (as
integer keys, ``tables``), what a Damath search needs and a draughts search does not:

- ``grand``: the grand total difference, Blue minus Red, *if the game ended now*: takings so far
  plus every remaining chip (a dama doubled in the official profile, a monomial evaluated on its
  square). At the end of a game this is the result itself (RULES.md §5);
- ``totd``: the takings difference alone (part of the transposition key, since two ways to reach
  one placement can have scored differently);
- ``psq``: the heuristic part of the evaluation, from per-square tables (``evaluation``);
- ``zob``: a Zobrist key over the flat board *with the chips' values* (two chips of different
  values are different positions, E-4) and the side to move;
- the repetition history (D-9) and, for the online profile, each side's run of quiet moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from controller.rules.game import EndReason, Game
from controller.rules.move import Chip, Square
from controller.rules.movegen import Board, RawMove
from controller.rules.scoring import Score, kind_of, score_move, zero_score
from controller.rules.values import Value

from .evaluation import EvalWeights, square_table
from .tables import ScoreTables, score_tables

MASK64 = (1 << 64) - 1
_MIX = 0x9E3779B97F4A7C15


@cache
def zobrist_keys(n_values: int) -> tuple[tuple[int, ...], int]:
    """Random 64-bit keys per (square, piece code, value id), and the side-to-move key.

    Seeded: the same position gets the same key in every run, so searches are reproducible.
    """
    rng = random.Random(0x5EED_DA3A)
    keys = tuple(rng.getrandbits(64) for _ in range(32 * 5 * n_values))
    return keys, rng.getrandbits(64)


@dataclass(frozen=True)
class Terminal:
    """Why the search considers a position finished (the rules' endings, RULES.md §5, D-9)."""

    reason: EndReason


Undo = tuple[Any, ...]


class Position:
    """A Damath position being searched; ``make``/``unmake`` keep every key exact."""

    __slots__ = (
        "_root_rep",
        "_side_key",
        "_zkeys",
        "board",
        "cells",
        "count",
        "grand",
        "n_values",
        "psq",
        "psq_table",
        "quiet_run",
        "rep",
        "rep_start",
        "repetition_rule",
        "tables",
        "totd",
        "vid",
        "zob",
    )

    def __init__(
        self,
        board: Board,
        vid: list[int],
        tables: ScoreTables,
        totals: tuple[Score, Score],
        weights: EvalWeights,
        repetition_rule: str,
        history: Sequence[int] = (),
        quiet_run: tuple[int, int] = (0, 0),
    ) -> None:
        """``history``: placement keys of the game's positions before this one since its last
        irreversible move, oldest first (the game's part of the repetition count)."""
        self.board = board
        self.cells = board.cells
        self.vid = vid
        self.tables = tables
        self.n_values = len(tables.values)
        self.repetition_rule = repetition_rule
        self._zkeys, self._side_key = zobrist_keys(max(1, self.n_values))
        self.psq_table = square_table(weights, tables.typical)
        key = tables.key
        self.totd = key(totals[0]) - key(totals[1])
        self.grand = self.totd
        self.psq = 0
        zob = 0
        count = [0, 0]
        rc = tables.remaining
        for sq, c in enumerate(self.cells):
            if not c:
                continue
            v = vid[sq]
            sgn = 1 if c > 0 else -1
            count[0 if c > 0 else 1] += 1
            self.grand += sgn * rc[(v * 32 + sq) * 2 + (c * sgn == 2)]
            self.psq += self.psq_table[sq * 5 + c + 2]
            zob ^= self._zkeys[(sq * 5 + c + 2) * self.n_values + v]
        if board.side:
            zob ^= self._side_key
        self.zob = zob
        self.count = count
        self.quiet_run = list(quiet_run)
        self.rep = [*history, zob]
        self.rep_start = 0
        self._root_rep = len(self.rep) - 1

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_game(
        cls,
        game: Game,
        weights: EvalWeights,
        base_totals: tuple[Score, Score] | None = None,
    ) -> Position:
        """The position of a Damath ``game``; totals are ``base_totals`` (the totals so far when
        the game started from a position) plus every taking the game has played."""
        if game.variant is None or game.profile is None:
            raise ValueError("the engine plays Damath: a game with a variant and a profile")
        kind = kind_of(game.variant)
        totals = game_totals(game, base_totals)
        board = game.generator_board()
        # Value ids from the game's start, not from the chips left now: the tables (built
        # once per game and cached) then serve every move of the game, takings or not.
        squares = board.geo.squares
        chips = game.chips()
        values = {v: i for i, v in enumerate(_start_values(game, chips))}
        vid = [-1] * len(squares)
        for i, sq in enumerate(squares):
            chip = chips.get(sq)
            if chip is not None:
                vid[i] = values[chip.value]
        rc_profile = "official" if game.profile.remaining_dama_double else "online"
        # The totals the game's own takings make are sums of table scores; only totals given
        # with a position come from outside the tables.
        extra = () if base_totals is None else (base_totals[0], base_totals[1])
        tables = score_tables(tuple(values), kind, rc_profile, extra)
        history, quiet = _history(game, board, vid, tables)
        return cls(
            board,
            vid,
            tables,
            (totals[0], totals[1]),
            weights,
            game.profile.repetition,
            history=history,
            quiet_run=quiet,
        )

    # ------------------------------------------------------------------ state

    @property
    def side(self) -> int:
        return self.board.side

    def key(self) -> int:
        """The transposition key: the placement with values and side, and the takings so far."""
        return self.zob ^ ((self.totd * _MIX) & MASK64)

    def moves(self) -> list[RawMove]:
        return self.board.moves()

    def evaluate(self) -> int:
        """Static value for the side to move: the exact grand-total difference if the game
        ended now, plus the heuristic tables."""
        v = self.grand + self.psq
        return -v if self.board.side else v

    def final(self) -> int:
        """The exact grand-total difference for the side to move (the game is over)."""
        return -self.grand if self.board.side else self.grand

    def capture_gain(self, move: RawMove) -> int:
        """The key of the mover's score for ``move`` (0 for a quiet move)."""
        path, captured, _, _ = move
        if not captured:
            return 0
        cells, vid = self.cells, self.vid
        start = path[0]
        mover_dama = cells[start] in (2, -2)
        taking = self.tables.taking
        base = vid[start] * self.n_values
        gain = 0
        for k, s in enumerate(captured):
            m = mover_dama + (cells[s] in (2, -2))
            gain += taking[((base + vid[s]) * 32 + path[k + 1]) * 3 + m]
        return gain

    def terminal(self, at_root: bool = False) -> Terminal | None:
        """A rules ending reached by the last move (no chips; repetition), not counting "no
        moves", which the caller sees when it generates the moves."""
        side = self.board.side
        if not self.count[side]:
            return Terminal(EndReason.NO_CHIPS)
        if self.repetition_rule == "threefold":
            rep = self.rep
            z = rep[-1]
            seen_in_game = 0
            i = len(rep) - 5
            while i >= self.rep_start:
                if rep[i] == z:
                    if i >= self._root_rep and not at_root:
                        return Terminal(EndReason.REPETITION)  # a cycle inside the search
                    seen_in_game += 1
                i -= 2
            if seen_in_game >= 2:
                return Terminal(EndReason.REPETITION)
        else:  # online: the player who just moved has one chip and made five quiet moves
            mover = side ^ 1
            if self.count[mover] == 1 and self.quiet_run[mover] >= 5:
                return Terminal(EndReason.REPETITION)
        return None

    # ------------------------------------------------------------------ make / unmake

    def make(self, move: RawMove) -> Undo:
        path, captured, promotes, _ = move
        cells, vid = self.cells, self.vid
        zkeys, psqt, nv = self._zkeys, self.psq_table, self.n_values
        rc = self.tables.remaining
        start, end = path[0], path[-1]
        piece = cells[start]
        v = vid[start]
        sgn = 1 if piece > 0 else -1
        side = self.board.side
        undo: Undo = (
            piece,
            v,
            tuple((s, cells[s], vid[s]) for s in captured),
            self.zob,
            self.grand,
            self.totd,
            self.psq,
            self.rep_start,
            self.quiet_run[side],
        )
        zob = self.zob ^ zkeys[(start * 5 + piece + 2) * nv + v]
        psq = self.psq - psqt[start * 5 + piece + 2]
        grand = self.grand - sgn * rc[(v * 32 + start) * 2 + (piece * sgn == 2)]
        cells[start] = 0
        vid[start] = -1
        if captured:
            taking = self.tables.taking
            base = v * nv
            mover_dama = piece * sgn == 2
            gain = 0
            for k, s in enumerate(captured):
                c = cells[s]
                cv = vid[s]
                taken_dama = c in (2, -2)
                gain += taking[((base + cv) * 32 + path[k + 1]) * 3 + mover_dama + taken_dama]
                zob ^= zkeys[(s * 5 + c + 2) * nv + cv]
                psq -= psqt[s * 5 + c + 2]
                grand += sgn * rc[(cv * 32 + s) * 2 + taken_dama]
                cells[s] = 0
                vid[s] = -1
            grand += sgn * gain
            self.totd += sgn * gain
            self.count[side ^ 1] -= len(captured)
            self.quiet_run[side] = 0
        else:
            self.quiet_run[side] += 1
        new = 2 * sgn if promotes else piece
        cells[end] = new
        vid[end] = v
        zob ^= zkeys[(end * 5 + new + 2) * nv + v] ^ self._side_key
        psq += psqt[end * 5 + new + 2]
        grand += sgn * rc[(v * 32 + end) * 2 + (new * sgn == 2)]
        self.zob, self.psq, self.grand = zob, psq, grand
        self.board.side = side ^ 1
        if captured or piece * sgn == 1:  # takings and a chip's steps are irreversible
            self.rep_start = len(self.rep)
        self.rep.append(zob)
        return undo

    def unmake(self, move: RawMove, undo: Undo) -> None:
        path, captured, _, _ = move
        piece, v, taken, zob, grand, totd, psq, rep_start, quiet = undo
        cells, vid = self.cells, self.vid
        end = path[-1]
        cells[end] = 0
        vid[end] = -1
        for s, c, cv in taken:
            cells[s] = c
            vid[s] = cv
        cells[path[0]] = piece
        vid[path[0]] = v
        side = self.board.side ^ 1
        self.board.side = side
        if captured:
            self.count[side ^ 1] += len(captured)
        self.quiet_run[side] = quiet
        self.zob, self.grand, self.totd, self.psq = zob, grand, totd, psq
        self.rep.pop()
        self.rep_start = rep_start

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> tuple[Any, ...]:
        """Everything ``make`` changes, to restore after a search stopped in the middle."""
        return (
            list(self.cells),
            list(self.vid),
            self.board.side,
            self.zob,
            self.grand,
            self.totd,
            self.psq,
            list(self.count),
            list(self.quiet_run),
            list(self.rep),
            self.rep_start,
        )

    def restore(self, snap: tuple[Any, ...]) -> None:
        cells, vid, side, zob, grand, totd, psq, count, quiet, rep, rep_start = snap
        self.cells[:] = cells
        self.vid[:] = vid
        self.board.side = side
        self.zob, self.grand, self.totd, self.psq = zob, grand, totd, psq
        self.count[:] = count
        self.quiet_run[:] = quiet
        self.rep[:] = rep
        self.rep_start = rep_start


def game_totals(game: Game, base: tuple[Score, Score] | None = None) -> tuple[Score, Score]:
    """Each side's takings total: ``base`` (the totals when the game started from a position)
    plus every taking played since, scored by the rules engine."""
    assert game.variant is not None
    kind = kind_of(game.variant)
    totals = list(base or (zero_score(kind), zero_score(kind)))
    for side, move in game.played():
        if move.takings:
            totals[side] = totals[side] + score_move(move, game.variant).score
    return totals[0], totals[1]


def _history(
    game: Game, board: Board, vid: list[int], tables: ScoreTables
) -> tuple[list[int], tuple[int, int]]:
    """The keys of the game's positions since its last irreversible move, oldest first, and
    each side's run of quiet moves at the end of the game (the online repetition rule)."""
    played = game.played()
    quiet = [0, 0]
    for side in (0, 1):
        for s, move in reversed(played):
            if s != side:
                continue
            if move.captures:
                break
            quiet[side] += 1
    n = max(1, len(tables.values))
    zkeys, side_key = zobrist_keys(n)
    cells = list(board.cells)
    ids = list(vid)
    index = board.geo.index
    side = board.side
    keys: list[int] = []
    for _, move in reversed(played):
        if move.captures or move.chip is None or not move.chip.dama:
            break  # a taking or a chip's step cannot be undone on the board: no repetition
        a, b = index[move.path[0]], index[move.path[-1]]
        cells[a], cells[b] = cells[b], 0
        ids[a], ids[b] = ids[b], -1
        side ^= 1
        z = side_key if side else 0
        for sq, c in enumerate(cells):
            if c:
                z ^= zkeys[(sq * 5 + c + 2) * n + ids[sq]]
        keys.append(z)
    keys.reverse()
    return keys, (quiet[0], quiet[1])


def _start_values(game: Game, chips: dict[Square, Chip]) -> tuple[Value, ...]:
    """Every chip value the game started with (the chips left and the chips taken), in one
    fixed order: the same for every position of the game."""
    found = {chip.value for chip in chips.values()}
    for move in game.move_stack:
        found.update(taking.taken.value for taking in move.takings)
    return tuple(sorted(found, key=repr))
