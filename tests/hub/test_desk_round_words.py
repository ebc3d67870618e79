"""The desk's round page in the words arbiters use (issue 26, item 9): what a board shows now
counted in moves as players count them (a move is Blue's turn and Red's), never in half-moves;
its totals as running; the board's result with its reason and PDN link on lines of their own.
Pure functions of ``controller.hub.web.desk_round``: no hub, no browser."""

from __future__ import annotations

import re

import pytest

from controller.hub.web.desk_round import _proposal, live_text
from controller.hub.web.page import status_text


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ({}, ""),
        ({"phase": "setup"}, "Setting up"),
        ({"phase": "play", "ply": 0}, "No move yet"),
        ({"phase": "play", "ply": 0, "paused": True}, "Paused · No move yet"),
        # Blue's first turn played: still move 1, Red to play
        (
            {"phase": "play", "ply": 1, "totals": {"blue": "4"}},
            "Move 1, Red to play; Blue 4, Red 0",
        ),
        ({"phase": "play", "ply": 2}, "Move 2, Blue to play; Blue 0, Red 0"),
        # 46 turns played: move 24, Blue to play (the "move 46" was the half-moves)
        (
            {"phase": "play", "ply": 46, "totals": {"blue": "12", "red": "3"}},
            "Move 24, Blue to play; Blue 12, Red 3",
        ),
        (
            {"phase": "play", "ply": 7, "paused": True},
            "Paused · Move 4, Red to play; Blue 0, Red 0",
        ),
        ({"phase": "over", "ply": 1}, "Finished after 1 move"),
        ({"phase": "over", "ply": 45}, "Finished after 23 moves"),
        ({"phase": "over", "ply": 46}, "Finished after 23 moves"),
    ],
)
def test_a_board_now_in_moves_as_players_count_them(row: dict, said: str) -> None:
    assert live_text(row) == said


class _Session:
    csrf = "token"


def test_the_boards_result_puts_its_reason_and_pdn_on_lines_of_their_own() -> None:
    row = {
        "pairing": 12,
        "status": "to-accept",
        "board_result": {
            "outcome": "draw",
            "blue": "-6",
            "red": "-6",
            "reason": "the arbiter stopped the game",
        },
    }
    html = _proposal(row, "", _Session())  # type: ignore[arg-type]
    text = re.sub(r"<[^>]+>", "|", html)
    assert "Draw -6 : -6|" in text
    assert "|the arbiter stopped the game|" in text
    assert '<br><small><a href="/desk/pdn?pairing=12">PDN</a></small>' in html
    assert "·" not in html  # no separator left to start a line when the reason wraps
    assert "Accept" in html
    no_reason = {**row, "status": "accepted", "board_result": {**row["board_result"], "reason": ""}}
    html = _proposal(no_reason, "", _Session())  # type: ignore[arg-type]
    assert "<small></small>" not in html and "Accept" not in html


def test_a_started_table_of_a_game_without_clocks_is_not_said_to_run_them() -> None:
    """Issue 40: a Dam table started from the desk read "started: the clocks run"; a Dam board
    has none (it holds the first move until the start)."""
    assert status_text({"status": "started", "clocks": True}) == "started: the clocks run"
    assert status_text({"status": "started", "clocks": None}) == "started: the clocks run"
    dam = status_text({"status": "started", "clocks": False})
    assert "clock" not in dam and dam == "started: the first move may be played"
