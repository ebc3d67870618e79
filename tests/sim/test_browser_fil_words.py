"""Every visible word of the board's pages in Filipino, in Debian's Chromium: a board that speaks
Filipino (``sim --lang fil``) and pages whose own menu chose Filipino. Each page, in each state
worth seeing (setting up, a game under way, the arbiter's menu, the new-game dialog, the PIN
asked on a locked browser and refused, each of the five games, the class overview with its kept
games, the projector of each game, the start page, a missing board's page), is read whole: the
text shown, the open dialogs, every option of every menu, and every ``title``, ``aria-label``,
``placeholder`` and ``alt``. The test fails on any English word outside the short list of words
classrooms use as they are (tests/i18n/english_words.py; docs/translation.md, "Words kept").
Screenshots: tests/artifacts/sim/fil-words-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from controller import i18n
from controller.sim.access import Access, hash_pin
from controller.sim.server import create_app
from tests.i18n.english_words import english_words

from .conftest import ARTIFACTS, ManualClock, RunningServer, serve
from .test_browser_mathchess import PLAY
from .test_browser_mathchess import Player as MathChessPlayer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PIN = "2468"
SETTLE = 0.3

SEND = (Path(__file__).parent / "send_message.js").read_text(encoding="utf-8")
READ = (Path(__file__).parent / "page_words.js").read_text(encoding="utf-8")


@pytest.fixture
def fil_server(clock: ManualClock, tmp_path: Path) -> Iterator[RunningServer]:
    """The simulator speaking Filipino, with an arbiter's PIN, a class list and kept games."""
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\nCara Lim\n")
    i18n.set_language("fil")
    try:
        app = create_app(
            clock=clock, tick_seconds=0.02, state_dir=tmp_path, access=Access(hash_pin(PIN))
        )
        with serve(app, clock) as running:
            yield running
    finally:
        i18n.set_language("en")


def filipino(browser: Browser, server: RunningServer, width: int = 1280) -> BrowserContext:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "damath_lang", "value": "fil", "url": server.url}])
    return context


def english_on(page: Page, where: str) -> list[tuple[str, str]]:
    """Every English word on the page now: (word, where it shows and in which text)."""
    found = []
    for place, text in page.evaluate(READ):
        for line in text.splitlines():
            for word in english_words(line):
                found.append((word, f"{where}: {place}: {line.strip()[:160]!r}"))
    return found


def send(page: Page, message: dict) -> None:
    """A message on a second channel of the page's board, as the page's own buttons send it;
    returns once the board has answered."""
    page.evaluate(SEND, message)


def square(page: Page, x: int, y: int):
    return page.locator(f'.sq[data-x="{x}"][data-y="{y}"]')


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"fil-words-{name}.png"), full_page=True)


GAMES = ("dadama", "dam", "mathchess", "english")
MATHCHESS = {k: v for k, v in PLAY.items() if k != "game"}  # a game in play: removals to say


def test_every_board_page_speaks_filipino(browser: Browser, fil_server: RunningServer) -> None:
    server, clock = fil_server, fil_server.clock
    english: list[tuple[str, str]] = []
    context = filipino(browser, server)
    page = context.new_page()

    # The start page, and a missing board's page asking for the PIN (then refusing a wrong one).
    page.goto(f"{server.url}/")
    english += english_on(page, "start page")
    page.goto(f"{server.url}/board/klase")
    expect(page.locator("input[name=pin]")).to_be_visible()
    english += english_on(page, "missing board")
    page.locator("input[name=pin]").fill("0000")
    page.locator("button[type=submit]").click()
    expect(page.locator("[role=alert]")).to_be_visible()
    english += english_on(page, "missing board, wrong PIN")
    page.locator("input[name=pin]").fill(PIN)
    page.locator("button[type=submit]").click()
    page.wait_for_url(f"{server.url}/board/klase")

    # Damath: setting up, then a game with names, a move, the arbiter's menu and the dialog.
    body = page.locator("body")
    expect(body).to_have_attribute("data-phase", "setup")
    english += english_on(page, "damath, setting up")
    clock.advance(SETTLE)
    expect(body).to_have_attribute("data-phase", "play")
    page.locator("input[name=blue]").fill("Ana Cruz")
    page.locator("input[name=red]").fill("Ben Reyes")
    page.locator("#save-info").click()
    for x, y in ((1, 2), (2, 3)):
        square(page, x, y).click()
    # the server has the chip on (2, 3) before its clock moves (clicks travel asynchronously)
    expect(square(page, 2, 3).locator(".chip")).to_have_count(1)
    clock.advance(SETTLE)
    expect(body).to_have_attribute("data-ply", "1")
    english += english_on(page, "damath, playing")
    page.locator("#btn-hold-pause").click()
    expect(page.locator("#menu")).to_be_visible()
    english += english_on(page, "damath, the arbiter's menu")
    page.locator("#btn-pause").click()
    expect(page.locator("#menu")).to_be_hidden()
    page.locator("#btn-pause").click()
    expect(body).to_have_attribute("data-paused", "1")
    english += english_on(page, "damath, paused")
    page.locator("#btn-pause").click()
    square(page, 5, 2).click()  # Blue's chip, Red to move: the board says why not
    expect(page.locator("#says")).not_to_be_empty()
    english += english_on(page, "damath, a chip of the wrong side")
    square(page, 5, 2).click()
    expect(page.locator("#says")).to_be_empty()
    square(page, 6, 5).click()  # Red's chip set down where it may not go
    square(page, 6, 3).click()
    # the server has the chip on (6, 3) before its clock moves (clicks travel asynchronously)
    expect(square(page, 6, 3).locator(".chip")).to_have_count(1)
    clock.advance(1.2)  # the tracker's error delay
    expect(page.locator("#says")).to_have_class(re.compile("wrong"))
    english += english_on(page, "damath, a wrong move")
    square(page, 6, 3).click()
    square(page, 6, 5).click()
    expect(square(page, 6, 5).locator(".chip")).to_have_count(1)  # put back, on the server
    clock.advance(SETTLE)
    page.locator("#open-new-game").click()
    expect(page.locator("#new-game-warning")).to_be_visible()
    english += english_on(page, "damath, the new-game dialog")
    shot(page, "new-game")
    page.locator("#new-game-cancel").click()

    # A locked browser: the PIN is asked in Filipino, and a wrong one refused in Filipino.
    locked = filipino(browser, server).new_page()
    locked.goto(f"{server.url}/board/klase")
    expect(locked.locator("body")).to_have_attribute("data-ply", "1")
    locked.locator("#btn-takeback").click()
    expect(locked.locator("#pin-dialog")).to_be_visible()
    english += english_on(locked, "PIN asked")
    locked.locator("#pin-input").fill("1111")
    locked.locator("#pin-ok").click()
    expect(locked.locator("#pin-problem")).not_to_be_empty()
    english += english_on(locked, "PIN refused")
    shot(locked, "pin")
    locked.context.close()

    # The projector and the class overview of a Damath board.
    projector = context.new_page()
    projector.goto(f"{server.url}/board/klase/projector")
    expect(projector.locator("body")).to_have_attribute("data-ply", "1")
    english += english_on(projector, "damath projector")

    # The four other games, each on its own board, each board page and its projector.
    for button in ("pause", "next", "confirm"):  # the arbiter's menu: Stop, the tally now
        send(page, {"type": "button", "name": button, "hold": button == "pause"})
    expect(body).to_have_attribute("data-phase", "over")
    english += english_on(page, "damath, the game over")
    send(page, {"type": "new_game", "variant": "integer", "confirm": True})  # the game is kept
    for n, game in enumerate(GAMES, start=1):
        page.goto(f"{server.url}/board/laro{n}")
        page.locator("button[type=submit]").click()  # create it (this browser is unlocked)
        page.wait_for_url(f"{server.url}/board/laro{n}")
        start = {"type": "new_game", "variant": game, "profile": "official", "confirm": True}
        send(page, {**start, "position": MATHCHESS} if game == "mathchess" else start)
        expect(body).to_have_attribute("data-game", game)
        clock.advance(SETTLE)
        page.reload()
        expect(body).to_have_attribute("data-game", game)
        english += english_on(page, f"{game} board")
        if game == "dadama":
            page.locator("#btn-confirm").click()  # the board throws
            english += english_on(page, "dadama, a throw")
        elif game == "english":
            page.locator('.mcell[data-square="1,2"]').click()  # Black's man lifted
            page.locator('.mcell[data-square="0,3"]').click()
            expect(page.locator('.mcell[data-square="0,3"] .man')).to_have_count(1)
            clock.advance(SETTLE)
            english += english_on(page, "english draughts, a move")
        elif game == "mathchess":  # White's + takes Black's ×: removals and the sheet worded
            you = MathChessPlayer(page)
            for x, y in ((0, 2), (5, 2), (5, 2)):
                you.click(x, y)
            you.done()
            expect(page.locator("#mc-options")).to_contain_text("huling numero")
            english += english_on(page, "mathematical chess, a turn played")
        shot(page, game)
        projector.goto(f"{server.url}/board/laro{n}/projector")
        expect(projector.locator("body")).to_have_attribute("data-game", game)
        english += english_on(projector, f"{game} projector")

    # The class overview: every board, and a board's kept games opened.
    projector.goto(f"{server.url}/class")
    expect(projector.locator(".card")).to_have_count(1 + len(GAMES))
    for details in projector.locator("details.kept").all():
        details.locator("summary").click()
    english += english_on(projector, "class overview")
    shot(projector, "class")
    context.close()

    first: dict[str, str] = {}
    for word, place in english:
        first.setdefault(word, place)
    lines = [f"{word!r} on {place}" for word, place in sorted(first.items())]
    assert not first, "English on the Filipino pages (each word where first seen):\n" + "\n".join(
        lines
    )


def test_the_pin_is_asked_in_the_pages_language_whatever_the_board_speaks(
    browser: Browser, clock: ManualClock
) -> None:
    """A board that speaks English and a page in Filipino: the refusal that asks for the PIN is
    the page's own (it said "Takeback is for the arbiter" in English, then the wrong PIN was
    refused in Filipino); what the board itself says stays in its language, even on a board
    that a page in Filipino created (its display was drawn in the creating page's language)."""
    app = create_app(clock=clock, tick_seconds=0.02, access=Access(hash_pin(PIN)))
    with serve(app, clock) as server:
        page = filipino(browser, server).new_page()
        page.goto(f"{server.url}/board/halo")
        page.locator("input[name=pin]").fill(PIN)
        page.get_by_role("button", name="Gawin ang board halo").click()
        page.wait_for_url(f"{server.url}/board/halo")
        locked = filipino(browser, server).new_page()
        locked.goto(f"{server.url}/board/halo")
        expect(locked.locator("body")).to_have_attribute("data-phase", "setup")
        locked.locator("#btn-takeback").click()
        expect(locked.locator("#pin-dialog")).to_be_visible()
        expect(locked.locator("#pin-title")).to_have_text("PIN ng arbiter")
        expect(locked.locator("#pin-why")).to_have_text(
            "Bawi: para sa arbiter lang ito: ilagay ang PIN ng arbiter"
        )
        locked.locator("#pin-input").fill("1111")
        locked.locator("#pin-ok").click()
        expect(locked.locator("#pin-problem")).to_have_text("hindi iyan ang PIN ng arbiter")
        expect(locked.locator("#oled-text")).to_contain_text("Setup 24/24")  # the board's English
        locked.context.close()
        page.context.close()
