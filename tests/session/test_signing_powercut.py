"""Power cuts while a tournament game is confirmed, played, disputed and signed: the board cut
at placed journal operations (tests/powercuts.py; 200 random SIGKILLs in
bench/soak_powercuts.py); after each restart the people at the table do only what the board
still asks of them (the display says who has not confirmed, who has not signed), and every game
ends with the same confirmations, the same dispute, the same signatures and the same sheet as
the uninterrupted one, each act journaled exactly once."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.record.journal_file import read
from controller.session import Session, SessionConfig
from tests.powercuts import cut_at_placed_points

from .helpers import game_trace
from .powercut import GamePlan, plan
from .powercut import play as play_game

ASSIGNMENT = "r2-t7"


def tournament_life(plan_: GamePlan, journal: Path, out: Path) -> None:
    """One life of the board: confirm what is not confirmed yet, play the rest of the game
    (``powercut.play``), then dispute and sign what is not yet, and write what the board holds."""
    s = Session.open(SessionConfig(checkpoint_seconds=5), str(journal), 0.0)
    if s.phase != "over" and s.game.ply == 0:
        s.expect_assignment(ASSIGNMENT)  # the board's link puts the held assignment back
        for who in ("blue", "red"):
            if who not in s.signing.confirmed.get(ASSIGNMENT, set()):
                s.press(0.5, who)
    assert s.game.ply > 0 or s.signing.is_confirmed(ASSIGNMENT) or s.phase == "over"
    s.journal.close()
    if s.phase != "over":
        play_game(plan_, journal, out.with_name(out.name + ".game"), sync=True)
    s = Session.open(SessionConfig(checkpoint_seconds=5), str(journal), 0.0)
    assert s.phase == "over"
    end = 100_000.0  # long after the game: the signing is the last thing done at the table
    if not s.signing.disputes:
        s.press(end, "red", "hold")  # Red disputes the result before signing
    for side, who in ((1, "red"), (0, "blue")):
        if side not in s.signing.signed:
            s.press(end + 0.1, who)
    kinds = [r["k"] for r in read(journal).records]
    result = {
        "confirmed": sorted(s.signing.confirmed.get(ASSIGNMENT, set())),
        "signed": sorted(s.signing.signed),
        "disputes": [(d["side"], d["ply"]) for d in s.signing.disputes],
        "acts": [k for k in kinds if k in ("confirm", "sign", "dispute")],
        "reason": s.outcome.reason if s.outcome else None,
        "csv": s.export_csv(),
        "ply": s.game.ply,
    }
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, out)


@pytest.mark.slow
def test_power_cuts_at_placed_operations_while_confirming_and_signing_change_nothing(tmp_path):
    """Cut before the confirmations', the dispute's and the signatures' records as well as the
    moves' (every journal operation of the table's first and last acts, and points between),
    each cut a kill, a power cut or a torn write: every act journaled once, as uncut."""
    p = plan(game_trace(21, plies=40))

    def life(journal: Path, out: Path, report: Callable[[int], None]) -> int:
        tournament_life(p, journal, out)
        return 0

    clean, report = cut_at_placed_points(life, tmp_path, count=16)
    assert clean["acts"] == ["confirm", "confirm", "dispute", "sign", "sign"]
    assert report.lost == []
    for result in report.results:
        assert result == clean
