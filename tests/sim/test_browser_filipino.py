"""A whole game in Filipino, in Debian's Chromium: the board speaks Filipino (``sim --lang fil``)
from the page that creates it to the printed sheet. Every word of the page, the messages of a
wrong lift and a wrong move, the board's display picture, the scoresheet with its takings, the
end of the game and the printable sheet; then the page's own switch turns the page's words to
English and back, remembered by the browser. Screenshots: tests/artifacts/sim/fil-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller import i18n
from controller.i18n.html import page_words
from controller.sim.server import create_app
from controller.sim.static import __file__ as static_init

from .conftest import ARTIFACTS, ManualClock, RunningServer, new_page, serve
from .hands import Hands
from .test_browser import STEP, Player, sample_moves, square

pytestmark = pytest.mark.browser
SETTLE = 0.25
BOARD_HTML = Path(static_init).with_name("board.html")


@pytest.fixture
def filipino_server(clock: ManualClock) -> Iterator[RunningServer]:
    """The simulator whose boards speak Filipino, as ``damath-board sim --lang fil`` runs it."""
    i18n.set_language("fil")
    try:
        with serve(create_app(clock=clock, tick_seconds=0.02), clock) as running:
            yield running
    finally:
        i18n.set_language("en")


def shot(page: Page, name: str, full: bool = True) -> None:
    page.screenshot(path=str(ARTIFACTS / f"fil-{name}.png"), full_page=full)


def english_left(page: Page) -> list[str]:
    """The page's own English sentences still showing (each word of board.html that has a
    different Filipino translation; long ones only, so that no short word matches by chance)."""
    shown = page.locator("body").inner_text()
    with i18n.use("fil"):
        words = {w for _, w in page_words(BOARD_HTML.read_text(encoding="utf-8"))}
        return sorted(w for w in words if len(w) >= 12 and i18n._(w) != w and w in shown)


def test_a_whole_game_in_filipino(page: Page, filipino_server: RunningServer) -> None:
    server = filipino_server
    me = Player(page, server)
    body, says, oled = page.locator("body"), page.locator("#says"), page.locator("#oled-text")

    # The address of a board not made yet: the page that creates it speaks Filipino too.
    page.goto(f"{server.url}/board/laro")
    expect(page.locator("h1")).to_have_text("Wala pang board na laro")
    page.get_by_role("button", name="Gawin ang board laro").click()
    page.wait_for_url(f"{server.url}/board/laro")
    expect(page.locator("#link")).to_have_text("konektado")
    expect(page.locator("html")).to_have_attribute("lang", "fil")
    expect(page.locator("#open-new-game")).to_have_text("Bagong laro…")
    expect(page.locator(".arbiter h2")).to_have_text("Mga pindutan ng arbiter")
    expect(page.locator("#language")).to_have_value("fil")

    # Setting up: the display counts the chips in place in Filipino (the virtual board stands
    # them all); the game starts once they settle.
    expect(oled).to_contain_text("Pag-aayos 24/24")
    expect(oled).to_contain_text("Ayos na: alis kamay")
    expect(page.get_by_role("button", name="Ayusin ang mga chip para sa akin")).to_be_visible()
    shot(page, "01-setup")
    me.wait(SETTLE)
    expect(body).to_have_attribute("data-phase", "play")
    me.elapsed = 0.0
    expect(page.locator("#turn")).to_have_text("Tira ng Asul")
    assert english_left(page) == []

    # A wrong lift and a wrong move are explained in Filipino, on the page and the display.
    square(page, 2, 5).click()
    expect(says).to_have_text(
        "Tira ng ASUL: ang mga chip ng asul lang ang gagalaw ngayon. "
        "Ibalik ang chip ng pula sa (2, 5)."
    )
    expect(oled).to_contain_text("Tira ng ASUL! Ibalik")
    shot(page, "02-wrong-turn", full=False)
    square(page, 2, 5).click()
    expect(says).to_have_text("")
    square(page, 1, 2).click()
    square(page, 1, 4).click()
    # the server has the chip on (1, 4) before its clock moves (clicks travel asynchronously)
    expect(square(page, 1, 4).locator(".chip")).to_have_count(1)
    server.clock.advance(1.2)  # the tracker's error delay
    expect(says).to_contain_text("Pahilis gumagalaw ang mga chip")
    expect(oled).to_contain_text("Pahilis lang!")
    shot(page, "03-wrong-move", full=False)
    square(page, 1, 4).click()
    square(page, 1, 2).click()
    expect(says).to_have_text("")

    # The whole bundled game: every taking written with "sa", each dama crowned. Its first
    # eight plies and its last four by clicks, those between through the page's own channel
    # (the words the page shows do not depend on who moved the chips).
    moves = sample_moves(56)
    for ply, (path, captures) in enumerate(moves, start=1):
        if ply == 9:
            with Hands(server.url, "laro", server.clock.advance) as hands:
                hands.play(moves[8:-4], first_ply=9, step=STEP)
            expect(body).to_have_attribute("data-ply", str(len(moves) - 4))
        if 9 <= ply <= len(moves) - 4:
            continue
        me.play(path, captures, ply) if ply < len(moves) else _last(me, path, captures)
        if page.locator("#crown-call").is_visible():
            expect(page.locator("#crown-square")).to_contain_text("Koronahan ang bagong dama sa")
            page.locator("#crown-square").click()
            expect(page.locator("#crown-call")).to_be_hidden()
        if ply == 8:
            cells = page.locator("#sheet tbody td").all_inner_texts()
            assert any(re.search(r" sa \(\d, \d\)$", c) for c in cells), cells
            shot(page, "04-takings")
    expect(body).to_have_attribute("data-phase", "over")
    expect(page.locator("#turn")).to_contain_text("Tapos na ang laro · Panalo: ")
    expect(page.locator("#total-blue")).to_contain_text("Huling iskor ng Asul:")
    expect(oled).to_contain_text("Panalo ang PULA")
    shot(page, "05-game-over")
    assert english_left(page) == []

    # The board's display picture, and the printable sheet, both in Filipino.
    (ARTIFACTS / "fil-06-display.png").write_bytes(
        page.request.get(f"{server.url}/board/laro/oled.png").body()
    )
    sheet = page.request.get(f"{server.url}/board/laro/scoresheet.html").text()
    for words in ('<html lang="fil">', "Scoresheet ng Integer DAMATH", "Manlalarong ASUL",
                  "Mga lagda", "Panalo ang PULA: 1 puntos, ASUL 0.", "Grand total",
                  "Natapos ang laro: Wala nang chip ang ASUL."):  # fmt: skip
        assert words in sheet, words
    printable = page.context.new_page()
    printable.set_content(sheet)
    printable.emulate_media(media="print")
    printable.screenshot(path=str(ARTIFACTS / "fil-07-printable-sheet.png"), full_page=True)
    printable.close()

    # The page's switch: its own words turn English (the board still speaks Filipino), and the
    # browser remembers the choice; the downloads follow the page's language.
    page.locator("#language").select_option("en")
    page.wait_for_load_state()
    expect(page.locator("#link")).to_have_text("connected")
    expect(page.locator("#open-new-game")).to_have_text("New game…")
    expect(oled).to_contain_text("Panalo ang PULA")
    shot(page, "08-page-in-english")
    page.reload()
    expect(page.locator("#open-new-game")).to_have_text("New game…")
    english_sheet = page.request.get(f"{server.url}/board/laro/scoresheet.html").text()
    assert "Integer DAMATH Scoresheet" in english_sheet and "Signatures" in english_sheet
    page.locator("#language").select_option("fil")
    page.wait_for_load_state()
    expect(page.locator("#open-new-game")).to_have_text("Bagong laro…")


def _last(me: Player, path, captures) -> None:
    """The game's last move: the board ends the game instead of waiting for the next."""
    me.click(*path[0])
    me.click(*path[-1])
    for sq in captures:
        me.click(*sq)
    me.wait(STEP)


def test_the_class_overview_and_projector_speak_the_pages_language(
    page: Page, filipino_server: RunningServer
) -> None:
    server = filipino_server
    page.goto(f"{server.url}/")
    expect(page.locator("h1")).to_have_text("Damath board sa kompyuter")
    expect(page.get_by_label("Pangalan ng board")).to_be_visible()
    expect(page.get_by_role("button", name="Buksan ang board")).to_be_visible()
    expect(page.locator("main #language")).to_have_value("fil")
    page.screenshot(path=str(ARTIFACTS / "fil-00-start.png"), full_page=True)
    page.goto(f"{server.url}/board/a1")
    page.get_by_role("button", name="Gawin ang board a1").click()
    page.wait_for_url(f"{server.url}/board/a1")
    page.goto(f"{server.url}/class")
    expect(page.locator("h1")).to_have_text("Damath pangkalahatang tanaw ng klase")
    expect(page.locator("#link")).to_have_text("konektado")
    expect(page.get_by_role("link", name="Board a1")).to_be_visible()
    expect(page.get_by_text("Tanaw sa projector").first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "fil-09-class.png"), full_page=True)
    page.set_viewport_size({"width": 1920, "height": 1080})  # a projector's screen
    page.goto(f"{server.url}/board/a1/projector")
    expect(page.locator("#link")).to_have_text("konektado")
    expect(page.locator("html")).to_have_attribute("lang", "fil")
    page.screenshot(path=str(ARTIFACTS / "fil-10-projector.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920  # longer words still fit


def test_a_phone_in_filipino_shows_clocks_turn_and_board_without_scrolling(
    browser, filipino_server: RunningServer
) -> None:
    server = filipino_server
    with new_page(browser, 375, 667) as pg:  # a small phone; Filipino's words are longer
        pg.goto(f"{server.url}/board/telepono")
        pg.get_by_role("button", name="Gawin ang board telepono").click()
        pg.wait_for_url(f"{server.url}/board/telepono")
        server.clock.advance(SETTLE)
        expect(pg.locator("#turn")).to_have_text("Tira ng Asul")
        pg.evaluate("window.scrollTo(0, 0)")
        for part in ("#turn", "#clock-game", "#clock-move", "#score-blue", "#score-red", "#board"):
            box = pg.locator(part).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 667, part
        pg.screenshot(path=str(ARTIFACTS / "fil-11-phone.png"))
        wide = pg.evaluate(
            "[...document.querySelectorAll('body *')]"
            ".filter(e => e.getBoundingClientRect().right > 376)"
            ".map(e => e.tagName + '.' + e.className).slice(0, 12)"
        )
        assert pg.evaluate("document.documentElement.scrollWidth") <= 375, wide


def test_the_printed_sheet_in_filipino_is_one_a4_page(browser) -> None:
    from .test_browser_teacher import _demo_sheet_html, _pages

    with i18n.use("fil"):
        html = _demo_sheet_html()
    assert '<html lang="fil">' in html and "Mga lagda" in html
    with new_page(browser, 718, 1047) as pg:  # A4 less its 10 mm margins, at 96 dpi
        pg.set_content(html)
        pdf = pg.pdf(format="A4", print_background=True)
        (ARTIFACTS / "fil-12-scoresheet-a4.pdf").write_bytes(pdf)
        assert _pages(pdf) == 1, "the demo game's sheet in Filipino must print on one A4 page"
        pg.emulate_media(media="print")
        pg.screenshot(path=str(ARTIFACTS / "fil-12-scoresheet-a4.png"), full_page=True)


def test_the_computer_and_the_hints_speak_filipino(page: Page, clock: ManualClock) -> None:
    """A practice game against the computer on a board that speaks Filipino: the coach's panel,
    the level names, a hint, the computer's move on the page and on the display."""
    from controller.rules.game import Game

    from .test_browser_coach import ENGINE_WAIT, Hands, state

    i18n.set_language("fil")
    try:
        defaults = {"practice": True, "clocks": "off"}
        app = create_app(clock=clock, tick_seconds=0.02, defaults=defaults)
        with serve(app, clock) as server:
            hands, body = Hands(page, server), page.locator("body")
            shown = page.locator("#coach-shown")
            page.goto(f"{server.url}/board/pc")
            page.get_by_role("button", name="Gawin ang board pc").click()
            page.wait_for_url(f"{server.url}/board/pc")
            expect(page.locator(".sq .chip")).to_have_count(24)
            clock.advance(SETTLE)
            expect(body).to_have_attribute("data-phase", "play")
            expect(page.locator("#coach-box h2")).to_have_text("Computer at coach")
            expect(page.locator("#coach-level option").first).to_have_text("1: baguhan")
            page.select_option("#coach-level", "2")
            page.select_option("#coach-computer", "red")
            page.locator("#coach-hints").click()  # (a state on its way may redraw it a moment)
            expect(page.locator("#coach-hint")).to_be_visible()

            page.locator("#coach-hint").click()
            expect(body).to_have_attribute("data-shown", "hint_chip", timeout=ENGINE_WAIT)
            expect(shown).to_contain_text("Hint: iangat ang")
            expect(shown).to_contain_text("Pindutin muli ang Hint")
            page.locator("#coach-hint").click()
            expect(body).to_have_attribute("data-shown", "hint")
            game = Game.new("integer", "official")
            move = game.find_move(
                [tuple(sq) for sq in state(page, server.url, "pc")["shown"]["path"]]
            )
            hands.make(move.path, move.captures)

            expect(body).to_have_attribute("data-shown", "computer", timeout=ENGINE_WAIT)
            expect(shown).to_contain_text("ng computer (antas 2)")
            expect(shown).to_contain_text("ayon sa mga berdeng ilaw")
            expect(page.locator("#oled-text")).to_contain_text("PC: ")
            shot(page, "coach")
            assert english_left(page) == []
    finally:
        i18n.set_language("en")
