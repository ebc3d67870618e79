"""Issue 40 at the desk, in Debian's Chromium, on the real hub: an organiser running a Damath and
a Dam division in one event. *Give every table without a board the next free board* seats each
division with boards of its own game (the hub knows what each board plays); a board chosen for
a table from another table swaps places with that table's board at once; the round's start and
the log are shown in the hall's time (the hub's time zone, named), not UTC."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from controller.hub.accounts import Accounts
from controller.hub.store import Store
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament
from tests.chromium import browser_scope

from .conftest import DESK_PASSWORD
from .test_desk_browser import login

pytestmark = pytest.mark.browser

PLAYS = {"b01": "damath", "b02": "damath", "b03": "damath", "b04": "dam", "b05": "dam"}


def test_boards_are_seated_by_their_game_and_swapped_in_one_step(hub, browser):
    t = Tournament.create(hub.folder, Event("Two Games"), Division("open", "swiss", 3))
    t.set_division("dam", "swiss", 3, game="dam")
    for n in range(6):
        t.add_player(f"Open {n}")
    for n in range(4):
        t.add_player(f"Dam {n}", division="dam")
    accounts = Accounts(hub.folder)
    accounts.add("org", "organiser", DESK_PASSWORD)
    accounts.close()
    for board in PLAYS:
        hub.add_board(board)
    hub.env = {"TZ": "Asia/Manila"}  # the hall's clock: UTC+8
    hub.start()
    store = Store(hub.folder / "hub.sqlite")
    try:  # what each board said it plays (its presence's ``plays``)
        for board, game in PLAYS.items():
            with store.transaction() as db:
                store.touch_board(db, board, 1.0, plays=game)
    finally:
        store.close()
    with browser_scope(browser):
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        login(page, hub.url, "org")
        page.get_by_role("link", name="Boards").first.click()
        page.get_by_role("button", name="Give every table without a board").click()
        expect(page.locator(".msg")).to_have_text("every table has a board")
        chosen = {
            (d, n): page.get_by_label(f"board at table {n} of division {d}")
            for d, n in (("dam", 1), ("dam", 2), ("open", 1), ("open", 2), ("open", 3))
        }
        for key, board in {("dam", 1): "b04", ("dam", 2): "b05", ("open", 1): "b01",
                           ("open", 2): "b02", ("open", 3): "b03"}.items():  # fmt: skip
            expect(chosen[key]).to_have_value(board)
        # b02 chosen for table 1: it changes places with b01, nobody unseated first
        chosen[("open", 1)].select_option("b02")
        page.locator("table.seats tbody tr").nth(2).get_by_role("button", name="Set").click()
        expect(page.locator(".msg")).to_have_text("table 1: board b02; board b01 moved to table 2")
        expect(chosen[("open", 1)]).to_have_value("b02")
        expect(chosen[("open", 2)]).to_have_value("b01")
        page.screenshot(path=str(hub.folder.parent / "seats.png"), full_page=True)

        # the log in the hall's time, its zone named
        page.get_by_role("link", name="Log").first.click()
        expect(page.locator("table.log thead th").first).to_have_text(
            "when (UTC+8, the hall's time)"
        )
        expect(page.locator("table.log tbody tr").first.locator("td").first).to_contain_text(
            " UTC+8"
        )
        page.close()
    t.close()
