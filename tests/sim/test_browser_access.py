"""The arbiter's PIN in real Chromium: the teacher creates a board with it; on a player's browser
the arbiter's buttons ask for it, a wrong one is said so, the right one unlocks this browser and
the refused action is done. Screenshots go to tests/artifacts/sim/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from controller.sim.access import Access, hash_pin
from controller.sim.server import create_app

from .conftest import ARTIFACTS, ManualClock, new_page, open_board, serve

pytestmark = pytest.mark.browser
PIN = "4821"


def test_the_arbiters_pin_on_a_players_browser(browser, clock: ManualClock) -> None:
    app = create_app(clock=clock, tick_seconds=0.02, access=Access(hash_pin(PIN)))
    with (
        serve(app, clock) as server,
        new_page(browser) as teacher,
        new_page(browser, 1100, 700) as kid,
    ):
        open_board(teacher, server.url, "7a", pin=PIN)
        expect(teacher.locator("#arbiter")).to_have_text("Arbiter: on (lock)")
        clock.advance(1.0)  # the opening stands: play begins
        kid.goto(f"{server.url}/board/7a")
        expect(kid.locator("#arbiter")).to_have_text("Arbiter: locked")
        expect(kid.locator("#link")).to_have_text("connected")  # a press before it is not sent
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


def test_the_newcomers_forms_ask_for_the_pin_and_are_done_once_unlocked(
    browser,
    clock: ManualClock,
) -> None:
    """The players' names and the New game dialog are the arbiter's: on a player's browser
    each asks for the PIN and is done, as it was filled in, once the PIN is typed."""
    app = create_app(clock=clock, tick_seconds=0.02, access=Access(hash_pin(PIN)))
    with (
        serve(app, clock) as server,
        new_page(browser) as teacher,
        new_page(browser) as kid,
        new_page(browser) as other,
    ):
        open_board(teacher, server.url, "7b", pin=PIN)
        kid.goto(f"{server.url}/board/7b")
        expect(kid.locator("#arbiter")).to_have_text("Arbiter: locked")
        expect(kid.locator("#link")).to_have_text("connected")
        form = kid.locator("#info-form")
        form.locator('input[name="blue"]').fill("Ana Cruz")
        kid.locator("#save-info").click()
        expect(kid.locator("#pin-why")).to_have_text(
            "The players' names and the event is for the arbiter: enter the arbiter's PIN"
        )
        expect(kid.locator("#name-blue")).to_have_text("Blue")  # nothing done yet
        kid.fill("#pin-input", PIN)
        kid.click("#pin-ok")
        expect(kid.locator("#name-blue")).to_have_text("Ana Cruz (Blue)")
        expect(teacher.locator("#name-blue")).to_have_text("Ana Cruz (Blue)")
        other.goto(f"{server.url}/board/7b")  # another player's browser: the New game dialog
        expect(other.locator("#arbiter")).to_have_text("Arbiter: locked")
        expect(other.locator("#link")).to_have_text("connected")
        other.click("#open-new-game")
        other.select_option("#variant", "fraction")
        other.click("#new-game")
        expect(other.locator("#pin-why")).to_have_text(
            "A new game is for the arbiter: enter the arbiter's PIN"
        )
        expect(teacher.locator("#game-badge")).to_contain_text("Integer")
        other.fill("#pin-input", PIN)
        other.click("#pin-ok")
        expect(other.locator("#game-badge")).to_contain_text("Fraction")
        expect(teacher.locator("#game-badge")).to_contain_text("Fraction")
