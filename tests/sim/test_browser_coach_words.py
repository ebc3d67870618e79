"""The coach's hint and review in a child's words, in Debian's Chromium, in English and in
Filipino, on the known position of tests/engine/test_coach_words.py (a lesson loaded from a
position file): the hint names the chip, the squares and the arithmetic of the taking; after
the worse taking, the review's card shows the board before it (a picture with both moves), the
move played and the better one with their arithmetic, and what the better move would have
given instead (12 points more: 18 and 0, instead of 7 and 1); the engine's own figure is the
teacher's, folded away. In Filipino no English word is left on the page (the classroom's
words apart, tests/i18n/english_words.py), and on a phone the review fits the screen.
Screenshots: tests/artifacts/sim/coach-words-*.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller import i18n
from controller.sim.server import create_app
from tests.engine.test_coach_words import KNOWN
from tests.i18n.english_words import english_words

from .conftest import ARTIFACTS, ManualClock, RunningServer, open_board, serve
from .test_browser_coach import ENGINE_WAIT

pytestmark = pytest.mark.browser
STEP = 0.5
READ = (Path(__file__).parent / "page_words.js").read_text(encoding="utf-8")
LAYOUT = (Path(__file__).parent / "layout_check.js").read_text(encoding="utf-8")

SAID = {
    "en": {
        "chip": "Hint: lift your 6 on (2, 3), where the light pulses green.",
        "hint": "Your 6 jumps Red's 3 on (3, 4) and lands on the × square (4, 5): 6 × 3 = 18.",
        "head": "Move 1: Blue",
        "played": "Your move: your 2 from (7, 0) to (5, 2). Your 2 jumps Red's 5 on (6, 1) and "
        "lands on the + square (5, 2): 2 + 5 = 7.",
        "better": "Better: your 6 from (2, 3) to (4, 5). Your 6 jumps Red's 3 on (3, 4) and "
        "lands on the × square (4, 5): 6 × 3 = 18.",
        "measure": "Over the next 4 moves (both players'), the better move gives you 12 points "
        "more: you 18 and Red 0, instead of you 7 and Red 1.",
        "teacher": "For the teacher: the engine's figures",
        "estimate": "Move 1, Blue: the engine's estimate",
    },
    "fil": {
        "chip": "Hint: iangat ang 6 mo sa (2, 3), kung saan pumipintig na berde ang ilaw.",
        "hint": "Lulundagan ng 6 mo ang 3 ng Pula sa (3, 4) at lalapag ito sa kahong × na "
        "(4, 5): 6 × 3 = 18.",
        "head": "Galaw 1: Asul",
        "played": "Ang galaw mo: ang 2 mo mula (7, 0) papunta sa (5, 2). Lulundagan ng 2 mo ang "
        "5 ng Pula sa (6, 1) at lalapag ito sa kahong + na (5, 2): 2 + 5 = 7.",
        "better": "Mas mabuti: ang 6 mo mula (2, 3) papunta sa (4, 5). Lulundagan ng 6 mo ang 3 "
        "ng Pula sa (3, 4) at lalapag ito sa kahong × na (4, 5): 6 × 3 = 18.",
        "measure": "Sa susunod na 4 na galaw (ng dalawang manlalaro), 12 puntos pa ang "
        "ibinibigay sa iyo ng mas mabuting galaw: ikaw 18 at Pula 0, sa halip na ikaw 7 at "
        "Pula 1.",
        "teacher": "Para sa guro: ang mga bilang ng computer",
        "estimate": "Galaw 1, Asul: tantiya ng computer",
    },
}


@pytest.fixture(params=["en", "fil"])
def language(request) -> Iterator[str]:
    """The board and the page speak it (``sim --lang``, the page's menu)."""
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language("en")


@pytest.fixture
def lesson_server(clock: ManualClock, language: str) -> Iterator[RunningServer]:
    app = create_app(clock=clock, tick_seconds=0.02, defaults={"practice": True, "clocks": "off"})
    with serve(app, clock) as running:
        yield running


def square(page: Page, x: int, y: int):
    return page.locator(f'.sq[data-x="{x}"][data-y="{y}"]')


def click(page: Page, x: int, y: int) -> None:
    """A click on a square, once the board has answered it (time must not pass before)."""
    replies = page.locator("body").get_attribute("data-replies") or "0"
    square(page, x, y).click()
    expect(page.locator("body")).not_to_have_attribute("data-replies", replies)


def test_the_hint_and_the_review_in_a_childs_words(
    browser: Browser, lesson_server: RunningServer, language: str
) -> None:
    server, said = lesson_server, SAID[language]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "damath_lang", "value": language, "url": server.url}])
    page = context.new_page()
    body = page.locator("body")
    open_board(page, server.url, "aralin")
    if language == "fil":
        page.get_by_role("button", name="Gawin ang board aralin").click()
        page.wait_for_url(f"{server.url}/board/aralin")
    expect(page.locator(".sq .chip")).to_have_count(24)
    page.set_input_files(
        "#position-file",
        files=[{"name": "aralin.json", "mimeType": "application/json",
                "buffer": json.dumps(KNOWN).encode()}],
    )  # fmt: skip
    expect(page.locator(".sq .chip")).to_have_count(6)
    server.clock.advance(STEP)
    expect(body).to_have_attribute("data-phase", "play")
    page.locator("#coach-hints").check()
    expect(page.locator("#coach-hint")).to_be_visible()

    # The hint: first the chip to lift, then the whole move with its arithmetic.
    page.locator("#coach-hint").click()
    expect(body).to_have_attribute("data-shown", "hint_chip", timeout=ENGINE_WAIT)
    expect(page.locator("#coach-shown")).to_contain_text(said["chip"])
    page.locator("#coach-hint").click()
    expect(body).to_have_attribute("data-shown", "hint")
    expect(page.locator("#coach-shown")).to_contain_text(said["hint"])
    expect(page.locator("#says")).to_contain_text(said["hint"])  # above the board too
    page.screenshot(path=str(ARTIFACTS / f"coach-words-hint-{language}.png"))

    # Blue takes the other way, then asks for the review.
    click(page, 7, 0)
    click(page, 5, 2)
    click(page, 6, 1)
    server.clock.advance(STEP)
    expect(body).to_have_attribute("data-ply", "1")
    page.locator("#coach-review").click()
    card = page.locator(".mistake-card")
    expect(card).to_have_count(1, timeout=ENGINE_WAIT)
    expect(card.locator(".mistake-head")).to_have_text(said["head"])
    expect(card.locator("p.played")).to_have_text(said["played"])
    expect(card.locator("p.better")).to_have_text(said["better"])
    expect(card.locator(".measure")).to_have_text(said["measure"])
    picture = card.locator("svg.mini-board")
    expect(picture.locator("line.arrow.played")).to_have_count(1)
    expect(picture.locator("line.arrow.best")).to_have_count(1)
    expect(picture.locator(".mini-chip")).to_have_count(6)
    assert "(7, 0) → (5, 2)" in (picture.get_attribute("aria-label") or "")
    teacher = page.locator(".teacher-figures")
    expect(teacher.locator("summary")).to_have_text(said["teacher"])
    expect(teacher.locator("li")).to_be_hidden()  # folded away: the teacher opens it
    teacher.locator("summary").click()
    expect(teacher.locator("li")).to_contain_text(said["estimate"])
    page.locator("#coach-review-out").screenshot(
        path=str(ARTIFACTS / f"coach-words-review-{language}.png")
    )
    if language == "fil":
        english = [
            f"{word}: {line.strip()[:120]!r}"
            for _where, text in page.evaluate(READ)
            for line in text.splitlines()
            for word in english_words(line)
        ]
        assert not english, "English on the Filipino page:\n" + "\n".join(english)

    # On a phone the review fits the screen: no box sticks out of it.
    page.set_viewport_size({"width": 390, "height": 844})
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"coach-words-phone-{language}.png"))
    assert page.evaluate(LAYOUT, []) == []
    context.close()
