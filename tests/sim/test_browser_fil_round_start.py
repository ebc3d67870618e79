"""A tournament board waiting for the round's start speaks Filipino (issue 26, items 1 and the
"every visible string" check): a board that speaks Filipino (``sim --lang fil``) whose link
holds its clocks for the desk's start, as ``sim --hub`` does, shows the wait, refuses a move
made before the start and says the start, every word of each page in Filipino (outside the
short list classrooms keep, tests/i18n/english_words.py), the clocks at full time until the
start. Screenshots: tests/artifacts/sim/fil-round-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from controller import i18n
from controller.sim.server import create_app

from .conftest import ARTIFACTS, ManualClock, RunningServer, serve
from .test_browser_fil_words import english_on, filipino, square

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SETTLE = 0.3
ASG = "a-round1-table7"


class _HeldLinks:
    """``sim --hub``'s links as the server sees them (``link.board.BoardLinks``), their hub
    replaced by the test: at every step the board's clocks are held for the desk's start of
    table 7, as ``link.board`` holds them, until the test sends the start."""

    def __init__(self) -> None:
        self.go = False

    def ids(self) -> list[str]:
        return ["t7"]

    def start(self) -> None:
        pass

    def stop(self, timeout: float) -> int:
        return 0

    def after_step(self, board: str, session, t: float) -> str | None:
        if self.go:
            session.desk_start(t, ASG)
        else:
            session.set_info(t, {"table": "7", "round": "1", "blue": "Ana Cruz", "red": "Ben Lim"})
            session.hold_clocks(t, "desk", ASG)
        return None

    def refused(self, board: str) -> str:
        return ""  # a Damath board at a Damath table: nothing refused


@pytest.fixture
def held_server(clock: ManualClock, tmp_path: Path) -> Iterator[tuple[RunningServer, _HeldLinks]]:
    links = _HeldLinks()
    i18n.set_language("fil")
    try:
        app = create_app(clock=clock, tick_seconds=0.02, state_dir=tmp_path, links=links)
        with serve(app, clock) as running:
            yield running, links
    finally:
        i18n.set_language("en")


def test_a_board_waiting_for_the_rounds_start_speaks_filipino(
    browser: Browser, held_server: tuple[RunningServer, _HeldLinks]
) -> None:
    server, links = held_server
    clock = server.clock
    page = filipino(browser, server).new_page()
    page.goto(f"{server.url}/board/t7")
    body, says = page.locator("body"), page.locator("#says")
    clock.advance(SETTLE)
    expect(body).to_have_attribute("data-phase", "play")
    expect(says).to_contain_text("Mesa 7")
    waiting = says.inner_text()
    english = english_on(page, "waiting for the desk's start")
    clock.advance(120)  # two minutes while the hall settles: the clocks stay at full time
    expect(page.locator("#clock-game")).to_have_text("20:00")
    expect(page.locator("#clock-move")).to_have_text("1:00")
    page.screenshot(path=str(ARTIFACTS / "fil-round-waiting.png"), full_page=True)

    square(page, 1, 2).click()  # Blue's move before the start: not played, the chip put back
    square(page, 2, 3).click()
    # the server has the chip on (2, 3) before its clock moves (clicks travel asynchronously)
    expect(square(page, 2, 3).locator(".chip")).to_have_count(1)
    clock.advance(SETTLE)
    expect(says).not_to_have_text(waiting)
    expect(body).to_have_attribute("data-ply", "0")
    english += english_on(page, "a move before the start")
    page.screenshot(path=str(ARTIFACTS / "fil-round-not-started.png"), full_page=True)
    square(page, 2, 3).click()
    square(page, 1, 2).click()
    clock.advance(SETTLE)

    links.go = True  # the arbiter's start from the desk reaches the board
    clock.advance(SETTLE)
    expect(says).to_have_text(i18n._("The round has started: the clocks run."))
    clock.advance(5)  # the clocks run from the start: both below their full time
    expect(page.locator("#clock-game")).to_have_text(re.compile(r"^19:5\d$"))
    expect(page.locator("#clock-move")).to_have_text(re.compile(r"^0:5\d$"))
    english += english_on(page, "the round started")
    page.screenshot(path=str(ARTIFACTS / "fil-round-started.png"), full_page=True)
    assert english == [], "\n".join(f"{w}  ({where})" for w, where in english)
