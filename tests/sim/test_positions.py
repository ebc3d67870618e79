"""A game from a position (a teacher's lesson, or one saved from a game): loaded from the page,
checked, played on the table; a capture two ways round the same ring asks which was meant."""

from __future__ import annotations

import json

import pytest

from controller.sim.engine import SimBoard, SimError

from .conftest import ManualClock
from .test_board import SETTLE, led

# Blue's -5 on (2,1) can take the four red chips round the ring either way and land where it
# started: the board sees the same chips go, so it must ask which way was played.
RING = {
    "variant": "integer",
    "to_move": "blue",
    "pieces": [
        {"square": [2, 1], "side": "blue", "value": "-5"},
        {"square": [3, 2], "side": "red", "value": "3"},
        {"square": [3, 4], "side": "red", "value": "-7"},
        {"square": [1, 4], "side": "red", "value": "2"},
        {"square": [1, 2], "side": "red", "value": "8"},
        {"square": [6, 7], "side": "red", "value": "-1"},
    ],
}
CLOCKWISE = [(2, 1), (4, 3), (2, 5), (0, 3), (2, 1)]
ANTICLOCKWISE = [(2, 1), (0, 3), (2, 5), (4, 3), (2, 1)]


def ring_board(clock: ManualClock) -> SimBoard:
    board = SimBoard("lesson", clock)
    board.act({"type": "new_game", "profile": "official", "position": RING})
    clock.advance(SETTLE)
    board.tick()
    return board


def test_a_position_starts_a_game_with_its_chips(clock: ManualClock) -> None:
    board = ring_board(clock)
    snap = board.snapshot()
    assert snap["phase"] == "play" and snap["ply"] == 0 and snap["to_move"] == "blue"
    chips = {tuple(c["square"]): c["chip"]["label"] for c in snap["squares"] if c["chip"]}
    assert chips == {tuple(p["square"]): p["value"] for p in RING["pieces"]}
    assert led(board, 2, 1) == "must_take"


def test_a_ring_taken_by_hand_asks_which_way_and_scores_the_chosen_one(clock: ManualClock) -> None:
    board = ring_board(clock)
    for sq in ([3, 2], [3, 4], [1, 4], [1, 2]):
        board.act({"type": "click", "square": sq})  # take the red chips off
    board.act({"type": "click", "square": [2, 1]})  # lift the taker (round the ring in the air)
    board.act({"type": "click", "square": [2, 1]})  # and set it down where it began
    clock.advance(SETTLE)
    board.tick()
    snap = board.snapshot()
    assert snap["ply"] == 0 and len(snap["choices"]) == 2 and snap["selected"] is None
    # the same squares either way round: the first landings, where the two ways part, blink
    assert (led(board, 4, 3), led(board, 0, 3), led(board, 2, 5)) == ("choice", "choice", None)
    # and the scoresheet display asks, with what each way scores (the other way round, the
    # same chips meet other operators)
    page = board.devices.scoresheet.last
    assert page[0] == "Which way? Next/OK"
    assert [line[:10] for line in page[1:]] == ["  via 4,3 ", "  via 0,3 "]
    scores = [line.split(" = ")[1] for line in page[1:]]
    assert scores[0] != scores[1]

    board.act({"type": "button", "name": "next"})
    board.tick()
    first = board.snapshot()["selected"]
    lit = "selected" if first == snap["choices"][0] else "choice"
    assert led(board, 4, 3) == lit  # the chosen way's first landing stays lit
    board.act({"type": "button", "name": "next"})
    board.tick()
    second = board.snapshot()["selected"]
    assert second != first and {first, second} == set(snap["choices"])
    assert {led(board, 4, 3), led(board, 0, 3)} == {"selected", "choice"}
    assert sum(line.startswith(">") for line in board.devices.scoresheet.last) == 1
    board.act({"type": "button", "name": "confirm"})
    clock.advance(SETTLE)
    board.tick()
    snap = board.snapshot()
    assert snap["ply"] == 1 and snap["to_move"] == "red"
    played = board.session.game.move_stack[-1]
    assert list(played.path) in (CLOCKWISE, ANTICLOCKWISE) and str(played) == second
    takes = [ln["blue"] for ln in snap["sheet"]["lines"] if ln["blue"]]
    assert [t["kind"] for t in takes] == ["take"] * 4


def test_setting_the_chip_on_a_first_landing_chooses_that_way_round(clock: ManualClock) -> None:
    board = ring_board(clock)
    for sq in ([3, 2], [3, 4], [1, 4], [1, 2]):
        board.act({"type": "click", "square": sq})
    board.act({"type": "click", "square": [2, 1]})
    board.act({"type": "click", "square": [2, 1]})
    clock.advance(SETTLE)
    board.tick()
    assert board.snapshot()["selected"] is None
    board.act({"type": "click", "square": [2, 1]})  # the player shows the way: lift,
    board.act({"type": "click", "square": [0, 3]})  # set it on the first landing,
    board.act({"type": "click", "square": [0, 3]})  # lift it again
    board.act({"type": "click", "square": [2, 1]})  # and back on its square
    clock.advance(SETTLE)
    board.tick()
    assert board.session.game.ply == 1
    assert list(board.session.game.move_stack[-1].path) == ANTICLOCKWISE


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ([1, 2], "must be a JSON object"),
        ({"pieces": [{"square": [0, 0], "side": "blue", "value": "1"}]}, "cannot be played"),
        ({"pieces": [{"square": [9, 1], "side": "blue", "value": "1"}]}, "cannot be played"),
        (
            {"to_move": "red", "pieces": [{"square": [1, 0], "side": "blue", "value": "1"}]},
            "no legal move",
        ),
    ],
)
def test_a_position_that_cannot_be_played_is_refused_and_the_game_goes_on(
    clock: ManualClock, position: object, message: str
) -> None:
    board = SimBoard("lesson", clock)
    before = board.snapshot()
    with pytest.raises(SimError, match=message):
        board.act({"type": "new_game", "position": position})
    assert board.snapshot()["squares"] == before["squares"]


def test_the_position_downloaded_mid_game_loads_on_another_board(clock: ManualClock) -> None:
    board = ring_board(clock)
    text, media = board.export("position")
    assert media.startswith("application/json")
    saved = json.loads(text)
    other = SimBoard("other", clock)
    other.act({"type": "new_game", "position": saved})
    chips = lambda b: [(c["square"], c["chip"]) for c in b.snapshot()["squares"]]  # noqa: E731
    assert chips(other) == chips(board)


def test_clicking_a_blinking_square_touches_it_and_chooses_that_way(clock: ManualClock) -> None:
    board = ring_board(clock)
    for sq in ([3, 2], [3, 4], [1, 4], [1, 2], [2, 1], [2, 1]):
        board.act({"type": "click", "square": sq})
    clock.advance(SETTLE)
    board.tick()
    assert board.snapshot()["message"].startswith("Two ways lead here")
    done = board.act({"type": "click", "square": [4, 3]})  # an empty, blinking square
    assert done.startswith("You touched (4, 3)")
    assert led(board, 4, 3) == "selected"
    board.act({"type": "button", "name": "confirm"})
    clock.advance(SETTLE)
    board.tick()
    assert list(board.session.game.move_stack[-1].path) == CLOCKWISE
