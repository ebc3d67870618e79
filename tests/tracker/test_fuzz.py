"""Fuzzing: random frame sequences and button presses never raise, never commit a move that is
not legal, and the board always recovers once the expected position stands again."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.damath_data import OPERATORS
from controller.rules.game import Game
from controller.tracker import BUTTONS, MoveCommitted, Tracker

SQUARES = sorted(OPERATORS)

# A step: a time gap, then either a button or squares to toggle (a few: hands move few chips).
steps = st.lists(
    st.tuples(
        st.floats(min_value=0.0, max_value=1.5, allow_nan=False),
        st.one_of(
            st.sampled_from(BUTTONS),
            st.integers(min_value=0, max_value=99),  # jump to a legal move's final board
            st.lists(st.sampled_from(SQUARES), min_size=1, max_size=3),
        ),
    ),
    max_size=40,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=steps, variant=st.sampled_from(["integer", "radical", "polynomial"]))
def test_random_frames_never_break_the_tracker(steps, variant: str) -> None:
    game = Game.new(variant)
    tracker = Tracker(game)
    board = set(game.occupied())
    t = 0.0

    def take(events) -> None:
        for ev in events:
            if isinstance(ev, MoveCommitted):
                assert game.is_legal(ev.move), ev.move
                game.push(ev.move)
                assert tracker.game.occupied() == game.occupied()

    take(tracker.feed_frame(t, board))
    for gap, action in steps:
        t += gap
        if isinstance(action, str):
            if action != "takeback":
                take(tracker.feed_button(t, action))
            continue
        if isinstance(action, int):
            legal = tracker.game.legal_moves()
            if legal:
                m = legal[action % len(legal)]
                board = (set(tracker.game.occupied()) - {m.start} - set(m.captures)) | {m.end}
        else:
            board ^= set(action)
        take(tracker.feed_frame(t, board))

    # put the expected position back: the board recovers and shows nothing to fix
    t += 2.0
    take(tracker.tick(t))  # a move may still commit: the position to restore is after it
    take(tracker.feed_frame(t, set(game.occupied())))
    take(tracker.tick(t + 5.0))
    g = tracker.guidance()
    assert (g.missing, g.extra, g.cannot_move) == ((), (), ())
    assert g.phase == "idle"
    assert g.mode == "play"
