"""The search against a plain one written here (bench/mutation.sh engine-search): negamax over
every move to the same depth, with the same rules (a forced move extends the line, takings are
followed to the end, a side with no taking may stand pat, the rules' endings valued beyond any
estimate) but no transposition table, no pruning, no move ordering, no reductions. Alpha-beta,
the principal-variation re-searches and the table's bounds may only make the search smaller: the
value of the root, and of every root move, must be the plain search's, whatever technique is
switched on or off. Then the limits: depth, nodes, the injected clock."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.engine import search as search_module
from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position
from controller.engine.search import FULL, MAX_PLY, Limits, Search, SearchConfig
from controller.rules.game import Game

from .mutation_helpers import GAMES, chips_game

WITHOUT_REDUCTIONS = replace(FULL, reductions=False)


class Plain:
    """Negamax over every move, nothing skipped."""

    def __init__(self, pos: Position, config: SearchConfig, win: int) -> None:
        self.pos, self.config, self.win = pos, config, win

    def final(self) -> int:
        v = self.pos.final()
        return v + self.win if v > 0 else v - self.win if v < 0 else 0

    def value(self, depth: int, ply: int = 0) -> int:
        pos = self.pos
        if ply and pos.terminal() is not None:
            return self.final()
        if depth <= 0 or ply >= MAX_PLY:
            return self.takings(ply)
        moves = pos.moves()
        if not moves:
            return self.final()
        forced = len(moves) == 1 and self.config.extend_forced
        return max(self.after(m, depth if forced else depth - 1, ply) for m in moves)

    def after(self, move, depth: int, ply: int) -> int:
        undo = self.pos.make(move)
        v = -self.value(depth, ply + 1)
        self.pos.unmake(move, undo)
        return v

    def takings(self, ply: int) -> int:
        pos = self.pos
        if not pos.count[pos.side]:
            return self.final()
        moves = pos.moves()
        if not moves:
            return self.final()
        if not moves[0][1] or not self.config.quiescence or ply >= MAX_PLY:
            return pos.evaluate()
        best = None
        for m in moves:
            undo = pos.make(m)
            v = -self.takings(ply + 1)
            pos.unmake(m, undo)
            best = v if best is None else max(best, v)
        return best


CONFIGS = {
    "all but reductions": WITHOUT_REDUCTIONS,
    "no table": replace(WITHOUT_REDUCTIONS, transposition=False),
    "no pvs": replace(WITHOUT_REDUCTIONS, pvs=False),
    "no killers, no history": replace(WITHOUT_REDUCTIONS, killers=False, history=False),
    "no extension": replace(WITHOUT_REDUCTIONS, extend_forced=False),
    "no quiescence": replace(WITHOUT_REDUCTIONS, quiescence=False),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_value_of_the_root_is_the_plain_searchs(name):
    config = CONFIGS[name]
    for n, game in enumerate(GAMES):
        depth = 3 if n % 2 else 2
        pos = Position.from_game(game, DEFAULT_WEIGHTS)
        search = Search(pos, config)
        result = search.run(Limits(depth=depth))
        plain = Plain(Position.from_game(game, DEFAULT_WEIGHTS), config, search.win)
        values = {m: plain.after(m, depth - 1, 0) for m in plain.pos.moves()}
        assert result.value == max(values.values()), (name, n)
        assert values[result.move] == result.value, (name, n)
        assert result.depth == depth and result.pv[0] == result.move
        assert result.win == search.win and result.nodes == search.nodes > 0


def test_every_root_move_gets_the_plain_searchs_value():
    for n, game in enumerate(GAMES[:6]):
        depth = 2 + n % 2
        pos = Position.from_game(game, DEFAULT_WEIGHTS)
        search = Search(pos, WITHOUT_REDUCTIONS)
        values, done = search.analyse(Limits(depth=depth))
        plain = Plain(Position.from_game(game, DEFAULT_WEIGHTS), WITHOUT_REDUCTIONS, search.win)
        expected = {m: plain.after(m, depth - 1, 0) for m in plain.pos.moves()}
        assert done == depth
        assert {rv.move: rv.value for rv in values} == expected
        assert [rv.value for rv in values] == sorted(expected.values(), reverse=True)
        assert all(rv.pv[0] == rv.move for rv in values)
        move = values[-1].move
        assert Search(pos, WITHOUT_REDUCTIONS).value_of(move, depth).value == expected[move]


def test_a_line_reported_is_legal_and_its_value_is_where_it_ends():
    for game in GAMES[:6]:
        pos = Position.from_game(game, DEFAULT_WEIGHTS)
        result = Search(pos).run(Limits(depth=3))
        replay = Position.from_game(game, DEFAULT_WEIGHTS)
        for move in result.pv:
            assert move in replay.moves()
            replay.make(move)
        assert len(result.pv) >= 1
    # and the position searched is the position it was given, after the search
    pos = Position.from_game(GAMES[0], DEFAULT_WEIGHTS)
    before = pos.snapshot()
    Search(pos).run(Limits(depth=3))
    assert pos.snapshot() == before


def test_reductions_change_the_effort_not_the_legality():
    for game in GAMES[:4]:
        full = Search(Position.from_game(game, DEFAULT_WEIGHTS)).run(Limits(depth=5))
        plain = Search(Position.from_game(game, DEFAULT_WEIGHTS), WITHOUT_REDUCTIONS).run(
            Limits(depth=5)
        )
        assert full.move in Position.from_game(game, DEFAULT_WEIGHTS).moves()
        assert full.nodes <= plain.nodes


def test_a_proven_win_is_valued_beyond_any_estimate():
    # Blue's lone chip takes Red's last: the game ends there
    game = chips_game("blue", [((2, 3), "blue", "2", False), ((3, 4), "red", "-3", False)])
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    search = Search(pos)
    result = search.run(Limits(depth=2))
    after = Position.from_game(game, DEFAULT_WEIGHTS)
    after.make(result.move)
    red = after.final()  # Red to move, no chip left: the game is over, decided by the totals
    assert red != 0
    assert result.value == -(red + search.win if red > 0 else red - search.win)
    assert abs(result.value) > search.win > 64 * pos.tables.largest
    assert search.inf == 4 * search.win


def test_no_legal_move_is_a_clear_error():
    game = chips_game(
        "red",
        [
            ((0, 7), "red", "2", False),
            ((1, 6), "blue", "-3", False),
            ((2, 5), "blue", "5", False),
        ],
    )
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    assert not pos.moves()
    with pytest.raises(ValueError, match=r"^the side to move has no legal move$"):
        Search(pos).run(Limits(depth=2))


def test_a_node_budget_stops_at_the_last_finished_depth():
    game = GAMES[1]
    full = Search(Position.from_game(game, DEFAULT_WEIGHTS)).run(Limits(depth=4))
    budget = max(1, full.nodes // 3)
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    before = pos.snapshot()
    cut = Search(pos).run(Limits(depth=4, nodes=budget))
    assert 1 <= cut.depth < 4 and cut.move in pos.moves()
    assert pos.snapshot() == before  # unwound to the root


def test_depth_one_always_finishes_even_with_no_time_at_all():
    game = GAMES[2]
    ticks = iter(range(10**6))
    result = Search(Position.from_game(game, DEFAULT_WEIGHTS), clock=lambda: next(ticks)).run(
        Limits(depth=6, seconds=0.5)
    )
    assert result.depth == 1 and result.seconds > 0
    # the budget is looked at every 1024 nodes, from depth 2 on
    nodes = Search(Position.from_game(game, DEFAULT_WEIGHTS)).run(Limits(depth=6, nodes=1))
    assert nodes.depth < 6 and nodes.nodes == 1024


def test_the_next_depth_is_not_begun_when_it_cannot_finish():
    game = GAMES[3]
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0  # every reading a second later
        return now[0]

    search = Search(Position.from_game(game, DEFAULT_WEIGHTS), clock=clock)
    result = search.run(Limits(depth=4, seconds=10**6))
    assert result.depth == 4
    # no time at all for depth 2: the first reading after depth 1 is past 60 % of a second
    quick = Search(Position.from_game(game, DEFAULT_WEIGHTS), clock=clock).run(
        Limits(depth=4, seconds=1.2)
    )
    assert quick.depth == 1


def test_a_forced_move_is_answered_at_once_in_a_timed_game():
    game = Game.new("integer")
    for path in ([(1, 2), (0, 3)], [(2, 5), (1, 4)]):
        game.push(game.find_move(path))
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    assert len(pos.moves()) == 1
    timed = Search(pos).run(Limits(depth=8, seconds=30.0))
    assert timed.depth == 1
    untimed = Search(Position.from_game(game, DEFAULT_WEIGHTS)).run(Limits(depth=3))
    assert untimed.depth == 3


def test_a_full_table_starts_afresh_and_the_value_stays(monkeypatch):
    game = GAMES[4]
    expected = Search(Position.from_game(game, DEFAULT_WEIGHTS), WITHOUT_REDUCTIONS).run(
        Limits(depth=3)
    )
    monkeypatch.setattr(search_module, "TT_ENTRIES", 5)
    search = Search(Position.from_game(game, DEFAULT_WEIGHTS), WITHOUT_REDUCTIONS)
    assert search.run(Limits(depth=3)).value == expected.value
    assert len(search.tt) <= 5
