"""The spectator wall in Debian's Chromium once a game is over: the big numbers on its card are
the game's final scores (the takings and the chips left: RULES.md), the result's numbers, not the
takings alone (issue 40). Screenshot, looked at: tests/artifacts/hub/wall-final-scores.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.chromium import browser_scope

from .eventkit import GAMES, HallBoard
from .test_wall_browser import ARTIFACTS

pytestmark = pytest.mark.browser


def test_a_finished_games_card_shows_its_final_scores(hub, tmp_path, browser) -> None:
    hub.start()
    board = HallBoard.start("t1", hub.add_board("t1"), tmp_path / "t1")
    board.play_game("red")  # the arbiter stops it after 10 moves: Red wins, −6 to 16
    _count, _ending, _winner, blue, red = GAMES["red"]
    assert board.play.session.totals() != (blue, red)  # the takings alone are other numbers
    try:
        with browser_scope(browser):
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(hub.url + "/")
            card = page.locator("#b-t1")
            expect(card.locator(".pill")).to_have_text("0-1", timeout=60_000)  # Red won
            expect(card.locator(".player.blue .total")).to_have_text(blue)
            expect(card.locator(".player.red .total")).to_have_text(red)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "wall-final-scores.png"))
    finally:
        board.play.close()
        board.link.link.stop()
