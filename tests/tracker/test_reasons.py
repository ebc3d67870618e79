"""A wrong move is explained with the rule it breaks, in words a child understands: the tracker's
guidance carries the reason while the mistake stands on the board, and drops it once fixed."""

from __future__ import annotations

import pytest

from controller.rules.game import Game
from controller.rules.notation import game_from_json
from controller.tracker import Tracker
from controller.tracker.reasons import TEXTS

SETTLE, DELAY = 0.25, 1.0


def _ready(game: Game) -> tuple[Tracker, set, float]:
    tracker = Tracker(game)
    board = set(game.occupied())
    tracker.feed_frame(0.0, board)
    tracker.tick(SETTLE)
    assert tracker.mode == "play"
    return tracker, board, SETTLE


def _frames(tracker: Tracker, board: set, t: float, *steps) -> float:
    """Each step: ("lift", sq), ("put", sq); then let the error delay pass."""
    for action, sq in steps:
        (board.discard if action == "lift" else board.add)(sq)
        t += 0.1
        tracker.feed_frame(t, board)
    t += DELAY + 0.1
    tracker.tick(t)
    return t


def _position(pieces, to_move="blue", variant="integer") -> Game:
    return game_from_json(
        {
            "variant": variant,
            "to_move": to_move,
            "pieces": [
                {"square": list(sq), "side": side, "value": value, "dama": dama}
                for sq, side, value, dama in pieces
            ],
        }
    )


def _opening_after(*paths) -> Game:
    game = Game.new("integer")
    for path in paths:
        game.push(game.find_move(path))
    return game


def test_lifting_the_other_sides_chip_says_whose_turn_it_is():
    tracker, board, t = _ready(Game.new("integer"))
    board.discard((2, 5))
    tracker.feed_frame(t + 0.1, board)
    g = tracker.guidance()
    assert g.phase == "invalid" and g.reason is not None and g.reason.rule == "turn"
    assert g.reason.page == (
        "It is BLUE's turn: only blue chips move now. Put the red chip back on (2, 5)."
    )
    assert g.reason.display == "BLUE's turn! Put it back on 2,5"


def test_a_chip_moved_backward_breaks_forward_only():
    game = _opening_after([(1, 2), (2, 3)], [(2, 5), (1, 4)])
    tracker, board, t = _ready(game)
    _frames(tracker, board, t, ("lift", (2, 3)), ("put", (1, 2)))
    g = tracker.guidance()
    assert g.phase == "mismatch" and g.reason.rule == "forward_only"
    assert "forward only" in g.reason.page and "(2, 3)" in g.reason.page


@pytest.mark.parametrize(
    ("to", "rule"),
    [((3, 4), "one_square"), ((1, 4), "diagonal")],
)
def test_a_chip_set_too_far_or_off_its_diagonal(to, rule):
    tracker, board, t = _ready(Game.new("integer"))
    _frames(tracker, board, t, ("lift", (1, 2)), ("put", to))
    assert tracker.guidance().reason.rule == rule


def test_moving_another_chip_when_a_taking_is_possible_says_you_must_take():
    game = _position([((2, 3), "blue", "5", False), ((3, 4), "red", "3", False),
                      ((6, 1), "blue", "7", False), ((7, 6), "red", "1", False)])  # fmt: skip
    tracker, board, t = _ready(game)
    board.discard((6, 1))
    tracker.feed_frame(t + 0.1, board)
    reason = tracker.guidance().reason
    assert reason.rule == "must_take" and "(2, 3) can take" in reason.page


def test_taking_one_chip_when_two_can_be_taken_breaks_the_most_rule():
    # blue 5 on (1, 2) can take (2, 3) then (4, 5): two; blue 7 on (5, 2) can take one
    game = _position([((1, 2), "blue", "5", False), ((2, 3), "red", "3", False),
                      ((4, 5), "red", "2", False), ((5, 2), "blue", "7", False),
                      ((6, 3), "red", "1", False), ((0, 7), "red", "9", False)])  # fmt: skip
    assert {len(m.captures) for m in game.legal_moves()} == {2}
    tracker, board, t = _ready(game)
    _frames(tracker, board, t, ("lift", (5, 2)), ("put", (7, 4)), ("lift", (6, 3)))
    reason = tracker.guidance().reason
    assert reason.rule == "most" and "the most chips you can: 2" in reason.page
    assert reason.display == "Take the most: 2 chips! Put back, try again"


def test_taking_off_a_chip_that_was_not_jumped():
    game = _position([((2, 3), "blue", "5", False), ((3, 4), "red", "3", False),
                      ((6, 5), "red", "1", False)])  # fmt: skip
    tracker, board, t = _ready(game)
    _frames(tracker, board, t, ("lift", (2, 3)), ("put", (4, 5)), ("lift", (6, 5)))
    reason = tracker.guidance().reason
    assert reason.rule == "wrong_taken"
    assert "(6, 5) was not jumped" in reason.page and "(3, 4)" in reason.page


def test_a_chip_never_jumps_its_own_side():
    game = _position([((1, 2), "blue", "5", False), ((2, 3), "blue", "3", False),
                      ((6, 7), "red", "1", False)])  # fmt: skip
    tracker, board, t = _ready(game)
    _frames(tracker, board, t, ("lift", (1, 2)), ("put", (3, 4)))
    assert tracker.guidance().reason.rule == "own_chip"


def test_the_reason_goes_when_the_mistake_is_put_right():
    tracker, board, t = _ready(Game.new("integer"))
    t = _frames(tracker, board, t, ("lift", (1, 2)), ("put", (1, 4)))
    assert tracker.guidance().reason is not None
    t = _frames(tracker, board, t, ("lift", (1, 4)), ("put", (1, 2)))
    assert tracker.guidance().reason is None
    board.discard((1, 2))
    tracker.feed_frame(t + 0.1, board)  # a legal lift: destinations, no reason
    assert tracker.guidance().phase == "moving" and tracker.guidance().reason is None


def test_every_display_form_fits_three_lines_of_the_display():
    from controller.view.display_text import wrap

    values = {
        "mover": "BLUE", "mover_lower": "blue", "other": "RED", "other_lower": "red",
        "square": "(6, 7)", "xy": "6,7", "locked": "(6, 7)", "locked_xy": "6,7",
        "takers": "(6, 7) or (4, 7)", "takers_xy": "6,7 or 4,7", "most": 3,
        "wrong": "(6, 7)", "wrong_xy": "6,7", "right": "(4, 7)",
    }  # fmt: skip
    for rule, (_page, display) in TEXTS.items():
        text = display.format(**values)
        assert text.isascii(), rule
        assert len(wrap(text, 21)) <= 3, (rule, wrap(text, 21))
