"""Issue 40, item 5, on the page in Chromium at a phone's width: the page names the variant it
serves (the class's, Integer by default) and the child may choose another; the squares'
numbers the sentences use are drawn along the board's edges; after a second miss the best move
is drawn on the board; and a long chip (121√18, −21xy²) stays inside its chip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.puzzles.store import puzzle
from controller.sim.server import create_app
from tests.sim.conftest import ManualClock, RunningServer, new_page, serve

from .test_browser_puzzles import play

pytestmark = pytest.mark.browser


@pytest.fixture
def mixed_server(mixed_dir: Path) -> Iterator[RunningServer]:
    clock = ManualClock()
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=mixed_dir)
    with serve(app, clock) as running:
        yield running


def chips_inside(page: Page) -> list[str]:
    """The labels of the chips whose number spills out of the chip's circle's box."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#board .chip')].filter((chip) => {
            const c = chip.getBoundingClientRect(), v = chip.querySelector('.val');
            const r = v.getBoundingClientRect();
            return v.scrollWidth > v.clientWidth + 1 || r.left < c.left - 1 || r.right > c.right + 1
              || r.top < c.top - 1 || r.bottom > c.bottom + 1;
        }).map((chip) => chip.dataset.label)"""
    )


def test_the_page_serves_the_class_variant_draws_the_squares_and_the_best_move(
    browser: Browser, mixed_server: RunningServer, mixed_dir: Path
) -> None:
    db = mixed_dir / "puzzles.sqlite"
    with new_page(browser, 390, 844) as page:
        page.goto(mixed_server.url + "/puzzles")
        page.locator("#names button", has_text="Ana Cruz").click()
        expect(page.locator("body")).to_have_attribute("data-phase", "solving")
        expect(page.locator("body")).to_have_attribute("data-variant", "integer")
        expect(page.locator("#variant-name")).to_have_text("Integer Damath")
        expect(page.locator("#axis-x span")).to_have_count(8)
        expect(page.locator("#axis-y span")).to_have_count(8)
        found = puzzle(db, page.locator("body").get_attribute("data-puzzle") or "")
        assert found is not None
        p = found[0]
        flip = p.solver == 1
        xs = page.locator("#axis-x span").all_inner_texts()
        assert xs == [str(7 - i if flip else i) for i in range(8)]
        wrong = next(m.path for m in p.game().legal_moves() if m.path != p.solution[0])
        play(page, wrong)
        expect(page.locator("body")).to_have_attribute("data-phase", "second-try")
        play(page, wrong)
        expect(page.locator("body")).to_have_attribute("data-best", "shown")
        best = p.solution[0]
        lit = page.locator(".sq.best")
        expect(lit).to_have_count(len(best))
        assert {s.get_attribute("data-square") for s in lit.all()} == {f"{x},{y}" for x, y in best}
        expect(page.locator(".best-arrow line")).to_have_count(len(best) - 1)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390

        labels: list[str] = []
        for variant in ("radical", "polynomial", "fraction"):
            page.locator("#variant").select_option(variant)
            expect(page.locator("body")).to_have_attribute("data-variant", variant)
            expect(page.locator("#variant-name")).to_have_text(f"{variant.capitalize()} Damath")
            expect(page.locator("body")).to_have_attribute("data-phase", "solving")
            chips = page.locator("#board .chip")
            labels += chips.evaluate_all("cs => cs.map(c => c.dataset.label)")
            assert not chips_inside(page), variant
        assert max(len(label) for label in labels) >= 6, labels  # 121√18, −21xy²: long ones
        page.reload()  # the child's choice stays on this device
        expect(page.locator("body")).to_have_attribute("data-variant", "fraction")
