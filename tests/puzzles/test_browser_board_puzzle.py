"""The simulator's board page opens a puzzle for a child (the new-game dialog's "A puzzle for"),
in Chromium: the board sets the child's next puzzle up, and a name not on the class list is
refused in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from controller.puzzles.store import next_puzzle
from controller.sim.server import create_app
from tests.sim.conftest import ManualClock, RunningServer, browser, new_page, open_board, serve

__all__ = ["browser"]

pytestmark = pytest.mark.browser


@pytest.fixture
def server(class_dir: Path) -> Iterator[RunningServer]:
    clock = ManualClock()
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=class_dir)
    with serve(app, clock) as running:
        yield running


def test_the_board_page_opens_a_childs_puzzle(
    browser: Browser, server: RunningServer, class_dir: Path
) -> None:
    found = next_puzzle(class_dir / "puzzles.sqlite", "Ana Cruz")
    assert found is not None
    expected = found[0]
    with new_page(browser) as page:
        open_board(page, server.url, "p1")
        page.locator("#open-new-game").click()
        page.locator("#puzzle-child").fill("Nobody Here")
        page.locator("#new-game").click()
        expect(page.locator("#status")).to_contain_text("'Nobody Here' is not on the class list")
        page.locator("#open-new-game").click()
        page.locator("#puzzle-child").fill("Ana Cruz")
        page.locator("#new-game").click()
        expect(page.locator("#status")).to_contain_text("A puzzle for Ana Cruz")
        chips = page.locator(".sq .chip")
        expect(chips).to_have_count(len(expected.game().chips()))
        server.clock.advance(0.5)  # the chips held still past the settle time
        expect(page.locator("body")).to_contain_text("to move: find the best move.")
