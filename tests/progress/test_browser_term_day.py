"""A day of the class in one simulator, end to end, in Debian's Chromium (issue 29): a child
solves three puzzles on ``/puzzles`` (the first wrong at first: the reason, then the second try
right), plays a game on a board's page that ends and is reviewed there, and the teacher opens
``/class/progress`` with the PIN: the child's page shows the game, the puzzles solved, the
puzzle rating (the puzzle store's) and the accuracy per operation (the progress store's), with
the charts drawn, in English and in Filipino, and the report prints on one A4 page in both.

The scan of the boards is set to an hour here: the game is counted because the simulator tells
the indexer when a board's game ends, and the test waits for that count, not for the clock.
Screenshots: tests/artifacts/sim/term-day-*.png (docs/images/ on request)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.progress import service
from controller.progress.service import Progress
from controller.puzzles.model import Path_, Puzzle
from controller.puzzles.progress import solver_attempts, solver_summary
from controller.puzzles.solve import position_at
from controller.puzzles.store import puzzle, puzzle_db_path
from controller.sim.access import Access, hash_pin
from controller.sim.server import create_app
from tests.docs_images import keep_for_docs
from tests.hub.daykit import pdf_pages
from tests.puzzles.conftest import class_dir, engine_puzzles  # noqa: F401 (shared fixtures)
from tests.sim.conftest import ARTIFACTS, ManualClock, RunningServer, new_page, open_board, serve
from tests.sim.test_browser import Player

from .test_browser_progress import DRAWN, PIN, WORDS, shown, unlocked
from .test_indexer import BEST, CHOICE

pytestmark = pytest.mark.browser
CHILD, OTHER = "Ana Cruz", "Ben Reyes"
SEND = (Path(__file__).parents[1] / "sim" / "send_message.js").read_text(encoding="utf-8")
COUNTED = 120.0
"""Seconds the test waits at most for the game to be counted (a review in a worker process on
a loaded machine); the count comes well before on an ordinary run."""
OPS = ("+", "−", "×", "÷")


@pytest.fixture
def day(
    class_dir: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[RunningServer, Progress]]:
    """The simulator over the class's folder (class list, the seeded puzzles), with a PIN."""
    monkeypatch.setattr(service, "POLL_SECONDS", 3600.0)  # only the game's end wakes it
    clock = ManualClock()
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=class_dir,
                     access=Access(hash_pin(PIN)))  # fmt: skip
    with serve(app, clock) as running:
        yield running, app.state.progress


def shot(page: Page, name: str, docs: bool = False) -> None:
    path = ARTIFACTS / f"term-day-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if docs:
        keep_for_docs(path)


def play(page: Page, path: Path_) -> None:
    for x, y in path:
        page.locator(f'.sq[data-square="{x},{y}"]').click()


def solve(page: Page, db: Path, wrong_first: bool) -> Puzzle:
    expect(page.locator("body")).to_have_attribute("data-phase", "solving")
    found = puzzle(db, page.locator("body").get_attribute("data-puzzle") or "")
    assert found is not None
    p = found[0]
    if wrong_first:
        game, _step = position_at(p, []) or (p.game(), 0)
        wrong = next(m.path for m in game.legal_moves() if m.path != p.solution[0])
        play(page, wrong)
        expect(page.locator("body")).to_have_attribute("data-phase", "second-try")
        expect(page.locator("#said")).to_have_class("said wrong")
        said = page.locator("#said").inner_text()
        assert "points less" in said or "other side" in said, said  # the reason, in words
        shot(page, "1-puzzle-wrong")
    for step in range(p.steps):
        play(page, p.solution[2 * step])
        if step + 1 < p.steps:  # the reply drawn before the next move (a loaded machine lags)
            expect(page.locator("#said")).to_have_class("said right")
            expect(page.locator("body")).to_have_attribute("data-phase", "solving")
    expect(page.locator("body")).to_have_attribute("data-phase", "done")
    expect(page.locator("#said")).to_have_class("said right")
    return p


def solve_three(browser: Browser, server: RunningServer, db: Path) -> list[str]:
    # the teacher's page shows the class's code; the child types it once on her device
    with new_page(browser) as teacher:
        unlocked(teacher, server, "en", "/class/progress")
        code = teacher.locator("#puzzle-code").inner_text()
    assert len(code) == 6 and code.isdigit()
    with new_page(browser, 1100, 820) as page:
        page.goto(server.url + "/puzzles")
        expect(page.locator("#code")).to_be_visible()
        page.locator("#names button", has_text=CHILD).click()  # without the code: said
        expect(page.locator("#who-status")).to_contain_text("class's code")
        page.locator("#code").fill(code)
        page.locator("#names button", has_text=CHILD).click()
        expect(page.locator("#child-name")).to_have_text(CHILD)
        ids = [solve(page, db, wrong_first=True).id]
        for _n in (2, 3):
            page.locator("#next").click()
            ids.append(solve(page, db, wrong_first=False).id)
        shot(page, "2-puzzle-right")
    return ids


def play_and_review(browser: Browser, server: RunningServer, progress: Progress) -> None:
    """Ana (Blue) against Ben on board b1: from a two-taking position Ana takes 9 × 5 = 45,
    then Ben's clock runs out; the game's review on the board's page."""
    with new_page(browser) as page:
        open_board(page, server.url, "b1", pin=PIN)
        page.evaluate(SEND, {"type": "new_game", "position": CHOICE, "confirm": True})
        page.evaluate(SEND, {"type": "info", "info": {"blue": CHILD, "red": OTHER}})
        hands = Player(page, server)
        hands.wait(0.3)
        body = page.locator("body")
        expect(body).to_have_attribute("data-phase", "play")
        expect(page.locator(".sq .chip")).to_have_count(4)
        hands.click(*BEST[0])
        hands.click(*BEST[1])
        hands.click(*BEST[2])
        hands.wait(0.3)
        expect(body).to_have_attribute("data-ply", "1")
        assert not progress.wait_indexed(lambda: False, 0)  # (nothing to wait for yet)
        hands.wait(24 * 3600)  # Ben's clock runs out: the game ends
        expect(body).not_to_have_attribute("data-phase", "play")
        counted = progress.wait_indexed(lambda: progress.child_json(CHILD)["games"] == 1, COUNTED)
        assert counted, "the game's end did not wake the indexer"
        page.locator("#coach-review").click()
        review = page.locator("#coach-review-out")
        expect(review.locator("table.accuracy")).to_be_visible(timeout=60_000)
        expect(review.locator("table.moves tr")).to_have_count(2)
        shot(page, "3-game-review")


def test_a_childs_day_puzzles_a_game_and_the_teachers_page(
    browser: Browser,
    day: tuple[RunningServer, Progress],
    class_dir: Path,  # noqa: F811
) -> None:
    server, progress = day
    db = puzzle_db_path(class_dir)
    ids = solve_three(browser, server, db)
    store = solver_summary(db, CHILD)
    assert (store.solved, store.tried) == (3, 3)
    assert [(a.puzzle, a.correct, a.first_try) for a in solver_attempts(db, CHILD)] == [
        (ids[0], False, True), (ids[0], True, False), (ids[1], True, True), (ids[2], True, True)
    ]  # fmt: skip

    play_and_review(browser, server, progress)

    fresh = Progress(class_dir)  # the figures as the store holds them, read apart
    want = fresh.child_json(CHILD)
    fresh.stop()
    assert want["games"] == 1 and want["puzzles_solved"] == 3
    assert want["puzzle_rating"] == round(store.rating)
    assert want["operations"]["×"] == {"takings": 1, "best": 1, "percent": 100.0}
    for lang in ("en", "fil"):
        with new_page(browser) as page:
            unlocked(page, server, lang, "/class/progress")
            row = page.locator(f'#class-table tbody tr[data-child="{CHILD}"]')
            expect(row.locator("td.games")).to_have_text("1")
            expect(row.locator("td.solved")).to_have_text("3")
            expect(row.locator("td.rating")).to_have_text(str(round(store.rating)))
            if lang == "en":  # one game, said as one
                expect(page.locator("#class-note")).to_have_text(
                    "One game read from the boards; 2 children."
                )
            shot(page, f"4-class-{lang}")
            page.goto(server.url + "/class/progress?child=Ana%20Cruz")
            page.wait_for_selector("body[data-ready='1']")
            expect(page.locator("#child-name")).to_have_text(CHILD)
            expect(page.get_by_text(WORDS[lang]["ops"], exact=True)).to_be_visible()
            figures = page.locator("#child-figures")
            expect(figures.locator("dd.games")).to_have_text("1")
            if lang == "en":
                expect(page.locator("#child-period")).to_contain_text(": one game.")
            expect(figures.locator("dd.solved")).to_have_text("3 / 3")
            expect(figures.locator("dd.rating")).to_have_text(str(round(store.rating)))
            for op in OPS:
                cell = page.locator(f'#ops-table tr[data-op="{op}"] td.percent')
                expect(cell).to_have_text(shown(want["operations"][op]["percent"]))
            for canvas in ("chart-operations", "chart-weeks", "chart-puzzles"):
                drawn = page.evaluate(DRAWN, canvas)
                assert drawn["width"] > 100 and drawn["height"] > 100, (canvas, drawn)
                assert drawn["painted"] > 0.01 * drawn["width"] * drawn["height"], (canvas, drawn)
            rated = page.evaluate("Chart.getChart('chart-puzzles').data.datasets[0].data")
            assert rated[-1] == round(store.rating)
            shot(page, f"5-child-{lang}", docs=lang == "en")
            page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
            pdf = page.pdf(format="A4", prefer_css_page_size=True)
            (ARTIFACTS / f"term-day-report-{lang}.pdf").write_bytes(pdf)
            assert pdf_pages(pdf) == 1
            page.emulate_media(media="print")
            page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
            shot(page, f"6-report-{lang}")
