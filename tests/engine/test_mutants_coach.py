"""The coach against best play worked out by the independent referee (``oracle``), where mutation
testing found slips the first tests let through (bench/mutation.sh engine-coach): in positions
solved to the end of the game, every move the player could make is reviewed, and the points it
loses are exactly the difference between the best final result and its own; a move that gives a
proven win away is called so; the line shown, the arithmetic, the summary of each side add up."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from controller.engine.coach import hint, review
from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position
from controller.engine.search import Limits, Search
from controller.engine.think import think
from controller.rules.game import Game
from controller.rules.notation import game_from_json
from controller.rules.scoring import compare, round_2dp, score_move

from .oracle import minimax

DATA = Path(__file__).parent / "data"
CASES = [
    json.loads(line)
    for name in ("forced_wins.jsonl", "best_takings.jsonl")
    for line in (DATA / name).read_text().splitlines()
    if line.strip()
]
# exact in points: every variant whose scores are rational (radical ones are a + b√2)
EXACT = [c for c in CASES if c["position"]["variant"] != "radical"]


def written(move, variant) -> tuple[str, ...]:
    """The sheet's arithmetic of a move: one "=" per taking, ending with its score."""
    return tuple(
        t.expression if "=" in t.expression else f"{t.expression} = {t.text}"
        for t in score_move(move, variant).takings
    )


def path_of(move) -> list[list[int]]:
    return [list(sq) for sq in move.path]


@pytest.mark.parametrize("case", EXACT, ids=lambda c: c["position"]["variant"])
def test_every_move_of_a_solved_position_loses_exactly_what_best_play_shows(case):
    game = game_from_json(case["position"])
    plies = case["plies"]
    legal = game.legal_moves()
    value = {}
    for move in legal:
        game.push(move)
        value[move] = -minimax(game, plies - 1)
        game.pop()
    best = next(iter(value.values()))
    for v in value.values():
        if compare(v, best) > 0:
            best = v
    won = compare(best, 0) > 0
    for move in legal:
        (seen,) = review(game, [path_of(move)], depth=plies + 2).moves
        assert seen.loss_points == Fraction(best - value[move]), (str(move), value[move], best)
        assert seen.loss == float(round_2dp(seen.loss_points))
        assert seen.missed_win == (won and compare(value[move], 0) <= 0), str(move)
        assert seen.forced == (len(legal) == 1)
        assert (seen.index, seen.side, seen.number) == (0, game.side_to_move, 1)
        assert seen.move == move and seen.takings == written(move, game.variant)
        assert seen.best_takings == written(seen.best, game.variant)
        if seen.loss_points == 0:
            assert seen.accurate
        line = game.copy()
        for n, step in enumerate(seen.best_line):
            assert step.side == line.side_to_move == (game.side_to_move + n) % 2
            assert step.takings == written(step.move, game.variant)
            line.push(step.move)
        assert seen.best_line[0].move == seen.best
        assert 1 <= len(seen.best_line) <= 4


def test_a_line_shown_is_four_moves_at_most():
    for case in EXACT:
        game = game_from_json(case["position"])
        depth = case["plies"] + 2
        if len(think(game, depth=depth).pv) > 4:
            break
    else:
        raise AssertionError("no case with a line longer than four moves")
    (seen,) = review(game, [path_of(game.legal_moves()[0])], depth=depth).moves
    assert len(seen.best_line) == 4


def test_a_losing_move_in_a_won_position_is_a_missed_win_and_a_mistake():
    case = next(c for c in EXACT if c["position"]["variant"] == "integer" and c["plies"] == 7)
    game = game_from_json(case["position"])
    plies = case["plies"]
    losing = []
    for move in game.legal_moves():
        game.push(move)
        if compare(-minimax(game, plies - 1), 0) <= 0:
            losing.append(move)
        game.pop()
    assert losing, "the case has a move that gives the win away"
    result = review(game, [path_of(losing[0])], depth=plies + 2)
    (seen,) = result.moves
    assert seen.missed_win and not seen.accurate and seen.loss_points > 0
    assert result.mistakes() == (seen,)
    summary = result.sides[game.side_to_move]
    assert (summary.moves, summary.choices, summary.best_moves) == (1, 1, 0)
    assert summary.total_loss == seen.loss
    other = result.sides[1 - game.side_to_move]
    assert (other.moves, other.choices, other.best_moves, other.total_loss) == (0, 0, 0, 0.0)
    assert other.side == 1 - game.side_to_move and summary.side == game.side_to_move


def test_a_review_of_several_moves_numbers_them_and_sums_each_side():
    game = Game.new("integer")
    line = game.copy()
    paths = []
    for _ in range(4):
        move = line.legal_moves()[-1]
        paths.append(path_of(move))
        line.push(move)
    seen_progress: list[tuple[int, int]] = []
    result = review(game, paths, depth=2, progress=lambda i, n: seen_progress.append((i, n)))
    assert seen_progress == [(0, 4), (1, 4), (2, 4), (3, 4)]
    assert (result.variant, result.profile, result.depth) == ("integer", "official", 2)
    assert [(m.index, m.side, m.number) for m in result.moves] == [
        (0, 0, 1), (1, 1, 1), (2, 0, 2), (3, 1, 2),
    ]  # fmt: skip
    for side in (0, 1):
        mine = [m for m in result.moves if m.side == side]
        s = result.sides[side]
        assert s.moves == len(mine) == 2
        assert s.choices == sum(1 for m in mine if not m.forced)
        assert s.best_moves == sum(1 for m in mine if m.accurate and not m.forced)
        assert s.total_loss == float(round_2dp(sum((m.loss_points for m in mine), Fraction(0))))


def test_a_forced_move_loses_nothing_and_is_never_a_mistake():
    game = Game.new("integer")
    for path in ([(1, 2), (0, 3)], [(2, 5), (1, 4)]):
        game.push(game.find_move(path))
    (only,) = game.legal_moves()  # Blue must take
    (seen,) = review(game, [path_of(only)], depth=2).moves
    assert seen.forced and seen.accurate and seen.loss_points == 0 and not seen.missed_win


def test_a_review_after_the_end_of_the_game_names_the_move():
    case = next(c for c in EXACT if c["plies"] == 5)
    game = game_from_json(case["position"])
    paths = []
    line = game.copy()
    while line.ending() is None:
        move = line.legal_moves()[0]
        paths.append(path_of(move))
        line.push(move)
    with pytest.raises(ValueError) as info:
        review(game, [*paths, paths[-1]], depth=1)
    assert str(info.value) == f"move {len(paths) + 1}: the game was already over"


def test_only_damath_games_are_reviewed():
    game = Game.new("integer")
    game.variant = None
    with pytest.raises(ValueError) as info:
        review(game, [], depth=1)
    assert str(info.value) == "the coach reviews Damath games"


def test_totals_given_with_a_position_count_in_the_review_and_the_hint():
    game = game_from_json(
        {
            "variant": "integer",
            "to_move": "blue",
            "pieces": [
                {"square": [2, 3], "side": "blue", "value": "2", "dama": False},
                {"square": [5, 6], "side": "red", "value": "-3", "dama": False},
            ],
        }
    )
    totals = (Fraction(40), Fraction(0))
    move = game.legal_moves()[0]
    plain = review(game, [path_of(move)], depth=3)
    given = review(game, [path_of(move)], depth=3, totals=totals)
    assert plain.moves[0].best == given.moves[0].best  # the same choice either way
    tip = hint(game, depth=3, totals=totals)
    assert tip.answer.eval == think(game, depth=3, totals=totals).eval
    assert tip.answer.eval != hint(game, depth=3).answer.eval
    assert tip.answer.depth == 3


def test_a_hint_within_a_time_limit_reads_the_clock_it_is_given():
    game = Game.new("integer")
    ticks = iter(range(1000))
    tip = hint(game, seconds=4.0, clock=lambda: float(next(ticks)))
    assert tip.answer.depth >= 1 and tip.move in game.legal_moves()
    unlimited = hint(game, depth=2)
    assert unlimited.answer.depth == 2 and unlimited.answer.seconds == 0.0


def test_a_hint_in_a_position_with_a_division_writes_its_rounding_once():
    game = game_from_json(
        {
            "variant": "integer",
            "to_move": "blue",
            "pieces": [
                {"square": [0, 1], "side": "blue", "value": "7", "dama": False},
                {"square": [1, 2], "side": "red", "value": "2", "dama": False},
                {"square": [7, 6], "side": "red", "value": "5", "dama": False},
            ],
        }
    )
    tip = hint(game, depth=1)  # 7 ÷ 2 on (2, 3): 3.5, rounded
    (taking,) = tip.takings
    assert taking.count("=") == 1 and taking.endswith(tip.score_text)
    assert tip.takings == written(tip.move, "integer")


def ticker():
    ticks = iter(range(10**6))
    return lambda: float(next(ticks))


def test_a_hint_within_a_time_limit_is_the_engines_answer_within_it():
    game = Game.new("integer")
    tip = hint(game, seconds=4.0, clock=ticker())
    alone = think(game, seconds=4.0, clock=ticker())
    assert (tip.move, tip.answer.depth) == (alone.move, alone.depth)
    deeper = think(game, seconds=40.0, clock=ticker())
    assert deeper.depth > tip.answer.depth  # so the limit given is the one obeyed


def test_a_move_within_a_tenth_of_a_taking_of_the_best_is_accurate():
    game = Game.new("fraction")
    rng = random.Random(3)
    for _ in range(3):
        game.push(rng.choice(game.legal_moves()))
    move = game.find_move([(0, 5), (1, 4)])
    (seen,) = review(game, [path_of(move)], depth=1).moves
    assert seen.loss_points == Fraction(1, 75) and seen.accurate and not seen.forced


def bonus_free(value: int, win: int) -> int:
    """A search value without the bonus that marks a proven result."""
    return value - win if value > win else value + win if value < -win else value


def test_the_loss_against_a_proven_win_is_counted_without_the_bonus():
    case = next(c for c in EXACT if c["position"]["variant"] == "whole" and c["plies"] == 7)
    game = game_from_json(case["position"])
    pos = Position.from_game(game, DEFAULT_WEIGHTS)
    search = Search(pos)
    best = search.run(Limits(depth=1))
    assert best.value > search.win  # proven at depth 1: its takings end the game
    checked = 0
    for raw in pos.moves():
        mine = search.value_of(raw, 1).value
        if abs(mine) >= search.win:
            continue  # only the moves whose line is not proven at that depth
        move = game.find_move([game.geo.squares[i] for i in raw[0]])
        (seen,) = review(game, [path_of(move)], depth=1).moves
        expected = max(0, bonus_free(best.value, search.win) - mine)
        assert seen.loss_points == Fraction(expected, pos.tables.scale.point) > 0
        assert seen.missed_win
        checked += 1
    assert checked


def test_totals_given_with_a_position_decide_who_has_won():
    # a position Blue wins by best play; totals that put Blue far behind make it a loss
    case = next(c for c in EXACT if c["position"]["variant"] == "integer" and c["plies"] == 7)
    game = game_from_json(case["position"])
    depth = case["plies"] + 2
    moves = game.legal_moves()
    plain = [review(game, [path_of(m)], depth=depth).moves[0] for m in moves]
    assert any(m.missed_win for m in plain)
    behind = (Fraction(-(10**6)), Fraction(0))
    lost = [review(game, [path_of(m)], depth=depth, totals=behind).moves[0] for m in moves]
    assert not any(m.missed_win for m in lost)  # no win to miss
    assert [m.best for m in lost] == [m.best for m in plain]
