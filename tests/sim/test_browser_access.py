"""The arbiter's PIN in real Chromium: the teacher creates a board with it; on a player's browser
the arbiter's buttons ask for it, a wrong one is said so, the right one unlocks this browser and
the refused action is done. Screenshots go to tests/artifacts/sim/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from controller.sim.access import Access, hash_pin
from controller.sim.server import create_app

from .conftest import ManualClock, open_board, serve
from .test_browser import ARTIFACTS, browser  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser
PIN = "4821"


def test_the_arbiters_pin_on_a_players_browser(browser, clock: ManualClock) -> None:  # noqa: F811
    app = create_app(clock=clock, tick_seconds=0.02, access=Access(hash_pin(PIN)))
    with serve(app, clock) as server:
        teacher = browser.new_context().new_page()
        open_board(teacher, server.url, "7a", pin=PIN)
        expect(teacher.locator("#arbiter")).to_have_text("Arbiter: on (lock)")
        clock.advance(1.0)  # the opening stands: play begins
        kid = browser.new_context(viewport={"width": 1100, "height": 700}).new_page()
        errors: list[str] = []
        kid.on("pageerror", lambda exc: errors.append(str(exc)))
        kid.goto(f"{server.url}/board/7a")
        expect(kid.locator("#arbiter")).to_have_text("Arbiter: locked")
        kid.click("#btn-new")
        dialog = kid.locator("#pin-dialog")
        expect(dialog).to_be_visible()
        expect(kid.locator("#pin-why")).to_have_text(
            "New game is for the arbiter: enter the arbiter's PIN"
        )
        kid.fill("#pin-input", "1111")
        kid.click("#pin-ok")
        expect(kid.locator("#pin-problem")).to_have_text("that is not the arbiter's PIN")
        kid.screenshot(path=str(ARTIFACTS / "pin-wrong.png"))
        kid.fill("#pin-input", PIN)
        kid.click("#pin-ok")
        expect(dialog).to_be_hidden()
        expect(kid.locator("#arbiter")).to_have_text("Arbiter: on (lock)")
        # the refused press is sent again once unlocked: New game opens the abandon menu
        expect(kid.locator("#menu")).to_be_visible(timeout=10_000)
        kid.screenshot(path=str(ARTIFACTS / "pin-unlocked.png"))
        kid.click("#arbiter")  # lock again
        expect(kid.locator("#arbiter")).to_have_text("Arbiter: locked")
        assert not errors
