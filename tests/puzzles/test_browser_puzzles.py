"""A child solves three puzzles on the simulated board, in Debian's Chromium, in English and in
Filipino: the first answered wrong first (the reason shown in words, then the second try
right), the next two right at once; each right answer shows its arithmetic and the rating's
change, and the store keeps every attempt. Screenshots: tests/artifacts/sim/puzzle-*.png (and
docs/images/puzzle-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.puzzles.model import Path_
from controller.puzzles.progress import solver_summary
from controller.puzzles.solve import position_at
from controller.puzzles.store import connect, puzzle
from controller.sim.server import create_app
from tests.docs_images import keep_for_docs
from tests.sim.conftest import ARTIFACTS, ManualClock, RunningServer, new_page, serve

pytestmark = pytest.mark.browser


@pytest.fixture
def puzzle_server(class_dir: Path) -> Iterator[RunningServer]:
    clock = ManualClock()
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=class_dir)
    with serve(app, clock) as running:
        yield running


def shot(page: Page, name: str) -> None:
    path = ARTIFACTS / f"puzzle-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    keep_for_docs(path)


def play(page: Page, path: Path_) -> None:
    for x, y in path:
        page.locator(f'.sq[data-square="{x},{y}"]').click()


def solve(page: Page, db: Path, *, wrong_first: bool, lang: str, n: int) -> None:
    """The puzzle on the page, answered: a wrong legal move first when ``wrong_first``."""
    expect(page.locator("body")).to_have_attribute("data-phase", "solving")
    pid = page.locator("body").get_attribute("data-puzzle") or ""
    found = puzzle(db, pid)
    assert found is not None
    p = found[0]
    played: list[Path_] = []
    if wrong_first:
        game, _step = position_at(p, []) or (p.game(), 0)
        wrong = next(m.path for m in game.legal_moves() if m.path != p.solution[0])
        play(page, wrong)
        expect(page.locator("body")).to_have_attribute("data-phase", "second-try")
        expect(page.locator("#said")).to_have_class("said wrong")
        said = page.locator("#said").inner_text()
        words = "points less" if lang == "en" else "puntos"
        assert words in said or ("other side" if lang == "en" else "kabila") in said, said
        shot(page, f"{lang}-{n}-wrong")
    for step in range(p.steps):
        play(page, p.solution[2 * step])
        played.append(p.solution[2 * step])
        if step + 1 < p.steps:
            expect(page.locator("#said")).to_have_class("said right")
            expect(page.locator("body")).to_have_attribute("data-phase", "solving")
    expect(page.locator("body")).to_have_attribute("data-phase", "done")
    expect(page.locator("#said")).to_have_class("said right")
    if wrong_first:  # the second try is kept but moves no rating
        expect(page.locator("#change")).to_contain_text(page.locator("#rating").inner_text())
        expect(page.locator("#change")).not_to_contain_text("→")
    else:
        expect(page.locator("#change")).to_contain_text("→")
    shot(page, f"{lang}-{n}-right")


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_a_child_solves_three_puzzles_one_wrong_first(
    browser: Browser, puzzle_server: RunningServer, class_dir: Path, lang: str
) -> None:
    db = class_dir / "puzzles.sqlite"
    with new_page(browser, 1100, 820) as page:
        page.context.add_cookies([{"name": "damath_lang", "value": lang, "url": puzzle_server.url}])
        page.goto(puzzle_server.url + "/puzzles")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#names button")).to_have_count(2)
        shot(page, f"{lang}-0-names")
        page.locator("#names button", has_text="Ana Cruz").click()
        expect(page.locator("#child-name")).to_have_text("Ana Cruz")
        expect(page.locator("#rating")).to_have_text("1500")
        solve(page, db, wrong_first=True, lang=lang, n=1)
        for n in (2, 3):
            page.locator("#next").click()
            solve(page, db, wrong_first=False, lang=lang, n=n)

    summary = solver_summary(db, "Ana Cruz")
    assert (summary.solved, summary.tried) == (3, 3)
    with connect(db) as conn:
        rows = conn.execute(
            "SELECT correct, first_try FROM attempts WHERE child = 'Ana Cruz' ORDER BY id"
        ).fetchall()
    assert rows == [(0, 1), (1, 0), (1, 1), (1, 1)]
