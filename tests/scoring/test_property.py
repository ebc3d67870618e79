"""Property: for random games in every variant and profile, the sheet the board writes holds
the scores a reference scorer finds another way, passes the audit, and any one changed number
on it makes the audit fail on that line.

The reference (tests/oracles/scores.py) reads the chips' printed labels with sympy and applies
the rules' operators, rounding and multipliers itself; it shares no code with the scorer or the
audit, so a wrong score cannot pass both the way it could pass a check made with the scorer's
own arithmetic.
"""

import csv
import io
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.audit import audit_text
from controller.audit.written import parse_number
from controller.rules.damath_data import PROFILES, VARIANTS
from controller.rules.game import Game
from controller.rules.scoring import format_score, kind_of
from controller.rules.values import Sqrt2
from controller.scoresheet import build_scoresheet, render_csv
from tests.oracles.moves import DAMATH_OPERATORS
from tests.oracles.scores import game_result, number, same

MAX_PLIES = 160


def random_game(variant: str, profile: str, seed: int, plies: int = MAX_PLIES) -> Game:
    rng = random.Random(seed)
    game = Game.new(variant, profile=profile)
    for _ in range(plies):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def changed(score: str, kind: str) -> str:
    """A different value for a written number: one more."""
    value = parse_number(score, kind).value
    one = Sqrt2(1, 0) if isinstance(value, Sqrt2) else 1
    return format_score(value + one, kind)


def reference(game: Game, variant: str, profile: str):
    """The reference scorer's view of the game: from the chips' labels and the squares."""
    takings = []
    for side, move in game.played():
        for t in move.takings:
            mult = (2 if t.taker.dama else 1) * (2 if t.taken.dama else 1)
            operator = DAMATH_OPERATORS[t.square]
            takings.append((side, str(t.taker.value), str(t.taken.value), t.square, operator, mult))
    remaining = [(c.side, str(c.value), sq, c.dama) for sq, c in game.chips().items()]
    return game_result(variant, profile, takings, remaining)


def check_against_reference(game: Game, sheet, table, variant: str, profile: str) -> None:
    sides, winner = reference(game, variant, profile)
    assert sheet.game.winner == winner
    for side in (0, 1):
        points = sheet.game.sides[side].points
        assert points == (Fraction(1, 2) if winner is None else int(winner == side))
    taken = {0: 0, 1: 0}
    rc = {0: 0, 1: 0}
    for row in table[1:]:
        player, kind, _, score, total, _ = row
        side = 0 if player == "BLUE" else 1
        mine = sides[side]
        if kind == "take":
            k = taken[side]
            assert same(number(score), mine.takings[k]), row
            assert same(number(total), mine.running[k]), row
            taken[side] += 1
        elif kind == "rc":
            assert same(number(score), mine.remaining[rc[side]]), row
            rc[side] += 1
        elif kind == "total":
            assert same(number(total), mine.remaining_total), row
        elif kind == "grand":
            assert same(number(total), mine.grand), row
    for side in (0, 1):
        assert taken[side] == len(sides[side].takings)
        assert rc[side] == len(sides[side].remaining)


@pytest.mark.slow
@settings(max_examples=28, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    profile=st.sampled_from(PROFILES),
    seed=st.integers(0, 10**6),
    plies=st.sampled_from((MAX_PLIES, MAX_PLIES, 6, 0)),
    pick=st.integers(0, 10**6),
)
def test_board_sheet_holds_the_reference_scores_and_any_changed_number_fails_on_its_line(
    variant, profile, seed, plies, pick
):
    game = random_game(variant, profile, seed, plies)
    sheet = build_scoresheet(game.played(), game.chips(), variant, profile)
    text = render_csv(sheet)
    table = list(csv.reader(io.StringIO(text)))
    check_against_reference(game, sheet, table, variant, profile)

    report = audit_text(text, variant, profile)
    assert report.errors == 0, [f for f in report.findings if not f.ok]

    # Every written number may be the wrong one: a score, a running total, an RC, a Total or
    # the Grand Total (a game without a single taking still has the last three).
    numbers = [(i, col) for i, row in enumerate(table) if i > 0 for col in (3, 4) if row[col]]
    i, col = numbers[pick % len(numbers)]
    table[i][col] = changed(table[i][col], kind_of(variant))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    bad = audit_text(out.getvalue(), variant, profile)
    assert any(f.line == i + 1 and not f.ok for f in bad.findings), (i + 1, table[i])
