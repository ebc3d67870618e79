"""The LED view of the tracker's guidance: meanings on the right squares, colour-blind safe."""

from __future__ import annotations

from controller.rules.game import Game
from controller.tracker import Tracker
from controller.view.leds import LEGEND, led_colours, square_lights


def test_lifted_chip_lights_its_destinations() -> None:
    game = Game.new("integer")
    tr = Tracker(game)
    board = set(game.occupied())
    tr.feed_frame(0.0, board)
    tr.feed_frame(0.5, board - {(1, 2)})
    lights = square_lights(tr.guidance())
    assert lights[(1, 2)].name == "lifted"
    assert lights[(0, 3)].name == lights[(2, 3)].name == "destination"
    assert len(led_colours(tr.guidance(), 0.5)) == 32


def test_mismatch_squares_blink_and_stay_findable() -> None:
    game = Game.new("integer")
    tr = Tracker(game)
    board = set(game.occupied())
    tr.feed_frame(0.0, board)
    tr.feed_frame(0.5, board - {(1, 2), (3, 2)})
    tr.tick(2.0)
    on, off = led_colours(tr.guidance(), 0.0), led_colours(tr.guidance(), 0.3)
    assert square_lights(tr.guidance())[(1, 2)].name == "missing"
    assert on[(1, 2)] != off[(1, 2)] and off[(1, 2)] != (0, 0, 0)


def test_action_meanings_never_differ_by_colour_alone() -> None:
    """Any two meanings that share a pattern and brightness differ in more than red vs green."""
    lights = list(LEGEND.values())
    for a in lights:
        for b in lights:
            if a is b or (a.pattern, a.brightness) != (b.pattern, b.brightness):
                continue
            # differ in blue or in overall lightness, not only in the red/green balance
            assert abs(a.colour[2] - b.colour[2]) > 60 or abs(sum(a.colour) - sum(b.colour)) > 120
