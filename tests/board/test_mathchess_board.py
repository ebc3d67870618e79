"""A Mathematical Chess board's runtime: the 81 point sensors scanned into the session, the 81-LED
chain lit from the tracker (what may still be removed, a refused removal, a piece to name)
through the real LED strip and its current cap, and the board's profile checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.board.mathchess import MathChessScan, point_chain
from controller.board.mathchess_profile import load_mathchess_profile, parse_mathchess_profile
from controller.rules.mathchess import Position, from_level
from controller.session.mathchess import MathChessSession
from controller.view.mathchess_leds import LEGEND, point_lights
from drivers.leds import LedStrip, MockLedWriter
from drivers.profile import ProfileError
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


def chain_colour(frame: bytes, index: int) -> tuple[int, int, int]:
    g, r, b = frame[3 * index : 3 * index + 3]
    return r, g, b


def test_the_chain_runs_along_the_rows_and_back() -> None:
    chain = point_chain(9)
    assert sorted(i for (i,) in chain.values()) == list(range(81))
    assert chain[(0, 0)] == (0,) and chain[(8, 0)] == (8,)
    assert chain[(8, 1)] == (9,) and chain[(0, 1)] == (17,) and chain[(0, 2)] == (18,)


def test_a_scan_feeds_the_session_and_lights_what_may_still_be_removed() -> None:
    session = MathChessSession.start(r08_example3())
    points = set(occupied(session.position))
    writer = MockLedWriter()
    strip = LedStrip(writer, point_chain(9), 81, supply_amps=5.0)
    scan = MathChessScan(session, lambda: frozenset(points), strip)
    chain = point_chain(9)
    scan.step(0.0)
    points -= {MINUS_FROM}
    scan.step(0.1)
    assert chain_colour(writer.frames[-1], chain[MINUS_FROM][0]) == (144, 144, 144)  # lifted
    points |= {MINUS_TO}
    scan.step(2.0)  # the pulse at its brightest
    lit = {p for p, light in point_lights(session.tracker).items() if light.name == "removable"}
    assert lit == {ONE, TWO, SEVEN, NINE}
    assert chain_colour(writer.frames[-1], chain[ONE][0]) == LEGEND["removable"].colour
    points -= {TWO}  # refused (R06): it blinks purple, nothing else is offered
    scan.step(3.0)  # the blink on
    lights = point_lights(session.tracker)
    assert lights[TWO].name == "refused" and "removable" not in {v.name for v in lights.values()}
    assert chain_colour(writer.frames[-1], chain[TWO][0]) == LEGEND["refused"].colour
    points |= {TWO}
    points -= {ONE, NINE, SEVEN, TWO}
    scan.step(3.5)
    scan.done()
    assert session.position.to_move == 1 and len(session.game.turns()[-1].steps) == 2
    scan.step(4.0)
    assert writer.frames[-1] == bytes(81 * 3)  # a new turn with nothing to show: all dark


def test_a_piece_put_down_in_prepare_blinks_until_it_is_named() -> None:
    session = MathChessSession.start(Position.start(from_level(9)))
    points: set[tuple[int, int]] = set()
    scan = MathChessScan(session, lambda: frozenset(points))
    scan.step(0.0)
    points.add((4, 1))
    scan.step(0.1)
    assert point_lights(session.tracker)[(4, 1)].name == "naming"
    assert scan.display() == "Name it: + (1 of 4; next, confirm)"
    scan.press("next")
    scan.press("next")
    assert scan.display() == "Name it: ÷ (3 of 4; next, confirm)"
    scan.press("confirm")
    assert session.position.board.at((4, 1)).symbol == "÷"  # type: ignore[union-attr]
    assert point_lights(session.tracker) == {} and scan.display() == ""
    scan.press("confirm")  # no piece to name: the button ends a turn, and Prepare now! has none
    assert session.said is not None and session.said.rule == "C-12"
    assert scan.display().startswith("C-12: ")


def test_the_shipped_profile_and_its_power_budget() -> None:
    profile = load_mathchess_profile(PROFILE)
    assert (profile.size, profile.led_count, len(profile.rows), len(profile.columns)) == (
        9,
        81,
        9,
        9,
    )
    power = profile.power()
    assert power.budget_ma == 4250  # 85 % of a 5 A supply
    assert power.full_white_ma == 2916  # 81 LEDs x 60 mA x 0.6
    assert power.full_white_fraction == 1.0  # every LED at full white stays within the supply


def test_the_cap_keeps_a_full_white_chain_within_a_small_supply() -> None:
    writer = MockLedWriter()
    strip = LedStrip(writer, point_chain(9), 81, supply_amps=2.0)
    strip.show({p: (255, 255, 255) for p in point_chain(9)})
    drawn = sum(writer.frames[-1]) * 60 / 765
    assert drawn <= 2000 * 0.85


def _data() -> dict:
    import tomllib

    return tomllib.loads(PROFILE.read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["sensors"].update(rows=[2, 3, 4]), "needs 9 pins, got 3"),
        (
            lambda d: d["sensors"].update(rows=[16, 3, 4, 5, 6, 7, 8, 9, 10]),
            "GP16 is wanted by both",
        ),
        (lambda d: d["sensors"].update(rows=[2, 3, 4, 5, 6, 7, 8, 9, 22]), "release jumper"),
        (lambda d: d["sensors"].update(rows=[2, 3, 4, 5, 6, 7, 8, 9, 24]), "GP24 is not a pin"),
        (
            lambda d: (
                d["link"].update(transport="uart")
                or d["sensors"].update(rows=[0, 3, 4, 5, 6, 7, 8, 9, 10])
            ),
            "UART",
        ),
        (lambda d: d["leds"].update(count=64), "one LED a point is 81"),
        (lambda d: d["leds"].pop("supply_amps"), "supply_amps"),
        (lambda d: d["buttons"]["pins"].pop("next"), "next"),
        (lambda d: d["board"].update(game="damath"), "mathchess"),
    ],
)
def test_a_wrong_profile_is_refused_with_what_is_wrong(change, message) -> None:
    data = _data()
    change(data)
    with pytest.raises(ProfileError, match=message):
        parse_mathchess_profile(data, "p.toml")
