"""The players' own buttons on the simulated board's page, in Debian's Chromium: a dispute held
during the game stops the clocks and is said on the page, a press with nothing to sign says what
the button is for, and after the game Red then Blue sign the scoresheet. Screenshots go to
tests/artifacts/sim/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_browser_teacher import move, open_board, shot

pytestmark = pytest.mark.browser


def test_the_players_buttons_dispute_and_sign(page, sim_server):
    open_board(page, sim_server, "table-7")
    body, says = page.locator("body"), page.locator("#says")
    move(page, sim_server, (1, 2), (2, 3), ply=1)

    page.locator("#btn-blue").click()  # nothing to sign yet: the button says what it does
    expect(says).to_contain_text("sign the scoresheet at the end; hold the button to dispute")
    page.locator("#btn-hold-red").click()  # Red disputes Blue's move
    expect(body).to_have_attribute("data-paused", "1")
    expect(says).to_contain_text("RED disputes the game")
    shot(page, "players-buttons-dispute")
    page.locator("#btn-pause").click()  # the arbiter has ruled: play on
    expect(body).to_have_attribute("data-paused", "0")

    page.locator("#btn-hold-pause").click()  # the arbiter stops the game: tally now
    page.locator("#btn-next").click()
    page.locator("#btn-confirm").click()
    expect(body).to_have_attribute("data-phase", "over")
    page.locator("#btn-red").click()
    expect(says).to_contain_text("RED signed the scoresheet: waiting for Blue.")
    page.locator("#btn-blue").click()
    expect(says).to_have_text("Both players signed the scoresheet.")
    shot(page, "players-buttons-signed")
