"""The search's effort, not only its answer (bench/mutation.sh engine-search; the answers are
checked against a plain negamax in test_mutants_search.py).

The module's docstring describes the search step by step: the order of the moves (the table's
move, takings by their gain, killers, history, promotions), the windows (a null window after
the first move, re-searched when it surprises), the table's cuts at null-window nodes only, the
reductions, the extension, the quiescence, the node count and where the budget is looked at.
``Described`` below is that description written again, independently of the module's code: the
search must visit exactly the nodes it describes, report the same line, count the same nodes,
and stop at the same node under a budget. A change that keeps the answer but wastes or skips
work (a window one too wide, a killer not kept, the table's move not tried first) shows here.
Then the same from outside: the techniques save nodes, a search is repeatable, a clock is read
as the limits say, the rules' endings are valued exactly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import pytest

from controller.engine import search as search_module
from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position
from controller.engine.search import FULL, Limits, Search, SearchConfig
from controller.rules.game import Game

from .mutation_helpers import GAMES, chips_game, random_positions


class Stop(Exception):
    """The budget ran out."""


class Described:
    """The search as its docstring describes it, node for node."""

    def __init__(self, pos: Position, config: SearchConfig, clock: Callable[[], float]) -> None:
        self.pos, self.config, self.clock = pos, config, clock
        self.table: dict[int, tuple] = {}
        self.killer: dict[int, list] = {}
        self.hist: dict[tuple[int, int, int], int] = {}
        self.line: dict[int, tuple] = {}
        self.nodes = 0
        self.deadline: float | None = None
        self.budget: int | None = None
        # a win is worth more than any total: a power of two above four bounds of the totals
        psq = max((abs(v) for v in pos.psq_table), default=0)
        bound = 64 * pos.tables.largest + abs(pos.totd) + 24 * psq + 1
        self.win = 2 ** (len(bin(bound)) - 2 + 1)
        self.inf = 4 * self.win

    # -- counting and limits
    def enter(self, ply: int) -> None:
        self.nodes += 1
        if self.nodes % 1024 == 0:
            if self.deadline is not None and self.clock() >= self.deadline:
                raise Stop
            if self.budget is not None and self.nodes >= self.budget:
                raise Stop
        self.line[ply] = ()

    def ending(self) -> int:
        v = self.pos.final()
        return v + self.win if v > 0 else v - self.win if v < 0 else 0

    # -- order
    def ordered(self, moves: list, first, ply: int) -> list:
        if len(moves) >= 2:
            if moves[0][1]:  # takings: the biggest gain first
                moves = sorted(moves, key=lambda m: -self.pos.capture_gain(m))
            else:
                side = self.pos.board.side
                k = self.killer.get(ply, [None, None]) if self.config.killers else [None, None]

                def rank(m) -> int:
                    s = 0
                    if self.config.history:
                        s = self.hist.get((side, m[0][0], m[0][-1]), 0)
                    if m == k[0]:
                        s += 2**42
                    elif m == k[1]:
                        s += 2**41
                    if m[2]:
                        s += 2**43
                    return -s

                moves = sorted(moves, key=rank)
        if first is not None and first in moves and moves[0] != first:
            moves = [first] + [m for m in moves if m != first]
        return moves

    def remember(self, move, depth: int, ply: int) -> None:
        if self.config.killers:
            k = self.killer.get(ply, [None, None])
            if k[0] != move:
                self.killer[ply] = [move, k[0]]
        if self.config.history:
            at = (self.pos.board.side, move[0][0], move[0][-1])
            self.hist[at] = self.hist.get(at, 0) + depth**2

    # -- the tree
    def child(self, m, depth: int, alpha: int, beta: int, ply: int) -> int:
        undo = self.pos.make(m)
        try:
            return -self.search(depth, -beta, -alpha, ply + 1)
        finally:
            self.pos.unmake(m, undo)

    def search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        pos, config = self.pos, self.config
        self.enter(ply)
        if pos.terminal() is not None:
            return self.ending()
        if depth < 1 or ply >= search_module.MAX_PLY:
            return self.quiesce(alpha, beta, ply)
        key = pos.key()
        first = None
        if config.transposition and key in self.table:
            d, kind, val, first = self.table[key]
            usable = {"exact": True, "lower": val >= beta, "upper": val <= alpha}[kind]
            if usable and d >= depth and alpha + 1 == beta:
                return val
        moves = pos.moves()
        if not moves:
            return self.ending()
        nd = depth if (len(moves) == 1 and config.extend_forced) else depth - 1
        start_alpha = alpha
        best, best_move = -self.inf, None
        for i, m in enumerate(self.ordered(moves, first, ply)):
            if i == 0 or not config.pvs:
                v = self.child(m, nd, alpha, beta, ply)
            else:
                late = (
                    config.reductions
                    and depth >= 3
                    and i >= 3
                    and not m[1]
                    and not m[2]
                    and m not in self.killer.get(ply, [None, None])
                )
                r = (2 if i >= 8 and depth >= 5 else 1) if late else 0
                v = self.child(m, nd - r, alpha, alpha + 1, ply)
                if r and v > alpha:
                    v = self.child(m, nd, alpha, alpha + 1, ply)
                if alpha < v < beta:
                    v = self.child(m, nd, alpha, beta, ply)
            if v > best:
                best, best_move = v, m
            if v > alpha:
                alpha = v
                self.line[ply] = (m, *self.line.get(ply + 1, ()))
                if v >= beta:
                    if not m[1]:
                        self.remember(m, depth, ply)
                    break
        if config.transposition:
            kind = "lower" if best >= beta else "exact" if best > start_alpha else "upper"
            self.table[key] = (depth, kind, best, best_move)
        return best

    def quiesce(self, alpha: int, beta: int, ply: int) -> int:
        pos = self.pos
        self.enter(ply)
        if pos.count[pos.board.side] == 0:
            return self.ending()
        moves = pos.moves()
        if not moves:
            return self.ending()
        if not moves[0][1] or not self.config.quiescence or ply >= search_module.MAX_PLY:
            return pos.evaluate()
        best = -self.inf
        for m in sorted(moves, key=lambda m: -pos.capture_gain(m)):
            undo = pos.make(m)
            v = -self.quiesce(-beta, -alpha, ply + 1)
            pos.unmake(m, undo)
            best = max(best, v)
            if v > alpha:
                alpha = v
                self.line[ply] = (m, *self.line.get(ply + 1, ()))
                if v >= beta:
                    break
        return best

    # -- the root
    def run(self, limits: Limits):
        """(move, value, depth, nodes, line) as ``Search.run`` answers them."""
        self.began, self.marks = self.nodes, []
        start = self.clock()
        deadline = None if limits.seconds is None else start + limits.seconds
        moves = self.pos.moves()
        root = self.ordered(moves, None, 0)
        best = None
        done = 0
        for depth in range(1, max(1, limits.depth) + 1):
            self.deadline = deadline if depth >= 2 else None
            self.budget = limits.nodes if depth >= 2 else None
            partial = None
            alpha, scored = -self.inf, []
            snap = self.pos.snapshot()
            try:
                for i, m in enumerate(root):
                    if i == 0 or not self.config.pvs:
                        v = self.child(m, depth - 1, alpha, self.inf, 0)
                    else:
                        v = self.child(m, depth - 1, alpha, alpha + 1, 0)
                        if v > alpha:
                            v = self.child(m, depth - 1, alpha, self.inf, 0)
                    entry = (m, v, (m, *self.line.get(1, ())))
                    if v > alpha:
                        alpha = v
                        scored.insert(0, entry)
                        partial = entry
                    else:
                        scored.append(entry)
            except Stop:
                self.pos.restore(snap)
                if partial is not None:
                    best = partial
                break
            best, done = scored[0], depth
            self.marks.append(self.nodes)
            root = [e[0] for e in scored]
            if deadline is not None and (
                len(moves) == 1 or self.clock() - start > 0.6 * (deadline - start)
            ):
                break
        return best[0], best[1], done, self.nodes, best[2]

    def analyse(self, limits: Limits):
        """(every root move's (move, value, line), best first; the depth) as ``analyse``."""
        self.began, self.marks = self.nodes, []
        start = self.clock()
        deadline = None if limits.seconds is None else start + limits.seconds
        moves = self.ordered(self.pos.moves(), None, 0)
        done, depth_done = [], 0
        snap = self.pos.snapshot()
        for depth in range(1, max(1, limits.depth) + 1):
            self.deadline = deadline if depth >= 2 else None
            self.budget = limits.nodes if depth >= 2 else None
            try:
                out = [
                    (m, v, (m, *self.line.get(1, ())))
                    for m in moves
                    for v in [self.child(m, depth - 1, -self.inf, self.inf, 0)]
                ]
            except Stop:
                self.pos.restore(snap)
                break
            out.sort(key=lambda e: -e[1])
            done, depth_done = out, depth
            self.marks.append(self.nodes)
            moves = [e[0] for e in out]
        return done, depth_done


def as_run(result) -> tuple:
    return result.move, result.value, result.depth, result.nodes, result.pv


def position(game: Game) -> Position:
    return Position.from_game(game, DEFAULT_WEIGHTS)


def zero() -> float:
    return 0.0


CONFIGS = {
    "everything": FULL,
    "no table": replace(FULL, transposition=False),
    "no pvs": replace(FULL, pvs=False),
    "no killers": replace(FULL, killers=False),
    "no history": replace(FULL, history=False),
    "no reductions": replace(FULL, reductions=False),
    "no extension": replace(FULL, extend_forced=False),
    "no quiescence": replace(FULL, quiescence=False),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_search_visits_exactly_the_nodes_it_describes(name):
    config = CONFIGS[name]
    for n, game in enumerate(GAMES[:6]):
        depth = 4 + n % 2
        search = Search(position(game), config)
        described = Described(position(game), config, zero)
        assert as_run(search.run(Limits(depth=depth))) == described.run(Limits(depth=depth)), n
        assert search.win == described.win and search.inf == described.inf


def test_deep_searches_reduce_late_quiet_moves_as_described():
    # depth 6: the nodes two plies from the leaves' parents reduce by two plies
    for game in GAMES[6:9]:
        search = Search(position(game))
        described = Described(position(game), FULL, zero)
        assert as_run(search.run(Limits(depth=6))) == described.run(Limits(depth=6))


@pytest.mark.parametrize("budget", [1, 1024, 1025, 2048, 2500, 5000])
def test_a_node_budget_stops_at_the_described_node(budget):
    for game in GAMES[:4]:
        limits = Limits(depth=6, nodes=budget)
        got = Search(position(game)).run(limits)
        want = Described(position(game), FULL, zero).run(limits)
        assert as_run(got) == want
        assert got.nodes < budget + 1024  # looked at every 1024 nodes


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_every_root_move_as_described(depth):
    for game in GAMES[:4]:
        search = Search(position(game))
        values, done = search.analyse(Limits(depth=depth))
        reference = Described(position(game), FULL, zero)
        want, want_done = reference.analyse(Limits(depth=depth))
        assert done == want_done == max(1, depth)
        assert search.nodes == reference.nodes  # the nodes it counts, none wasted
        assert [(rv.move, rv.value, rv.pv) for rv in values] == want
        # one move's value on its own (a fresh search each), as described
        for rv in values[:3]:
            alone = Search(position(game)).value_of(rv.move, max(1, depth))
            described = Described(position(game), FULL, zero)
            v = described.child(rv.move, max(1, depth) - 1, -described.inf, described.inf, 0)
            assert (alone.move, alone.value, alone.pv) == (
                rv.move,
                v,
                (rv.move, *described.line.get(1, ())),
            )


@pytest.mark.parametrize("budget", [1, 3000])
def test_analyse_stops_at_the_budget_with_the_last_whole_depth(budget):
    for game in GAMES[:3]:
        pos = position(game)
        before = pos.snapshot()
        values, done = Search(pos).analyse(Limits(depth=6, nodes=budget))
        want, want_done = Described(position(game), FULL, zero).analyse(
            Limits(depth=6, nodes=budget)
        )
        assert done == want_done and 1 <= done <= 6
        assert done < 6 or budget > 1
        assert [(rv.move, rv.value, rv.pv) for rv in values] == want
        assert pos.snapshot() == before


def test_each_technique_saves_nodes_and_the_answer_stays():
    # summed over fixed positions at depth 5: without the table, the null windows, the killers
    # and history, or the reductions, the search needs more nodes; its value is the same
    # wherever the technique cannot change it (everything but the reductions)
    def effort(config: SearchConfig) -> tuple[int, list[int]]:
        results = [Search(position(g), config).run(Limits(depth=5)) for g in GAMES[:6]]
        return sum(r.nodes for r in results), [r.value for r in results]

    full_nodes, _ = effort(FULL)
    exact_nodes, exact_values = effort(replace(FULL, reductions=False))
    assert full_nodes < exact_nodes
    for off in (
        {"transposition": False},
        {"pvs": False},
        {"killers": False, "history": False},
    ):
        nodes, values = effort(replace(FULL, reductions=False, **off))
        assert nodes > exact_nodes, off
        assert values == exact_values, off


def test_a_search_is_repeatable_and_its_table_is_reused():
    for game in GAMES[:4]:
        first = Search(position(game)).run(Limits(depth=4))
        again = Search(position(game)).run(Limits(depth=4))
        assert as_run(first) == as_run(again)
        # the same object asked again: the table, killers and history it kept make it cheaper
        search = Search(position(game), replace(FULL, reductions=False))
        one = search.run(Limits(depth=4))
        two = search.run(Limits(depth=4))
        assert two.value == one.value and two.depth == 4
        assert two.nodes - one.nodes < one.nodes


def test_a_clock_that_starts_anywhere_measures_from_the_start():
    # a clock standing at 1000 s: no time passes, so every depth is searched and none is spent
    search = Search(position(GAMES[0]), clock=lambda: 1000.0)
    result = search.run(Limits(depth=3, seconds=10.0))
    assert result.depth == 3 and result.seconds == 0.0
    values, done = Search(position(GAMES[0]), clock=lambda: 1000.0).analyse(
        Limits(depth=3, seconds=10.0)
    )
    assert done == 3 and values


def test_the_next_depth_begins_when_exactly_six_tenths_of_the_time_are_spent():
    readings = iter([0.0] + [3.0] * 100)  # 3 s of 5: not more than 60 %, so depth 2 begins
    result = Search(position(GAMES[0]), clock=lambda: next(readings)).run(
        Limits(depth=2, seconds=5.0)
    )
    assert 0.6 * 5.0 == 3.0
    assert result.depth == 2 and result.seconds == 3.0


def test_no_time_at_all_stops_at_the_first_look_at_the_clock():
    # a clock that never moves and no seconds: the deadline is now, reached at the first look
    result = Search(position(GAMES[0])).run(Limits(depth=8, seconds=0.0))
    assert result.depth < 8 and result.nodes == 1024
    values, done = Search(position(GAMES[0])).analyse(Limits(depth=8, seconds=0.0))
    assert done < 8 and len(values) == len(position(GAMES[0]).moves())


def test_analyse_obeys_the_deadline():
    # the clock jumps past the deadline at once: analyse stops at its first look at the clock
    # (every 1024 nodes, from depth 2 on) and keeps the last depth it finished
    readings = iter([0.0] + [100.0] * 10**5)
    pos = position(GAMES[0])
    before = pos.snapshot()
    values, done = Search(pos, clock=lambda: next(readings)).analyse(Limits(depth=6, seconds=10.0))
    assert 1 <= done < 6 and pos.snapshot() == before
    assert [rv.value for rv in values] == sorted((rv.value for rv in values), reverse=True)
    # a clock that stays before the deadline lets it finish every depth
    values, done = Search(position(GAMES[0])).analyse(Limits(depth=4, seconds=10.0))
    assert done == 4


def test_a_game_ending_level_is_worth_exactly_nothing():
    # Blue's -12 takes Red's last chip, -1: the game is over and the grand totals are equal
    game = chips_game("blue", [((2, 3), "blue", "-12", False), ((3, 4), "red", "-1", False)])
    pos = position(game)
    (move,) = pos.moves()
    after = position(game)
    after.make(move)
    assert after.terminal() is not None and after.final() == 0
    for depth in (1, 2, 3):
        result = Search(position(game)).run(Limits(depth=depth))
        assert (result.move, result.value) == (move, 0)
        values, _ = Search(position(game)).analyse(Limits(depth=depth))
        assert [(rv.move, rv.value) for rv in values] == [(move, 0)]
    assert Fraction(result.value) == 0


@pytest.mark.slow
@pytest.mark.parametrize("first", [1, 2, 3, 4, 5])
def test_a_search_asked_again_keeps_counting_and_stops_as_described(first):
    # the node count goes on from the first question, so the second one's budget and clock are
    # looked at wherever the count passes a multiple of 1024: in its first depth too, which
    # must finish all the same (there is always a move to answer with)
    for game in GAMES[:5]:
        for limits in (Limits(depth=6, nodes=1), Limits(depth=6, seconds=0.0)):
            search = Search(position(game))
            described = Described(position(game), FULL, zero)
            assert as_run(search.run(Limits(depth=first))) == described.run(Limits(depth=first))
            assert as_run(search.run(limits)) == described.run(limits)
            values, done = search.analyse(limits)
            want, want_done = described.analyse(limits)
            assert done == want_done >= 1 and search.nodes == described.nodes
            assert [(rv.move, rv.value, rv.pv) for rv in values] == want


@pytest.mark.parametrize("horizon", [2, 3, 4])
def test_the_horizon_is_obeyed_exactly(monkeypatch, horizon):
    # MAX_PLY is where every line stops, whatever the depth asked and the takings pending
    # (a line of 96 plies is out of a test's reach: the horizon is brought near instead)
    monkeypatch.setattr(search_module, "MAX_PLY", horizon)
    for game in GAMES[:6]:
        for config in (FULL, replace(FULL, reductions=False, transposition=False)):
            search = Search(position(game), config)
            described = Described(position(game), config, zero)
            assert as_run(search.run(Limits(depth=6))) == described.run(Limits(depth=6))
            assert all(len(line) <= horizon + 1 for line in [search.run(Limits(depth=3)).pv])


@pytest.mark.slow
@pytest.mark.parametrize("question", ["run", "analyse"])
@pytest.mark.parametrize("limits", [Limits(depth=5, nodes=1), Limits(depth=5, seconds=0.0)])
def test_the_limits_are_obeyed_from_the_second_depth_exactly(question, limits):
    # A search asked again goes on counting nodes from its earlier questions: asked first n
    # times at depth 1, for n = 0, 1, ..., its count passes a multiple of 1024 (where the
    # budget and the clock are looked at) inside the next question's first depth, where neither
    # may stop it, and inside its second, where both must.
    game = GAMES[6]
    probe = Described(position(game), FULL, zero)
    counts = [0]  # the count after n questions at depth 1
    while len(counts) < 100:
        probe.run(Limits(depth=1))
        counts.append(probe.nodes)
    # only where the count is near the end of its 1024: the others cannot pass it in two depths
    near = [n for n, count in enumerate(counts) if count % 1024 >= 800]
    inside: set[int] = set()
    for n in near:
        search = Search(position(game))
        described = Described(position(game), FULL, zero)
        for _ in range(n):
            search.run(Limits(depth=1))
            described.run(Limits(depth=1))
        if question == "run":
            assert as_run(search.run(limits)) == described.run(limits)
        else:
            values, done = search.analyse(limits)
            want, want_done = described.analyse(limits)
            assert done == want_done and search.nodes == described.nodes
            assert [(rv.move, rv.value, rv.pv) for rv in values] == want
        assert described.marks, "the first depth always finishes"
        page = described.began // 1024
        if described.marks[0] // 1024 > page:
            inside.add(1)
        elif len(described.marks) == 1 and described.nodes % 1024 == 0:
            inside.add(2)
        if inside == {1, 2}:
            break
    assert inside == {1, 2}


@pytest.mark.parametrize(
    ("seed", "index", "depth"),
    [
        # a node whose table entry is an upper bound exactly at alpha: it is cut there, not
        # searched again (found by searching random positions for a difference)
        (1012, 4, 4),
        # a node with takings to choose from, deep enough to reduce: takings are never reduced
        (1003, 4, 5),
    ],
)
def test_positions_found_for_rare_nodes_are_searched_as_described(seed, index, depth):
    game = random_positions(seed, 8)[index]
    search = Search(position(game))
    described = Described(position(game), FULL, zero)
    assert as_run(search.run(Limits(depth=depth))) == described.run(Limits(depth=depth))


def test_the_win_bonus_when_the_takings_so_far_bring_its_bound_near_a_power_of_two():
    # With 30,000 points taken before (totals given with the position), the bound of the
    # totals, 64 * largest + |takings| + 24 * psq + 1, lies less than one psq below 2 ** 26:
    # the bonus is 2 ** 27, and a proven win is worth its final difference plus exactly that.
    pieces = [((2, 3), "blue", "-12", False), ((3, 4), "red", "-1", False)]
    game = chips_game("blue", pieces)
    pos = Position.from_game(game, DEFAULT_WEIGHTS, base_totals=(Fraction(30_000), Fraction(0)))
    psq = max(abs(v) for v in pos.psq_table)
    bound = 64 * pos.tables.largest + abs(pos.totd) + 24 * psq + 1
    assert bound < 2**26 <= bound + psq
    (move,) = pos.moves()
    after = Position.from_game(game, DEFAULT_WEIGHTS, base_totals=(Fraction(30_000), Fraction(0)))
    after.make(move)
    # the game is over: Red, to move, has lost by the 30,000 points (final is Red's view)
    assert after.terminal() is not None and after.final() == -30_000_000
    search = Search(pos)
    described = Described(
        Position.from_game(game, DEFAULT_WEIGHTS, (Fraction(30_000), Fraction(0))), FULL, zero
    )
    assert search.win == described.win == 2**27
    result = search.run(Limits(depth=2))
    assert as_run(result) == described.run(Limits(depth=2))
    assert result.value == 30_000_000 + 2**27
