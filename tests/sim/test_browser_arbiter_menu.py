"""The arbiter's buttons on a Dam board in the simulator, in Debian's Chromium, as on a Damath
board: Pause pauses the game (the display says so), Pause again goes on; Hold Pause opens the
arbiter's menu on the board's display, and its *Stop: draw* ends the game, whose PDN says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import RunningServer
from .test_browser_dam import held, move, start_dam

pytestmark = pytest.mark.browser


def test_the_arbiter_pauses_and_stops_a_dam_game(page: Page, sim_server: RunningServer) -> None:
    start_dam(page, sim_server, "damarbiter")
    move(page, sim_server, (1, 4), (2, 5))
    display = page.locator("#oled-text")
    page.locator("#btn-pause").click()
    expect(display).to_contain_text("Paused by the arbiter")
    page.locator("#btn-pause").click()
    expect(display).not_to_contain_text("Paused by the arbiter")
    page.locator("#btn-hold-pause").click()
    expect(display).to_contain_text("Arbiter: end the gam")  # the display cuts at 21
    expect(display).to_contain_text("> Cancel")
    page.locator("#btn-next").click()
    expect(display).to_contain_text("> Stop: draw")
    page.locator("#btn-confirm").click()
    held(page, sim_server)
    expect(page.locator("#dam-status")).to_contain_text("Game over (1/2-1/2)")
    expect(page.locator("#dam-status")).to_contain_text("the arbiter stopped the game")
    expect(page.locator("#dam-record")).to_contain_text('[Termination "stop"]')
    expect(page.locator("#dam-record")).to_contain_text('[Result "1/2-1/2"]')
