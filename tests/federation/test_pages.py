"""The federation's pages in Chromium, as a federation administrator new to the project met
them (issue 40, item 17): the rating list fits a phone, the wall's chips can be read, and the
wall says when no broker cluster is set up instead of showing nothing."""

from __future__ import annotations

from playwright.sync_api import expect

from controller.rules.game import Game
from controller.rules.notation import game_to_json
from tests.sim.conftest import new_page

from .site import PLAYERS, rated, served
from .test_wall_page import G1, send, state, table

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 768}


def test_the_rating_list_fits_a_phone(browser, tmp_path):
    with served(tmp_path / "fed") as site:
        ids = rated(site)
        with new_page(browser, **PHONE) as page:
            page.goto(site.url + "/ratings")
            expect(page.locator("table.list tbody tr")).to_have_count(len(PLAYERS))
            assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
            for name, school, _region in PLAYERS:  # each row's name, school and rating seen
                row = page.locator("table.list tbody tr", has_text=name)
                expect(row).to_contain_text(school)
                for cell in (row.get_by_role("link", name=name), row.locator("td.rating")):
                    box = cell.bounding_box()
                    assert box is not None and box["x"] + box["width"] <= PHONE["width"], name
        with new_page(browser, **WIDE) as page:  # on a wide screen, every column as before
            page.goto(site.url + "/ratings")
            row = page.locator("table.list tbody tr", has_text=PLAYERS[0][0])
            expect(row.get_by_role("cell", name=ids[0], exact=True)).to_be_visible()


def test_the_walls_chips_can_be_read(browser, tmp_path):
    position = game_to_json(Game.new("integer"))
    with served(tmp_path / "fed") as site:
        send(site.wall, "b1", "assignment", table("a-000000000001", 1, "Ana Reyes", "Ben Cruz"))
        send(site.wall, "b1", "state", state("b1", G1, 3, "a-000000000001", position=position))
        for viewport in (WIDE, PHONE):
            with new_page(browser, **viewport) as page:
                page.goto(site.url + "/wall")
                chips = page.locator(".grid > div > div")  # a square's piece
                expect(chips).to_have_count(len(position["pieces"]))
                for chip in chips.all():
                    found = chip.evaluate(
                        """c => ({size: parseFloat(getComputedStyle(c).fontSize),
                                  fits: c.scrollWidth <= c.clientWidth,
                                  dark: c.parentElement.classList.contains("dark"),
                                  text: c.textContent})"""
                    )  # fmt: skip
                    assert found["size"] >= 12, found  # px: readable on a projected wall
                    assert found["fits"] and found["dark"], found  # on its square, whole
                expect(chips.first).not_to_have_text("")


def test_the_wall_says_when_no_broker_cluster_is_set_up(browser, tmp_path):
    with served(tmp_path / "fed") as site, new_page(browser) as page:
        page.goto(site.url + "/wall")
        expect(page.locator("#broker")).to_contain_text("No broker cluster is set up")
        expect(page.locator("#halls")).to_contain_text("No hall's board has reached this wall")
