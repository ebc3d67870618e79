"""A Mathematical Chess board through the board's one runtime: the 81 point sensors scanned into
the game by the scan loop, the 81-LED chain lit from the tracker (what may still be removed, a
refused removal, a piece to name) through the real LED strip and its current cap, the players'
buttons naming a piece and ending a turn, the display saying the name on offer, whose turn it is
and the score; and the board's profile, an ordinary one, checked."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from controller.board import ScanLoop
from controller.board.sim import sim_devices
from controller.games import find_game
from controller.games.mathchess.kind import MathChessGame
from controller.games.mathchess.leds import LEGEND, point_lights
from controller.games.mathchess.session import MathChessSession
from controller.rules.mathchess import Position, from_level
from drivers.leds import LedStrip, MockLedWriter
from drivers.profile import ProfileError, load_profile, parse_profile
from tests.tracker.test_mathchess_traces import (
    MINUS_FROM,
    MINUS_TO,
    NINE,
    ONE,
    SEVEN,
    TWO,
    occupied,
    r08_example3,
)

PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "mathchess-pico.toml"


class Board:
    """The game on a simulated 9 × 9 board: mock point sensors and buttons, the real loop."""

    def __init__(self, start: Position) -> None:
        self.t = 0.0
        self.devices, self.hands = sim_devices(lambda: self.t, 9, "points")
        self.game = MathChessGame(MathChessSession.start(start))
        self.points = set(occupied(start))
        self.hands.set_occupied(self.points)
        self.devices.sensors.scan()
        self.loop = ScanLoop(self.game, self.devices)
        self.chain = load_profile(PROFILE).leds.mapping  # the board as built: the serpentine
        self.sim_chain = self.devices.leds.mapping  # the simulated board's chain

    def show(self, t: float | None = None) -> None:
        self.hands.set_occupied(self.points)
        self.t = self.t + 0.05 if t is None else t
        self.loop.step(self.t)
        self.loop.render(self.t)

    def press(self, name: str) -> None:
        self.hands.press(name)
        self.show()

    def colour(self, point: tuple[int, int]) -> tuple[int, int, int]:
        frame = self.hands.last_led_frame()
        assert frame is not None
        i = self.sim_chain[point][0]
        g, r, b = frame[3 * i : 3 * i + 3]
        return r, g, b


def test_the_chain_of_the_board_as_built_runs_along_the_rows_and_back() -> None:
    chain = load_profile(PROFILE).leds.mapping
    assert sorted(i for (i,) in chain.values()) == list(range(81))
    assert chain[(0, 0)] == (0,) and chain[(8, 0)] == (8,)
    assert chain[(8, 1)] == (9,) and chain[(0, 1)] == (17,) and chain[(0, 2)] == (18,)


def test_a_scan_feeds_the_game_and_lights_what_may_still_be_removed() -> None:
    board = Board(r08_example3())
    session = board.game.session
    board.show(0.0)
    board.points -= {MINUS_FROM}
    board.show(0.1)
    assert board.colour(MINUS_FROM) == (144, 144, 144)  # lifted
    board.points |= {MINUS_TO}
    board.show(2.0)  # the pulse at its brightest
    lit = {p for p, light in point_lights(session.tracker).items() if light.name == "removable"}
    assert lit == {ONE, TWO, SEVEN, NINE}
    assert board.colour(ONE) == LEGEND["removable"].colour
    board.points -= {TWO}  # refused (R06): it blinks purple, nothing else is offered
    board.show(3.0)  # the blink on
    lights = point_lights(session.tracker)
    assert lights[TWO].name == "refused" and "removable" not in {v.name for v in lights.values()}
    assert board.colour(TWO) == LEGEND["refused"].colour
    board.points |= {TWO}
    board.points -= {ONE, NINE, SEVEN, TWO}
    board.show(3.5)
    board.press("confirm")  # the player's button ends the turn
    assert session.position.to_move == 1 and len(session.game.turns()[-1].steps) == 2
    board.show(4.0)
    assert board.hands.last_led_frame() == bytes(81 * 3)  # a new turn, nothing to show: dark
    lines = board.game.display()
    white, black = session.position.score()
    assert lines[1:] == ["Black to play", f"Score: White {white}, Black {black}"]


def test_a_piece_put_down_in_prepare_blinks_until_it_is_named_with_the_buttons() -> None:
    board = Board(Position.start(from_level(9)))
    session = board.game.session
    board.show(0.0)
    board.points.add((4, 1))
    board.show()
    assert point_lights(session.tracker)[(4, 1)].name == "naming"
    assert board.game.display()[0] == "Name it: + (1 of 4; next, confirm)"
    assert board.devices.scoresheet.last[0].startswith("Name it: +")  # the display shows it
    board.press("next")
    board.press("next")
    assert board.game.display()[0] == "Name it: ÷ (3 of 4; next, confirm)"
    board.press("confirm")
    assert session.position.board.at((4, 1)).symbol == "÷"  # type: ignore[union-attr]
    assert point_lights(session.tracker) == {} and board.game.display()[0] == ""
    assert board.game.display()[1] == "Black to play"
    board.press("confirm")  # no piece to name: the button ends a turn, and Prepare now! has none
    assert session.said is not None and session.said.rule == "C-12"
    assert board.game.display()[0].startswith("C-12: ")


def test_the_shipped_profile_is_an_ordinary_profile_of_its_game() -> None:
    profile = load_profile(PROFILE)
    assert (profile.game, profile.grid, profile.size, profile.squares) == (
        "mathchess",
        "points",
        9,
        81,
    )
    find_game(profile.game).check_board(
        profile.size, profile.grid, profile.leds.count, profile.name
    )
    assert profile.leds.count == 81 and profile.link is not None
    assert set(profile.buttons.pins) == {"confirm", "next", "pause", "new_game"}
    assert profile.scoresheet.backend == "ssd1306"  # the name on offer, whose turn, the score


def test_the_cap_keeps_a_full_white_chain_within_the_supply() -> None:
    profile = load_profile(PROFILE)
    for amps in (profile.leds.supply_amps, 2.0):
        writer = MockLedWriter()
        strip = LedStrip(writer, profile.leds.mapping, 81, supply_amps=amps)
        strip.show({p: (255, 255, 255) for p in profile.leds.mapping})
        drawn = sum(writer.frames[-1]) * 60 / 765
        assert amps is not None and drawn <= amps * 1000 * 0.85


def _data() -> dict:
    return tomllib.loads(PROFILE.read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["leds"].update(count=64), "the layout needs LED index 80, count is 64"),
        (lambda d: d["leds"].pop("supply_amps"), "supply_amps"),
        (lambda d: d["board"].update(grid="dark-squares"), "must be 8 or 12 squares a side"),
        (lambda d: d["board"].update(size=15), "must be 5..13 points a side"),
        (lambda d: d["board"].update(grid="hexagons"), "must be dark-squares or points"),
        (lambda d: d["board"].update(game="Chess!"), "not a game's name"),
        (lambda d: d.update(game=3), "[game]: must be a table"),
    ],
)
def test_a_wrong_profile_is_refused_with_what_is_wrong(change, message) -> None:
    data = _data()
    change(data)
    with pytest.raises(ProfileError, match=message.replace("[", r"\[").replace(".", r"\.")):
        parse_profile(data, "p.toml")


@pytest.mark.parametrize(
    ("size", "grid", "leds", "message"),
    [
        (
            8,
            "dark-squares",
            32,
            "board b is 8 × 8 squares: Mathematical Chess is played on 9 × 9 points",
        ),
        (9, "points", 40, "board b has 40 LEDs; Mathematical Chess needs one under each of 81"),
    ],
)
def test_a_board_that_cannot_play_the_game_is_named(size, grid, leds, message) -> None:
    with pytest.raises(ValueError, match=message):
        find_game("mathchess").check_board(size, grid, leds, "b")
