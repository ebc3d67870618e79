"""Every page of the board at the screen sizes a classroom has, in Debian's Chromium: the board
page of each of the five games, its projector view, the class overview, the start page and a
missing board's page, at 1024 × 768, 1280 × 800, 1366 × 768, 1920 × 1080, a 4:3 classroom
screen (1400 × 1050) and a 390 px phone, each page in English and in Filipino (whose words are
longer); each page is loaded once a language and resized to each screen, as a window is. A
Damath game is under way (scores of two and three characters with their minus signs, long
players' names, a long board name). On every page, the elements' own boxes are checked:
nothing is wider than the screen or sticks out of it (what a scroll box holds scrolls inside
it), and the names, the scores, the clocks and whose turn it is show whole: not cut, and the
scores and clocks on one line. Screenshots (with DAMATH_SCREENSHOTS=1):
tests/artifacts/layout/<page>-<language>-<width>x<height>.png (looked at; docs/simulator.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.sim.server import create_app
from tests.chromium import SETTLED

from .conftest import ManualClock, RunningServer, open_board, serve
from .hands import Hands
from .test_browser import STEP, Player, sample_moves

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = ((1024, 768), (1280, 800), (1366, 768), (1920, 1080), (1400, 1050), (390, 844))
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "layout"
BOARD = "grade8-rizal-table-12"  # a long board name, as a school writes one
NAMES = {"blue": "Maria Clara de los Santos", "red": "Juan Miguel Dela Cruz"}
PLIES = 41  # the bundled game until Blue's total is -50 and Red's 65
OTHERS = ("dadama", "dam", "mathchess", "english")

WHOLE = [  # what must show whole on a page: (selector, one line?)
    (".gamebar .player .who", False),
    (".gamebar .player .score", True),
    (".gamebar .digits", True),
    (".gamebar .turn", False),
    ("#dam-status, #dadama-status, #mc-turn, #mc-score", False),
    (".card .players span", False),
    (".card .players .score", True),
    (".card .clocks", True),
]

PROBLEMS = (Path(__file__).parent / "layout_check.js").read_text(encoding="utf-8")


@pytest.fixture
def classroom(clock: ManualClock, tmp_path: Path) -> Iterator[RunningServer]:
    (tmp_path / "players.txt").write_text("\n".join(NAMES.values()) + "\n")
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=tmp_path)
    with serve(app, clock) as running:
        yield running


def problems(page: Page) -> list[str]:
    return list(page.evaluate(PROBLEMS, [[s, one] for s, one in WHOLE]))


def set_up(page: Page, server: RunningServer) -> None:
    """A Damath game under way with long names; a board of each other game beside it."""
    me = Player(page, server)
    open_board(page, server.url, BOARD)
    expect(page.locator(".sq .chip")).to_have_count(24)
    server.clock.advance(0.3)
    expect(page.locator("body")).to_have_attribute("data-phase", "play")
    for side, name in NAMES.items():
        page.locator(f"input[name={side}]").fill(name)
    page.locator("#save-info").click()
    expect(page.locator("#name-blue")).to_contain_text(NAMES["blue"])
    moves = sample_moves(PLIES)
    me.play(*moves[0], ply=1)  # the first by clicks, the rest through the page's channel
    with Hands(server.url, BOARD, server.clock.advance) as hands:
        hands.play(moves[1:], first_ply=2, step=STEP)
    expect(page.locator("body")).to_have_attribute("data-ply", str(PLIES))
    expect(page.locator("#score-blue")).to_have_text("−50")
    expect(page.locator("#score-red")).to_have_text("65")
    for game in OTHERS:
        open_board(page, server.url, game)
        page.locator("#open-new-game").click()
        page.locator("#variant").select_option(game)
        page.locator("#new-game").click()
        expect(page.locator("body")).to_have_attribute("data-game", game)


def test_every_page_fits_every_classroom_screen(browser: Browser, classroom: RunningServer) -> None:
    server = classroom
    SHOTS.mkdir(parents=True, exist_ok=True)
    first = browser.new_context(viewport={"width": 1280, "height": 900})
    set_up(first.new_page(), server)
    first.close()
    pages = {
        "start": "/",
        "missing-board": "/board/nowhere",
        "class": "/class",
        "damath": f"/board/{BOARD}",
        "damath-projector": f"/board/{BOARD}/projector",
    }
    for game in OTHERS:
        pages[game] = f"/board/{game}"
        pages[f"{game}-projector"] = f"/board/{game}/projector"
    found: list[str] = []
    for language in ("en", "fil"):
        context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
        context.add_cookies([{"name": "damath_lang", "value": language, "url": server.url}])
        page = context.new_page()
        for name, path in pages.items():
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            page.goto(server.url + path)
            if "board/" in path and "nowhere" not in path:
                game = name.split("-")[0]
                expect(page.locator("body")).to_have_attribute("data-game", game)
            if name == "class":
                expect(page.locator(".card")).to_have_count(1 + len(OTHERS))
                expect(page.locator(".card .clocks").first).not_to_be_empty()
            if name.startswith("damath"):
                expect(page.locator("#score-red")).to_have_text("65")
            for width, height in SIZES:  # the same page on each screen: laid out again
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate(SETTLED)
                page.screenshot(
                    path=str(SHOTS / f"{name}-{language}-{width}x{height}.png"),
                    full_page="projector" not in name,
                )
                found += [f"{name} ({language}) at {width}×{height}: {p}" for p in problems(page)]
        context.close()
    assert not found, "\n".join(found)
