"""Iterative-deepening principal-variation search over ``Position``.

What it does, and where the idea comes from (the published descriptions of Scan, Kingsrow and
the chess programs they learnt from; no code of theirs):

- negamax alpha-beta with principal-variation search (a null window for every move after the
  first, re-searched when it surprises) and iterative deepening, each iteration ordering the
  root by the last one's values;
- a transposition table keyed by the Zobrist key of the board with the chips' values *and* the
  takings difference so far (two paths to one placement may have scored differently, and the
  value of a node is the final grand-total difference, which includes what was scored before);
  no cut-offs from the table at principal-variation nodes, so the reported line is whole;
- move ordering: the table's move, then takings by their exact score for the mover, then
  killer moves and the history heuristic for quiet moves, promotions first among equals;
- late-move reductions for quiet moves far down the list (re-searched at full depth when they
  beat alpha), a one-ply extension when a side has a single legal move (a forced taking);
- a quiescence search over takings: taking is mandatory, so a position with a taking is never
  evaluated statically; the side to move may "stand pat" only when it has no taking;
- the rules' endings (no chip, no move, repetition D-9, the online single-chip rule) valued by
  the exact grand-total difference, plus a bonus beyond any score for the winner, so that a
  proven win is preferred to any estimate; among proven wins, the bigger margin.

Time only enters through ``clock`` (an injected function returning seconds) and a deadline;
with a depth limit and no deadline the search is a pure function of the position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.rules.movegen import RawMove

from .position import Position

MAX_PLY = 96
TT_ENTRIES = 400_000
"""About 60 MB of table at most: a Raspberry Pi's memory is shared with the board."""
EXACT, LOWER, UPPER = 0, 1, 2


class Timeout(Exception):
    """The deadline or the node budget was reached; the search unwinds to the root."""


@dataclass(frozen=True)
class SearchConfig:
    """The search's techniques, each switchable: the match harness plays the engine against
    itself without some of them (earlier, simpler versions), to show what each one is worth."""

    transposition: bool = True
    pvs: bool = True
    killers: bool = True
    history: bool = True
    reductions: bool = True
    quiescence: bool = True
    extend_forced: bool = True


FULL = SearchConfig()


@dataclass(frozen=True)
class Limits:
    """When to stop: a depth, a deadline in seconds from the start, a node budget."""

    depth: int = 64
    seconds: float | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class SearchResult:
    move: RawMove
    value: int
    """The search's value for the side to move, in keys (``tables.KeyScale``); beyond ``win``
    when a win is proven."""
    depth: int
    nodes: int
    seconds: float
    pv: tuple[RawMove, ...]
    win: int


@dataclass(frozen=True)
class RootValue:
    move: RawMove
    value: int
    pv: tuple[RawMove, ...]


def _never() -> float:
    return 0.0


class Search:
    """One search (its tables live as long as the object: build one per question, so a fixed
    depth gives the same answer every time)."""

    def __init__(
        self,
        pos: Position,
        config: SearchConfig = FULL,
        clock: Callable[[], float] = _never,
    ) -> None:
        self.pos = pos
        self.config = config
        self.clock = clock
        self.tt: dict[int, tuple[int, int, int, RawMove | None]] = {}
        self.killers: list[list[RawMove | None]] = [[None, None] for _ in range(MAX_PLY + 1)]
        self.history = [0] * (2 * 32 * 32)
        self.pv: list[tuple[RawMove, ...]] = [() for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self._deadline: float | None = None
        self._max_nodes: int | None = None
        psq = max(map(abs, pos.psq_table), default=0)
        bound = 64 * pos.tables.largest + abs(pos.totd) + 24 * psq + 1
        self.win = 1 << (bound.bit_length() + 1)
        self.inf = self.win * 4

    # ------------------------------------------------------------------ entry points

    def run(self, limits: Limits) -> SearchResult:
        """Iterative deepening to ``limits``; the best move of the last finished iteration (or
        of the unfinished one, when a move finished searching and beat it)."""
        pos = self.pos
        start = self.clock()
        self._deadline = start + limits.seconds if limits.seconds is not None else None
        self._max_nodes = limits.nodes
        moves = pos.moves()
        if not moves:
            raise ValueError("the side to move has no legal move")
        root = self._order(moves, None, 0)
        best: RootValue | None = None
        depth_done = 0
        snap = pos.snapshot()
        deadline, max_nodes = self._deadline, self._max_nodes
        for depth in range(1, max(1, limits.depth) + 1):
            # Depth 1 always finishes, so there is always a move to answer with.
            self._deadline = deadline if depth > 1 else None
            self._max_nodes = max_nodes if depth > 1 else None
            try:
                values = self._root(root, depth)
            except Timeout:
                pos.restore(snap)
                if self._partial is not None:
                    best = self._partial  # finished this iteration, and beat the rest so far
                break
            best = values[0]
            depth_done = depth
            root = [rv.move for rv in values]
            if len(moves) == 1 and deadline is not None:
                break  # a forced move: no time spent on it in a game
            if deadline is not None and self.clock() - start > 0.6 * (deadline - start):
                break  # the next iteration would not finish
        assert best is not None  # depth 1 always finishes: time is checked only below it
        return SearchResult(
            best.move,
            best.value,
            depth_done,
            self.nodes,
            self.clock() - start,
            best.pv,
            self.win,
        )

    def analyse(self, limits: Limits) -> tuple[list[RootValue], int]:
        """Every root move with its own value (a full window for each), best first, at the
        deepest depth finished within ``limits``, and that depth: what choosing among good
        moves by a temperature needs."""
        pos = self.pos
        start = self.clock()
        deadline = start + limits.seconds if limits.seconds is not None else None
        moves = self._order(pos.moves(), None, 0)
        done: list[RootValue] = []
        depth_done = 0
        snap = pos.snapshot()
        for depth in range(1, max(1, limits.depth) + 1):
            self._deadline = deadline if depth > 1 else None
            self._max_nodes = limits.nodes if depth > 1 else None
            out = []
            try:
                for m in moves:
                    undo = pos.make(m)
                    v = -self._search(depth - 1, -self.inf, self.inf, 1)
                    pos.unmake(m, undo)
                    out.append(RootValue(m, v, (m, *self.pv[1])))
            except Timeout:
                pos.restore(snap)
                break
            out.sort(key=lambda rv: rv.value, reverse=True)
            done, depth_done = out, depth
            moves = [rv.move for rv in out]
        return done, depth_done

    def value_of(self, move: RawMove, depth: int) -> RootValue:
        """The value of one root move at ``depth`` (a full window)."""
        pos = self.pos
        undo = pos.make(move)
        v = -self._search(depth - 1, -self.inf, self.inf, 1)
        pos.unmake(move, undo)
        return RootValue(move, v, (move, *self.pv[1]))

    # ------------------------------------------------------------------ root

    _partial: RootValue | None = None

    def _root(self, moves: list[RawMove], depth: int) -> list[RootValue]:
        """One iteration at the root: every move, best first (the others' values are bounds)."""
        pos = self.pos
        alpha, beta = -self.inf, self.inf
        self._partial = None
        scored: list[RootValue] = []
        for i, m in enumerate(moves):
            undo = pos.make(m)
            if i == 0 or not self.config.pvs:
                v = -self._search(depth - 1, -beta, -alpha, 1)
            else:
                v = -self._search(depth - 1, -alpha - 1, -alpha, 1)
                if v > alpha:
                    v = -self._search(depth - 1, -beta, -alpha, 1)
            pos.unmake(m, undo)
            rv = RootValue(m, v, (m, *self.pv[1]))
            if v > alpha:
                alpha = v
                scored.insert(0, rv)
                self._partial = rv
            else:
                scored.append(rv)
        return scored

    # ------------------------------------------------------------------ the tree

    def _tick(self) -> None:
        if self._deadline is not None and self.clock() >= self._deadline:
            raise Timeout
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            raise Timeout

    def _final(self) -> int:
        v = self.pos.final()
        if v > 0:
            return v + self.win
        if v < 0:
            return v - self.win
        return 0

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        pos = self.pos
        self.nodes += 1
        if not self.nodes & 1023:
            self._tick()
        self.pv[ply] = ()
        if pos.terminal() is not None:
            return self._final()
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply)
        config = self.config
        key = pos.key()
        tt_move = None
        if config.transposition:
            entry = self.tt.get(key)
            if entry is not None:
                d, flag, val, tt_move = entry
                cut = flag == EXACT or (val >= beta if flag == LOWER else val <= alpha)
                if d >= depth and beta - alpha == 1 and cut:
                    return val
        moves = pos.moves()
        if not moves:
            return self._final()
        new_depth = depth - 1
        if len(moves) == 1 and config.extend_forced:
            new_depth = depth
        ordered = self._order(moves, tt_move, ply)
        alpha0 = alpha
        best = -self.inf
        best_move = None
        pvs = config.pvs
        reduce = config.reductions and depth >= 3
        killers = self.killers[ply]
        make, unmake = pos.make, pos.unmake
        for i, m in enumerate(ordered):
            undo = make(m)
            if i == 0 or not pvs:
                v = -self._search(new_depth, -beta, -alpha, ply + 1)
            else:
                r = 0
                if reduce and i >= 3 and not m[1] and not m[2] and m not in killers:
                    r = 2 if (i >= 8 and depth >= 5) else 1
                v = -self._search(new_depth - r, -alpha - 1, -alpha, ply + 1)
                if r and v > alpha:
                    v = -self._search(new_depth, -alpha - 1, -alpha, ply + 1)
                if alpha < v < beta:
                    v = -self._search(new_depth, -beta, -alpha, ply + 1)
            unmake(m, undo)
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    self.pv[ply] = (m, *self.pv[ply + 1])
                    if v >= beta:
                        if not m[1]:
                            self._reward(m, depth, ply)
                        break
        if config.transposition:
            flag = LOWER if best >= beta else EXACT if best > alpha0 else UPPER
            if len(self.tt) >= TT_ENTRIES:
                self.tt.clear()  # rare (minutes of search): start afresh rather than grow
            self.tt[key] = (depth, flag, best, best_move)
        return best

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        pos = self.pos
        self.nodes += 1
        if not self.nodes & 1023:
            self._tick()
        self.pv[ply] = ()
        if not pos.count[pos.board.side]:
            return self._final()
        moves = pos.moves()
        if not moves:
            return self._final()
        if not moves[0][1] or not self.config.quiescence or ply >= MAX_PLY:
            return pos.evaluate()  # no taking: the side to move may stand pat
        best = -self.inf
        gain = pos.capture_gain
        ordered = sorted(moves, key=gain, reverse=True) if len(moves) > 1 else moves
        make, unmake = pos.make, pos.unmake
        for m in ordered:
            undo = make(m)
            v = -self._quiesce(-beta, -alpha, ply + 1)
            unmake(m, undo)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    self.pv[ply] = (m, *self.pv[ply + 1])
                    if v >= beta:
                        break
        return best

    # ------------------------------------------------------------------ ordering

    def _order(self, moves: list[RawMove], tt_move: RawMove | None, ply: int) -> list[RawMove]:
        if len(moves) > 1:
            if moves[0][1]:
                moves = sorted(moves, key=self.pos.capture_gain, reverse=True)
            else:
                history = self.history
                base = self.pos.board.side * 1024
                use_history = self.config.history
                k1, k2 = self.killers[ply] if self.config.killers else (None, None)

                def rank(m: RawMove) -> int:
                    path = m[0]
                    s = history[base + path[0] * 32 + path[-1]] if use_history else 0
                    if m == k1:
                        s += 1 << 42
                    elif m == k2:
                        s += 1 << 41
                    if m[2]:
                        s += 1 << 43
                    return s

                moves = sorted(moves, key=rank, reverse=True)
        if tt_move is not None and moves[0] != tt_move and tt_move in moves:
            moves = [tt_move, *(m for m in moves if m != tt_move)]
        return moves

    def _reward(self, move: RawMove, depth: int, ply: int) -> None:
        if self.config.killers:
            killers = self.killers[ply]
            if killers[0] != move:
                killers[1] = killers[0]
                killers[0] = move
        if self.config.history:
            path = move[0]
            self.history[self.pos.board.side * 1024 + path[0] * 32 + path[-1]] += depth * depth
