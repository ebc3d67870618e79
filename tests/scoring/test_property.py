"""Property: for random games in every variant, the CSV the board writes passes the audit, and
changing any one written score makes the audit fail on that line.

Needs the lead's game object (controller.rules.game.Game).
"""

import csv
import io
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.audit import audit_text
from controller.audit.written import parse_number
from controller.rules.damath_data import PROFILES, VARIANTS
from controller.rules.game import Game
from controller.rules.scoring import format_score, kind_of
from controller.rules.values import Sqrt2
from controller.scoresheet import build_scoresheet, render_csv

MAX_PLIES = 160


def random_game(variant: str, profile: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(variant, profile=profile)
    for _ in range(MAX_PLIES):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def changed(score: str, kind: str) -> str:
    """A different value for a written score: one more."""
    value = parse_number(score, kind).value
    one = Sqrt2(1, 0) if isinstance(value, Sqrt2) else 1
    return format_score(value + one, kind)


@settings(max_examples=28, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    profile=st.sampled_from(PROFILES),
    seed=st.integers(0, 10**6),
    pick=st.integers(0, 10**6),
)
def test_board_sheet_passes_its_audit_and_any_changed_score_fails_on_its_line(
    variant, profile, seed, pick
):
    game = random_game(variant, profile, seed)
    sheet = build_scoresheet(game.played(), game.chips(), variant, profile)
    text = render_csv(sheet)
    report = audit_text(text, variant, profile)
    assert report.errors == 0, [f for f in report.findings if not f.ok]

    table = list(csv.reader(io.StringIO(text)))
    scored = [i for i, row in enumerate(table) if i > 0 and row[3]]
    if not scored:
        return
    i = scored[pick % len(scored)]
    table[i][3] = changed(table[i][3], kind_of(variant))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    bad = audit_text(out.getvalue(), variant, profile)
    assert any(f.line == i + 1 and not f.ok for f in bad.findings), (i + 1, table[i])
