"""Dadama in the simulator, in Debian's Chromium: the dice drawn with their pips, the throw
entered from real dice with the page's face buttons (so every throw is known), a failed
throw, a chosen taking, a taking continued and one declined, a dadama's two dice, the loss by
all sixes. Screenshots in tests/artifacts/sim/dadama-*.png."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, RunningServer, open_board

pytestmark = pytest.mark.browser

FIG3 = {(3, 2): "w3", (0, 1): "w3", (4, 3): "b3", (2, 3): "b5", (6, 5): "b3"}


def position(pieces: dict) -> dict:
    listed = [
        {
            "square": [x, y],
            "side": "white" if code[0] == "w" else "black",
            "value": int(code[1]),
            "dadama": code.endswith("D"),
        }
        for (x, y), code in pieces.items()
    ]
    return {"to_move": "white", "pieces": listed}


def cell(page: Page, x: int, y: int):
    return page.locator(f'.dcell[data-square="{x},{y}"]')


def start_dadama(page: Page, url: str) -> None:
    open_board(page, url, "dice")
    page.locator("#open-new-game").click()
    page.locator("#variant").select_option("dadama")
    page.locator("#dice-mode").select_option("real")
    page.locator("#new-game").click()
    expect(page.locator("body")).to_have_attribute("data-game", "dadama")


def load(page: Page, pieces: dict, tmp_name: str = "lesson.json") -> None:
    data = json.dumps(position(pieces)).encode()
    asks = page.evaluate("state.ply > 0 && state.phase !== 'over'")  # a game under way
    page.set_input_files(
        "#position-file", files=[{"name": tmp_name, "mimeType": "application/json", "buffer": data}]
    )
    if asks:
        expect(page.locator("#new-game-dialog")).to_be_visible()
        expect(page.locator("#variant")).to_have_value("dadama")
        page.locator("#new-game").click()
    expect(page.locator("#dadama-record")).not_to_contain_text("1. ")  # a fresh game
    expect(cell(page, 1, 2)).to_have_attribute("data-value", "")  # not the opening
    expect(cell(page, 3, 2)).to_have_attribute("data-value", "3")
    expect(page.locator("#dadama-status")).to_contain_text("White")


def jump(page: Page, start, to, taken) -> None:
    cell(page, *start).click()
    cell(page, *to).click()
    cell(page, *taken).click()  # the taken die off the board


def test_dadama_on_the_page(page: Page, sim_server: RunningServer) -> None:
    start_dadama(page, sim_server.url)
    expect(page.locator(".dcell svg")).to_have_count(24)  # twelve dice a side, showing 3
    expect(cell(page, 1, 2).locator("circle")).to_have_count(3)
    page.screenshot(path=str(ARTIFACTS / "dadama-opening.png"))

    # a failed throw: a 2 cannot take A (3) or B (5); the die keeps the 2, Black is to move
    load(page, FIG3)
    expect(cell(page, 3, 2)).to_have_attribute("data-light", "throws")
    page.locator("#face-2").click()
    expect(cell(page, 3, 2)).to_have_attribute("data-value", "2")
    expect(cell(page, 3, 2).locator("circle")).to_have_count(2)
    expect(page.locator("#dadama-status")).to_contain_text("Black")
    expect(page.locator("#dadama-record")).to_contain_text("(3,2) [2]")

    # a chosen taking: a 5 may take A or B; the player takes B
    load(page, FIG3)
    page.locator("#face-5").click()
    expect(cell(page, 2, 3)).to_have_attribute("data-light", "takeable")
    expect(cell(page, 4, 3)).to_have_attribute("data-light", "takeable")
    page.screenshot(path=str(ARTIFACTS / "dadama-choose-taking.png"))
    jump(page, (3, 2), (1, 4), (2, 3))
    expect(cell(page, 1, 4)).to_have_attribute("data-value", "5")
    expect(page.locator("#dadama-record")).to_contain_text("(3,2)x(1,4) [5]")

    # a taking continued: A with a 5, then Confirm goes on and a 4 takes C (each step once the
    # page shows the board's answer to the one before: a click reads the page's own picture)
    load(page, FIG3)
    page.locator("#face-5").click()
    expect(cell(page, 4, 3)).to_have_attribute("data-light", "takeable")
    jump(page, (3, 2), (5, 4), (4, 3))
    expect(cell(page, 5, 4)).to_have_attribute("data-light", "go_on")
    page.screenshot(path=str(ARTIFACTS / "dadama-go-on.png"))
    status = page.locator("#dadama-status")
    expect(status).to_contain_text("go on (Confirm) or stop (Next)")
    page.locator("#btn-confirm").click()
    expect(status).not_to_contain_text("go on (Confirm) or stop (Next)")
    page.locator("#face-4").click()
    expect(cell(page, 6, 5)).to_have_attribute("data-light", "takeable")
    jump(page, (5, 4), (7, 6), (6, 5))
    expect(page.locator("#dadama-record")).to_contain_text("(3,2)x(5,4) [5] x(7,6) [4]")

    # a taking declined: after A, Next stops and the die keeps its 5
    load(page, FIG3)
    page.locator("#face-5").click()
    expect(cell(page, 4, 3)).to_have_attribute("data-light", "takeable")
    jump(page, (3, 2), (5, 4), (4, 3))
    expect(cell(page, 5, 4)).to_have_attribute("data-light", "go_on")
    page.locator("#btn-next").click()
    expect(page.locator("#dadama-status")).to_contain_text("Black")
    expect(cell(page, 5, 4)).to_have_attribute("data-value", "5")
    expect(cell(page, 6, 5)).to_have_attribute("data-value", "3")

    # a dadama throws two dice and keeps the one that takes
    load(page, {(3, 2): "w3D", (0, 1): "w3", (4, 3): "b5", (6, 5): "b3"})
    expect(cell(page, 3, 2).locator("rect")).to_have_count(2)  # two dice stacked
    page.locator("#face-2").click()
    page.locator("#face-6").click()
    expect(page.locator("#dadama-throw .thrown")).to_have_count(2)
    expect(page.locator("#dadama-throw .thrown.kept")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "dadama-two-dice.png"))
    jump(page, (3, 2), (5, 4), (4, 3))
    expect(page.locator("#dadama-record")).to_contain_text("[2,6→6]")

    # all sixes: White's only die throws a 6 and White loses at once
    load(page, {(3, 2): "w3", (4, 3): "b3", (6, 5): "b3"})
    page.locator("#face-6").click()
    expect(page.locator("#dadama-status")).to_contain_text("every die of White shows 6")
    page.screenshot(path=str(ARTIFACTS / "dadama-all-sixes.png"))


def test_the_board_throws_with_its_button(page: Page, sim_server: RunningServer) -> None:
    """Dice thrown by the board: Confirm throws, and the throw is shown with its pips."""
    open_board(page, sim_server.url, "thrown")
    page.locator("#open-new-game").click()
    page.locator("#variant").select_option("dadama")
    page.locator("#dice-mode").select_option("board")
    page.locator("#new-game").click()
    expect(page.locator("#dadama-faces")).to_be_hidden()
    load(page, FIG3)
    page.locator("#btn-confirm").click()
    expect(page.locator("#dadama-last")).to_contain_text("(3,2)")
    page.screenshot(path=str(ARTIFACTS / "dadama-board-throw.png"))
    page.goto(f"{sim_server.url}/class")  # the class overview shows a Dadama board's card
    expect(page.locator(".card .badge")).to_have_text("Dadama")  # the game's name
    expect(page.get_by_text("White", exact=True)).to_be_visible()


def test_a_phone_shows_the_whole_dice_board_and_its_buttons(
    page: Page, sim_server: RunningServer
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_dadama(page, sim_server.url)
    expect(page.locator(".dcell svg")).to_have_count(24)
    box = page.locator("#dadama-board").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    faces = page.locator("#dadama-faces").bounding_box()
    assert faces is not None and faces["x"] + faces["width"] <= 390
    page.screenshot(path=str(ARTIFACTS / "dadama-phone.png"), full_page=True)
