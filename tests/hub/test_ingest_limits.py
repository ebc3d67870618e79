"""What one board may cost the hub, each limit alone (controller/hub/ingest/limits.py): no
store, no broker, no thread; the clock is the test's."""

from __future__ import annotations

import pytest

from controller.hub.ingest.limits import (
    QUEUE_LIMIT,
    REJECTS_PER_WINDOW,
    WINDOW,
    Arrivals,
    Floods,
    Limits,
    Listing,
    NewGames,
)
from controller.link.protocol import Rejected


def test_a_boards_burst_passes_and_the_rest_is_dropped_counted_and_given_back() -> None:
    arrivals = Arrivals(Limits(rate=10, burst=5))
    assert [arrivals.admit("b1", 0, 100.0) for _ in range(7)] == [True] * 5 + [False] * 2
    assert arrivals.admit("b2", 0, 100.0)  # another board's bucket is its own
    assert arrivals.admit("b1", 0, 100.15)  # a tenth of a second refills one
    assert not arrivals.admit("b2", QUEUE_LIMIT, 100.2)  # the worker's queue is full
    dropped = arrivals.take()
    assert dropped == {("b1", "rate"): 2, ("b2", "busy"): 1}
    assert arrivals.take() == {} and not arrivals.any_dropped()
    arrivals.give_back(dropped)  # a batch that was not written: listed with the next one
    assert not arrivals.admit("b1", 0, 100.15)
    assert arrivals.take() == {("b1", "rate"): 3, ("b2", "busy"): 1}


def test_a_boards_refusals_get_their_lines_and_the_rest_is_counted_into_the_next() -> None:
    listing = Listing()
    lines = [listing.line("b1", "schema", 0.0, 1) for _ in range(REJECTS_PER_WINDOW + 3)]
    assert lines == [""] * REJECTS_PER_WINDOW + [None] * 3
    assert listing.line("b1", "chain", 1.0, 1) == ""  # another reason has its own lines
    assert listing.line("b1", "schema", WINDOW, 4) == (
        " (and 3 more refused for the same reason since)"
    )
    assert listing.line("b1", "schema", WINDOW, 1) == ""


def test_a_board_floods_past_ten_seconds_of_its_rate_within_a_window() -> None:
    floods = Floods(Limits(rate=100))
    start, count = floods.add("b1", 600, 50.0)
    assert (start, count) == (50.0, 600) and not floods.flooding(count)
    start, count = floods.add("b1", 400, 55.0)
    assert (start, count) == (50.0, 1000) and floods.flooding(count)
    assert floods.add("b1", 10, 50.0 + WINDOW) == (50.0 + WINDOW, 10)  # a new window


def test_a_board_opens_its_games_of_the_hour_and_then_is_refused_until_later() -> None:
    games = NewGames(Limits(games_per_hour=3))
    for n in range(3):
        games.check("b1", f"g-{n}", 0.0)
    with pytest.raises(Rejected, match="more than 3 new games in an hour") as refused:
        games.check("b1", "g-3", 1.0)
    assert refused.value.reason == "games"
    games.check("b2", "g-0", 1.0)  # another board's hour is its own
    games.check("b1", "g-3", 1200.0)  # a third of an hour later: one more
