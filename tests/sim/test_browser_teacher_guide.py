"""What a teacher new to the board meets following docs/class.md and docs/simulator.md to the
letter, in Debian's Chromium: the New game dialog starts from the board's own settings, the big
scores of a finished game are its final scores, the header says who won, the projector's sheet
shows its totals, a Damath game's dialog shows Damath's controls only, the saved games follow a
game that ended, and the links lead to the puzzles."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from controller.board.options import parse_settings
from controller.sim.server import create_app

from .conftest import ManualClock, RunningServer, new_page, serve
from .test_browser_teacher import SETTLE, STEP, open_board, square

pytestmark = pytest.mark.browser


def practice_server(clock: ManualClock, tmp_path=None):
    """The simulator as docs/class.md starts it: practice games without clocks."""
    defaults = parse_settings(["practice=true", "clocks=off"])
    app = create_app(clock=clock, tick_seconds=0.02, defaults=defaults, state_dir=tmp_path)
    return serve(app, clock)


def stop_the_game(page: Page) -> None:
    """The arbiter stops the game (Hold Pause, Next, Confirm): the tally, every chip counted."""
    page.locator("#btn-hold-pause").click()
    page.locator("#btn-next").click()
    page.locator("#btn-confirm").click()
    expect(page.locator("body")).to_have_attribute("data-phase", "over")


def test_the_new_game_dialog_starts_from_the_boards_settings(browser, clock: ManualClock) -> None:
    with practice_server(clock) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "1", play=False)
        expect(page.locator("#game-badge")).to_have_text("Integer · official rules · practice")
        page.locator("#coach-computer").select_option("red")
        expect(page.locator("body")).to_have_attribute("data-replies", "1")
        page.locator("#coach-level").select_option("3")
        expect(page.locator("body")).to_have_attribute("data-replies", "2")
        page.locator("#open-new-game").click()
        expect(page.locator("#kind-practice")).to_be_checked()
        expect(page.locator("#practice-clocks")).to_have_value("off")
        page.locator("#new-game").click()
        expect(page.locator("body")).to_have_attribute("data-replies", "3")
        page.locator("#arrange").click()
        server.clock.advance(SETTLE)
        expect(page.locator("body")).to_have_attribute("data-phase", "play")
        expect(page.locator("#clock-game")).to_have_text("--:--")
        expect(page.locator("#clock-move")).to_have_text("--:--")
        expect(page.locator("#coach-computer")).to_have_value("red")
        expect(page.locator("#coach-level")).to_have_value("3")


def test_a_damath_games_dialog_shows_damaths_controls_only(browser, clock: ManualClock) -> None:
    with practice_server(clock) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "1", play=False)
        page.locator("#open-new-game").click()
        expect(page.locator("#variant")).to_have_value("integer")
        expect(page.locator("#profile")).to_be_visible()
        expect(page.locator("#dice-mode")).to_be_hidden()
        expect(page.locator("#mc-level")).to_be_hidden()
        page.locator("#variant").select_option("dadama")
        expect(page.locator("#dice-mode")).to_be_visible()
        expect(page.locator("#mc-level")).to_be_hidden()
        expect(page.locator("#profile")).to_be_hidden()
        page.locator("#variant").select_option("mathchess")
        expect(page.locator("#mc-level")).to_be_visible()
        expect(page.locator("#dice-mode")).to_be_hidden()


OUTSIDE = """(dialog) => {
  const edge = dialog.getBoundingClientRect().right;
  return [...dialog.querySelectorAll('*')]
    .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > edge + 0.5)
    .map((e) => e.id || e.tagName.toLowerCase());
}"""
"""The dialog's visible parts that reach past its right edge (clipped on a phone)."""


def test_the_new_game_dialog_fits_a_phone_in_filipino(browser, clock: ManualClock) -> None:
    """Filipino's longer words made the fieldsets as wide as their longest line: the variant's
    list, the tournament's choice and Start fell off a 390 px screen."""
    with practice_server(clock) as server, new_page(browser, 390, 844) as page:
        open_board(page, server, "1", play=False)
        page.context.add_cookies([{"name": "damath_lang", "value": "fil", "url": server.url}])
        page.reload()
        expect(page.locator("#link")).to_have_text("konektado")
        page.locator("#open-new-game").click()
        dialog = page.locator("#new-game-dialog")
        expect(dialog).to_be_visible()
        expect(page.locator("#new-game-title")).to_have_text("Bagong laro sa board na ito")
        assert dialog.evaluate(OUTSIDE) == []


# Blue's 7 on (1, 2) takes Red's last chip, the −3 on (2, 3), landing on (3, 4), a − square:
# 7 − (−3) = 10 taken, and Blue's two chips left add 7 + 4: the final score is 21 to 0.
LAST_CHIP = {
    "variant": "integer",
    "to_move": "blue",
    "pieces": [
        {"square": [1, 2], "side": "blue", "value": "7"},
        {"square": [6, 1], "side": "blue", "value": "4"},
        {"square": [2, 3], "side": "red", "value": "-3"},
    ],
}


def play_the_last_taking(page: Page, server: RunningServer) -> None:
    page.set_input_files(
        "#position-file",
        files=[{"name": "last.json", "mimeType": "application/json",
                "buffer": json.dumps(LAST_CHIP).encode()}],
    )  # fmt: skip
    expect(page.locator(".sq .chip")).to_have_count(3)
    server.clock.advance(SETTLE)
    expect(page.locator("body")).to_have_attribute("data-phase", "play")
    for sq in ((2, 3), (1, 2), (3, 4)):  # Red's chip off, Blue's 7 lifted and set down
        before = page.locator("#status").inner_text()
        square(page, *sq).click()
        expect(page.locator("#status")).not_to_have_text(before)
    server.clock.advance(STEP)
    expect(page.locator("body")).to_have_attribute("data-phase", "over")


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_a_finished_games_big_scores_are_its_final_scores_and_the_header_says_who_won(
    browser, clock: ManualClock, size: tuple[int, int]
) -> None:
    with practice_server(clock) as server, new_page(browser, *size) as page:
        open_board(page, server, "3", play=False)
        play_the_last_taking(page, server)
        expect(page.locator("#score-blue")).to_have_text("21")  # takings 10, chips left 11
        expect(page.locator("#score-red")).to_have_text("0")
        expect(page.locator("#turn")).to_have_text(
            "Game over · Blue wins 21 to 0 · RED has no chip left"
        )
        expect(page.locator("#total-blue")).to_have_text("Blue final score: 21")


def test_the_class_overview_shows_a_finished_games_final_scores(
    browser, clock: ManualClock
) -> None:
    with practice_server(clock) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "3", play=False)
        play_the_last_taking(page, server)
        page.goto(f"{server.url}/class")
        card = page.locator('.card[data-board="3"]')
        expect(card.locator(".blue-score")).to_have_text("21")
        expect(card.locator(".red-score")).to_have_text("0")


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_projector_shows_the_final_scores_and_its_sheets_totals(
    browser, clock: ManualClock, size: tuple[int, int]
) -> None:
    with practice_server(clock) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "3", play=False)
        play_the_last_taking(page, server)
        with new_page(browser, *size) as room:
            room.goto(f"{server.url}/board/3/projector")
            expect(room.locator("#score-blue")).to_have_text("21")
            expect(room.locator("#turn")).to_contain_text("Blue wins 21 to 0")
            for kind, blue in (("grand", "21"), ("total", "10")):  # the grand and takings totals
                cell = room.locator(f'#sheet tbody tr[data-kind="{kind}"] td').nth(2)
                expect(cell).to_have_text(blue)
                expect(cell).to_be_visible()
            rc = room.locator('#sheet tbody tr[data-section="end"][data-kind="rc"] td').nth(2)
            expect(rc).to_have_text("11")  # the chips left, 7 + 4


def test_the_saved_games_list_a_game_as_soon_as_it_ends(
    browser, clock: ManualClock, tmp_path
) -> None:
    with practice_server(clock, tmp_path) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "1", play=False)
        expect(page.locator("#kept-games li")).to_have_text("none yet")
        play_the_last_taking(page, server)
        kept = page.locator("#kept-games li")
        expect(kept).to_have_count(1)
        expect(kept.first).to_contain_text("Integer, Blue v Red, 1 move.")
        sheet = kept.first.locator("a", has_text="scoresheet")
        expect(sheet).to_have_attribute("href", "/board/1/scoresheet.html")


def test_the_board_and_the_class_overview_lead_to_the_puzzles(
    browser, clock: ManualClock, tmp_path
) -> None:
    with practice_server(clock, tmp_path) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "1", play=False)
        expect(page.locator('header a[href="/puzzles"]')).to_have_text("Puzzles")
        page.goto(f"{server.url}/class")
        expect(page.locator('header a[href="/puzzles"]')).to_have_text("Puzzles")
        page.goto(f"{server.url}/")
        page.locator('a[href="/puzzles"]').first.click()
        page.wait_for_url(f"{server.url}/puzzles")


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_the_whole_board_is_above_the_fold_at_1366_by_768(
    browser, clock: ManualClock, lang: str
) -> None:
    with practice_server(clock) as server, new_page(browser, 1366, 768) as page:
        open_board(page, server, "1", play=False)
        page.context.add_cookies([{"name": "damath_lang", "value": lang, "url": server.url}])
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(".sq .chip")).to_have_count(24)
        expect(page.locator("#says")).not_to_be_empty()  # the board says what comes next
        board = page.locator("#board").bounding_box()
        bottom = page.locator('.sq[data-x="1"][data-y="0"]').bounding_box()
        assert board is not None and bottom is not None
        assert bottom["y"] + bottom["height"] <= 768, bottom  # the bottom row on the screen
        assert board["width"] >= 440  # still a board to play on, not a stamp
