"""Dam (12×12) in the simulator, in Debian's Chromium: the new-game dialog starts it, the page
draws 72 dark squares with 30 men a side, a few moves are read from the table, and a king's
taking that turns at the edge (loaded through the JSON position format) ends the game, whose
PDN is shown and kept. Desktop and phone widths; screenshots in tests/artifacts/sim/dam-*.png."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, RunningServer, open_board

pytestmark = pytest.mark.browser

EDGE = {
    "game": "dam",
    "to_move": "black",
    "pieces": [
        {"square": [5, 0], "side": "black", "king": True},
        {"square": [7, 2], "side": "white"},
        {"square": [8, 9], "side": "white"},
        {"square": [1, 10], "side": "black"},
    ],
}


def cell(page: Page, x: int, y: int):
    return page.locator(f'.mcell[data-square="{x},{y}"]')


def start_dam(page: Page, server: RunningServer, board: str) -> None:
    open_board(page, server.url, board)
    page.locator("#open-new-game").click()
    page.locator("#variant").select_option("dam")
    page.locator("#new-game").click()
    expect(page.locator("body")).to_have_attribute("data-game", "dam")
    expect(page.locator(".mcell.dark")).to_have_count(72)
    expect(page.locator(".mcell svg")).to_have_count(60)  # thirty men a side
    held(page, server)


def held(page: Page, server: RunningServer) -> None:
    """The board held still past its settle time (the test's clock moves only when told)."""
    server.clock.advance(0.5)
    page.wait_for_timeout(120)  # a few of the server's ticks


def move(
    page: Page,
    server: RunningServer,
    *path: tuple[int, int],
    taken: tuple[tuple[int, int], ...] = (),
) -> None:
    # each change is seen on the page (the server has it) before the test's clock moves on, so
    # a loaded machine cannot stamp a change after the settle time it was meant to wait out
    def pieces(sq: tuple[int, int], count: int) -> None:
        expect(cell(page, *sq).locator("svg")).to_have_count(count)
        held(page, server)

    cell(page, *path[0]).click()  # lifted
    pieces(path[0], 0)
    for sq in path[1:-1]:  # set down on the way, and lifted again
        cell(page, *sq).click()
        pieces(sq, 1)
        cell(page, *sq).click()
        pieces(sq, 0)
    cell(page, *path[-1]).click()
    pieces(path[-1], 1)
    for sq in taken:
        page.evaluate("sq => send({type: 'remove', square: sq})", list(sq))
        pieces(sq, 0)


def test_dam_on_the_page(page: Page, sim_server: RunningServer) -> None:
    start_dam(page, sim_server, "dam")
    expect(page.locator("#dam-status")).to_contain_text("Black to move")
    page.screenshot(path=str(ARTIFACTS / "dam-opening.png"))
    move(page, sim_server, (1, 4), (2, 5))  # Black's man forward
    expect(page.locator("#dam-status")).to_contain_text("White to move")
    expect(page.locator("#dam-record")).to_contain_text("1.")
    move(page, sim_server, (2, 7), (3, 6))
    expect(page.locator("#dam-status")).to_contain_text("Black")

    data = json.dumps(EDGE).encode()
    page.set_input_files(
        "#position-file",
        files=[{"name": "edge.json", "mimeType": "application/json", "buffer": data}],
    )
    expect(page.locator("#new-game-dialog")).to_be_visible()  # a game is under way: asked
    expect(page.locator("#variant")).to_have_value("dam")
    page.locator("#new-game").click()
    expect(page.locator(".mcell svg")).to_have_count(4)
    held(page, sim_server)
    expect(cell(page, 5, 0)).to_have_attribute("data-light", "must_take")
    page.screenshot(path=str(ARTIFACTS / "dam-king-must-take.png"))
    move(page, sim_server, (5, 0), (11, 6), (7, 10), taken=((7, 2), (8, 9)))
    expect(page.locator("#dam-status")).to_contain_text("Game over (1-0)")
    expect(page.locator("#dam-record")).to_contain_text("1-0")
    expect(page.locator("#dam-record")).to_contain_text('[GameType "Dam"]')
    page.screenshot(path=str(ARTIFACTS / "dam-king-took.png"))


def test_a_phone_shows_the_whole_12x12_board(page: Page, sim_server: RunningServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_dam(page, sim_server, "damphone")
    box = page.locator("#dam-board").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    one = cell(page, 0, 11).bounding_box()
    assert one is not None and one["width"] >= 24  # a square a finger can hit
    page.screenshot(path=str(ARTIFACTS / "dam-phone.png"), full_page=True)
