"""Opponents for the engine's matches (bench/bench_match.py), each built from a short spec:

- ``random``: a legal move at random (seeded);
- ``greedy``: the move with the best immediate score, ties at random (seeded);
- ``engine[:key=value,…]``: this project's engine (``controller.engine.think``) with
  ``depth``, ``ms`` (time a move), ``level``, and ``no-<technique>`` switches
  (``no-tt``, ``no-pvs``, ``no-killers``, ``no-history``, ``no-lmr``, ``no-qs``,
  ``no-extend``): the engine without a technique is an earlier, simpler version of itself;
  ``dama=W`` and ``rows=K`` change the evaluation's weights (the dama's, the row table ×K);
- ``proxy[:depth=8,ms=3000]``: the closest stand-in for web-damath's strongest AI tier that can
  run here. web-damath (TypeScript, in a browser) cannot run on this machine, so its published
  design (its source: ``packages/ai``, tier "tournament") is rebuilt here in Python on the same
  move generator as our engine, so that equal time means an equal budget of the same machine:
  iterative deepening to depth 8 within the time (an unfinished iteration is thrown away),
  plain alpha-beta (the root always searched with an open upper bound), no transposition
  table, no killers or history, takings first by their score ×10 and promotions +5 with the
  last best move first; at the horizon, forced takings followed for up to 6 more plies; an
  evaluation of the banked score difference + 0.05 × the chips' values on the board (a dama
  twice) + 0.02 × rows advanced × value for its own chips − 0.05 × the values of its chips
  the opponent could take now + 0.01 × its number of legal moves; the exact final score at
  the end of the game. Its optional small NNUE is off in all four shipped tiers, and so off
  here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Protocol

from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position
from controller.engine.search import FULL, SearchConfig
from controller.engine.think import think
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.movegen import RawMove
from controller.rules.scoring import compare, score_move


class Player(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        return self.rng.choice(game.legal_moves())


class GreedyPlayer:
    """The best immediate score (exact), ties broken at random."""

    def __init__(self, seed: int) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        assert game.variant is not None
        moves = game.legal_moves()
        scores = [score_move(m, game.variant).score for m in moves]
        best = scores[0]
        for s in scores[1:]:
            if compare(s, best) > 0:
                best = s
        return self.rng.choice([m for m, s in zip(moves, scores, strict=True) if s == best])


SWITCHES = {
    "no-tt": "transposition",
    "no-pvs": "pvs",
    "no-killers": "killers",
    "no-history": "history",
    "no-lmr": "reductions",
    "no-qs": "quiescence",
    "no-extend": "extend_forced",
}


class EnginePlayer:
    def __init__(
        self, spec: str, options: dict[str, str], seed: int, clock: Callable[[], float]
    ) -> None:
        self.name = spec
        self.clock = clock
        self.depth = int(options["depth"]) if "depth" in options else None
        self.seconds = int(options["ms"]) / 1000 if "ms" in options else None
        self.level = int(options["level"]) if "level" in options else None
        weights = DEFAULT_WEIGHTS
        if "dama" in options:
            weights = replace(weights, dama=float(options["dama"]))
        if "rows" in options:  # scale the chips' row table
            k = float(options["rows"])
            weights = replace(weights, man_rows=tuple(k * w for w in weights.man_rows))
        self.weights = weights
        config = FULL
        for key in options:
            if key in SWITCHES:
                config = replace(config, **{SWITCHES[key]: False})
        self.config: SearchConfig = config
        self.seed = seed
        self.nodes = 0
        self.seconds_used = 0.0
        self.moves = 0

    def choose(self, game: Game) -> Move:
        answer = think(
            game,
            depth=self.depth,
            seconds=self.seconds,
            level=self.level,
            seed=self.seed + game.ply,
            clock=self.clock,
            config=self.config,
            weights=self.weights,
        )
        self.nodes += answer.nodes
        self.seconds_used += answer.seconds
        self.moves += 1
        return answer.move


# ---------------------------------------------------------------------------- the proxy


class _Stop(Exception):
    pass


class ProxyPlayer:
    """web-damath's tournament tier, rebuilt from its published design (module docstring)."""

    QUIESCENCE_BUDGET = 6
    SCORE, ON_BOARD, PROMOTION, EXPOSURE, MOBILITY = 1.0, 0.05, 0.02, 0.05, 0.01

    def __init__(self, options: dict[str, str], seed: int, clock: Callable[[], float]) -> None:
        self.name = "proxy"
        self.max_depth = int(options.get("depth", 8))
        self.seconds = int(options.get("ms", 3000)) / 1000
        self.rng = random.Random(seed)
        self.clock = clock
        self.nodes = 0
        self.seconds_used = 0.0
        self.moves = 0

    def choose(self, game: Game) -> Move:
        start = self.clock()
        pos = Position.from_game(game, DEFAULT_WEIGHTS)
        self.pos = pos
        self.point = pos.tables.scale.point
        self.deadline = start + self.seconds
        self.root_side = pos.side
        root = pos.moves()
        if len(root) == 1:
            best = root[0]
        else:
            ranked = self._order(root, None)
            best = ranked[0]
            for depth in range(1, self.max_depth + 1):
                if self.clock() >= self.deadline:
                    break
                snap = pos.snapshot()
                try:
                    ranked = self._search_root(ranked, depth)
                except _Stop:
                    pos.restore(snap)
                    break
                best = ranked[0]
        self.seconds_used += self.clock() - start
        self.moves += 1
        squares = game.geo.squares
        return game.find_move([squares[i] for i in best[0]])

    # -------------------------------------------------------------- search

    def _search_root(self, moves: list[RawMove], depth: int) -> list[RawMove]:
        pos = self.pos
        ordered = self._order(moves, moves[0])
        alpha = -float("inf")
        ranked = []
        for m in ordered:
            undo = pos.make(m)
            v = self._alpha_beta(depth - 1, self.QUIESCENCE_BUDGET, alpha, float("inf"), False)
            pos.unmake(m, undo)
            ranked.append((v, m))
            alpha = max(alpha, v)
        ranked.sort(key=lambda vm: -vm[0])
        return [m for _, m in ranked]

    def _alpha_beta(self, depth: int, budget: int, alpha: float, beta: float, maxi: bool) -> float:
        self.nodes += 1
        if self.clock() > self.deadline:
            raise _Stop  # its iteration is discarded anyway
        pos = self.pos
        moves = pos.moves()
        if not moves:
            return self._evaluate(moves)
        forced = bool(moves[0][1])
        if depth <= 0 and not (forced and budget > 0):
            return self._evaluate(moves)
        next_depth = depth if depth <= 0 else depth - 1
        next_budget = budget - 1 if depth <= 0 else budget
        ordered = self._order(moves, None)
        if maxi:
            best = -float("inf")
            for m in ordered:
                undo = pos.make(m)
                v = self._alpha_beta(next_depth, next_budget, alpha, beta, False)
                pos.unmake(m, undo)
                best = max(best, v)
                alpha = max(alpha, best)
                if beta <= alpha:
                    break
            return best
        best = float("inf")
        for m in ordered:
            undo = pos.make(m)
            v = self._alpha_beta(next_depth, next_budget, alpha, beta, True)
            pos.unmake(m, undo)
            best = min(best, v)
            beta = min(beta, best)
            if beta <= alpha:
                break
        return best

    def _order(self, moves: list[RawMove], first: RawMove | None) -> list[RawMove]:
        pos = self.pos
        shuffled = list(moves)
        self.rng.shuffle(shuffled)
        promo = [m[2] for m in shuffled]

        def rank(i: int) -> float:
            return pos.capture_gain(shuffled[i]) / self.point * 10 + (5 if promo[i] else 0)

        order = sorted(range(len(shuffled)), key=rank, reverse=True)
        out = [shuffled[i] for i in order]
        if first is not None and first in out and out[0] != first:
            out.remove(first)
            out.insert(0, first)
        return out

    # -------------------------------------------------------------- evaluation

    def _evaluate(self, moves: list[RawMove]) -> float:
        """From the root player's point of view, like web-damath's fixed-perspective search."""
        pos = self.pos
        me = self.root_side
        sgn = 1 if me == 0 else -1
        if not moves:  # the end of the game: the exact final difference
            return sgn * pos.grand / self.point
        banked = sgn * pos.totd / self.point
        on_board = 0.0
        promotion = 0.0
        values = pos.tables.values
        squares = pos.board.geo.squares
        for sq, c in enumerate(pos.cells):
            if not c:
                continue
            value = _number(values[pos.vid[sq]], squares[sq])
            owner = 0 if c > 0 else 1
            dama = c in (2, -2)
            worth = value * (2 if dama else 1)
            on_board += worth if owner == me else -worth
            if owner == me and not dama:
                rows = squares[sq][1] if me == 0 else 7 - squares[sq][1]
                promotion += rows * value
        exposure = self._exposure(me)
        mobility = self._mobility(me, moves)
        return (
            self.SCORE * banked
            + self.ON_BOARD * on_board
            + self.PROMOTION * promotion
            - self.EXPOSURE * exposure
            + self.MOBILITY * mobility
        )

    def _exposure(self, me: int) -> float:
        pos = self.pos
        board = pos.board
        saved = board.side
        board.side = 1 - me
        try:
            opp = board.moves()
        finally:
            board.side = saved
        seen = set()
        total = 0.0
        squares = board.geo.squares
        for m in opp:
            for s in m[1]:
                if s not in seen:
                    seen.add(s)
                    total += _number(pos.tables.values[pos.vid[s]], squares[s])
        return total

    def _mobility(self, me: int, moves: list[RawMove]) -> int:
        board = self.pos.board
        if board.side == me:
            return len(moves)
        board.side = me
        try:
            return len(board.moves())
        finally:
            board.side = 1 - me


def _number(value, square) -> float:
    """A chip's number as a float (a monomial where it stands), as web-damath's toNumber."""
    n = value.at(square)
    return float(n) if not isinstance(n, Fraction) else n.numerator / n.denominator


def build(spec: str, seed: int, clock: Callable[[], float] = time.process_time) -> Player:
    """A player from its spec (module docstring). ``clock``: the players' time; by default
    the process's CPU time, so that other jobs on a shared machine do not eat into a move's
    time, and both players get the same CPU budget."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = value
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(seed)
    if name == "engine":
        return EnginePlayer(spec, options, seed, clock)
    if name == "proxy":
        return ProxyPlayer(options, seed, clock)
    raise ValueError(f"unknown player {spec!r}: random, greedy, engine[:…], proxy[:…]")
