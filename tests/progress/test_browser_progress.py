"""The teacher's progress pages in Debian's Chromium, in English and Filipino: the PIN asked,
the class's figures and a child's (the numbers in the page are the store's), the three charts
drawn (pixels on each canvas), and the child's report printed on one A4 page. Screenshots go to
tests/artifacts/sim/progress-*.png (over docs/images/ with DAMATH_DOCS_IMAGES=1)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller.progress.service import Progress
from controller.sim.access import Access, hash_pin
from controller.sim.server import create_app
from tests.docs_images import keep_for_docs
from tests.sim.conftest import ARTIFACTS, ManualClock, RunningServer, new_page, serve

from .conftest import CHILDREN, make_term

pytestmark = pytest.mark.browser
PIN = "1357"
PAIRS = (("Ana Cruz", "Ben Reyes"), ("Ben Reyes", "Cara Lim"), ("Cara Lim", "Ana Cruz"))
WORDS = {
    "en": {"title": "class progress", "ops": "Accuracy per operation", "pin": "Teacher's PIN",
           "print": "Print the report for the parents"},
    "fil": {"title": "pag-unlad ng klase", "ops": "Katumpakan bawat operasyon",
            "pin": "PIN ng guro", "print": "I-print ang ulat para sa mga magulang"},
}  # fmt: skip
DRAWN = """(id) => {
  const c = document.getElementById(id);
  const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
  return {painted: n, width: c.width, height: c.height};
}"""


@pytest.fixture(scope="module")
def long_term(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve weekly games: each child plays eight, the most the report's table lists."""
    monday = dt.date(2026, 9, 7)
    games = tuple(((monday + dt.timedelta(weeks=n)).isoformat(), *PAIRS[n % 3]) for n in range(12))
    return make_term(tmp_path_factory.mktemp("long"), games)


@pytest.fixture(scope="module")
def server(long_term: Path):
    clock = ManualClock()
    app = create_app(clock=clock, state_dir=long_term, access=Access(hash_pin(PIN)))
    with serve(app, clock) as running:
        yield running


def figures(state: Path) -> dict:
    progress = Progress(state, depth=2)
    data = {c["name"]: c for c in progress.class_json()["children"]}
    progress.stop()
    return data


def unlocked(page: Page, server: RunningServer, lang: str, path: str) -> None:
    page.context.add_cookies([{"name": "damath_lang", "value": lang, "url": server.url}])
    page.goto(server.url + path)
    pin = page.get_by_label(WORDS[lang]["pin"])
    expect(pin).to_be_visible()  # locked: the figures are the teacher's
    expect(page.locator("#class-table")).to_be_hidden()
    pin.fill(PIN)
    pin.press("Enter")
    page.wait_for_selector("body[data-ready='1']")


def shot(page: Page, name: str) -> None:
    """A screenshot in tests/artifacts/sim/, and over docs/images/ when asked."""
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    keep_for_docs(path)


def shown(value: float | None) -> str:
    return "—" if value is None else re.sub(r"\.0$", "", str(value)) + " %"


def best_text(child: dict) -> re.Pattern[str]:
    """The best moves as the page writes them, the review's figure: "3 of 19 (15.8 %)" (in
    Filipino "3 sa 19 …")."""
    if not child["choices"]:
        return re.compile("^—$")
    percent = shown(child["accuracy"]).replace(" %", "")
    return re.compile(rf"^{child['best_moves']}\D+{child['choices']} \({re.escape(percent)} %\)$")


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_the_class_page_shows_each_childs_figures(browser, server, long_term, lang) -> None:
    expected = figures(long_term)
    with new_page(browser) as page:
        unlocked(page, server, lang, "/class/progress")
        expect(page.locator("h1")).to_contain_text(WORDS[lang]["title"])
        rows = page.locator("#class-table tbody tr")
        expect(rows).to_have_count(3)
        for name in CHILDREN:
            row = page.locator(f'#class-table tbody tr[data-child="{name}"]')
            want = expected[name]
            assert want["games"] == 8
            expect(row.locator("td.games")).to_have_text("8")
            ops = row.locator("td.op")
            for i, op in enumerate(("+", "−", "×", "÷")):
                expect(ops.nth(i)).to_have_text(shown(want["operations"][op]["percent"]))
            expect(row.locator("td.best")).to_have_text(best_text(want))  # the review's figure
        shot(page, f"progress-class-{lang}.png")


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_a_childs_page_draws_its_charts_and_prints_on_one_a4_page(
    browser, server, long_term, lang
) -> None:
    from tests.hub.daykit import pdf_pages

    want = figures(long_term)["Ana Cruz"]
    with new_page(browser) as page:
        unlocked(page, server, lang, "/class/progress?child=Ana%20Cruz")
        expect(page.locator("#child-name")).to_have_text("Ana Cruz")
        expect(page.get_by_text(WORDS[lang]["ops"], exact=True)).to_be_visible()
        expect(page.locator("#child-figures dd.games")).to_have_text("8")
        expect(page.locator("#child-figures dd.best")).to_have_text(best_text(want))
        for op in ("+", "−", "×", "÷"):
            cell = page.locator(f'#ops-table tr[data-op="{op}"] td.percent')
            expect(cell).to_have_text(shown(want["operations"][op]["percent"]))
        expect(page.locator("#games-table tbody tr")).to_have_count(8)
        for canvas in ("chart-operations", "chart-weeks", "chart-puzzles"):
            drawn = page.evaluate(DRAWN, canvas)
            assert drawn["width"] > 100 and drawn["height"] > 100, (canvas, drawn)
            assert drawn["painted"] > 0.02 * drawn["width"] * drawn["height"], (canvas, drawn)
        bars = page.evaluate(
            "Chart.getChart('chart-operations').data.datasets[0].data"
        )  # the bars are the figures
        assert bars == [want["operations"][op]["percent"] for op in ("+", "−", "×", "÷")]
        weeks = page.evaluate("Chart.getChart('chart-weeks').data.labels")
        assert len(weeks) == 8 and weeks[0] == ("7 Sept" if lang == "en" else "Set 7")
        shot(page, f"progress-child-{lang}.png")
        expect(page.get_by_role("button", name=WORDS[lang]["print"])).to_be_visible()
        # what Chromium does when the page prints: beforeprint (the report's layout, the charts
        # redrawn at their printed size), then the pages
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        for canvas in ("chart-operations", "chart-weeks"):
            box = page.locator(f"#{canvas}").bounding_box()
            assert box is not None and box["width"] <= 703, (canvas, box)  # 186 mm at 96 dpi
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        (ARTIFACTS / f"progress-report-{lang}.pdf").write_bytes(pdf)
        assert pdf_pages(pdf) == 1
        page.emulate_media(media="print")  # and the report as printed, for the eye
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        shot(page, f"progress-report-{lang}.png")


def test_the_class_overview_links_to_the_progress(browser, server) -> None:
    with new_page(browser) as page:
        page.goto(server.url + "/class")
        link = page.get_by_role("link", name="Children's progress")
        expect(link).to_have_attribute("href", "/class/progress")


def test_the_teacher_edits_the_list_and_deletes_a_childs_data_on_the_page(
    browser, long_term, tmp_path
) -> None:
    import shutil

    state = tmp_path / "state"
    shutil.copytree(long_term, state)
    clock = ManualClock()
    app = create_app(clock=clock, state_dir=state, access=Access(hash_pin(PIN)))
    with serve(app, clock) as server, new_page(browser) as page:
        unlocked(page, server, "en", "/class/progress")
        page.get_by_label("New name").fill("Dan Uy")
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator('#class-table tbody tr[data-child="Dan Uy"] td.games')).to_have_text(
            "0"
        )
        assert "Dan Uy" in (state / "players.txt").read_text()
        page.get_by_role("link", name="Ben Reyes").click()
        page.wait_for_selector("body[data-ready='1']")
        asked: list[str] = []
        page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
        page.get_by_role("button", name="Delete this child's data…").click()
        page.wait_for_url(server.url + "/class/progress")
        expect(page.locator("#class-table tbody tr")).to_have_count(3)
        assert "Ben Reyes" in asked[0] and "cannot be undone" in asked[0]
        names = page.locator("#class-table tbody th").all_inner_texts()
        assert names == ["Ana Cruz", "Cara Lim", "Dan Uy"]
        expect(page.locator('#class-table tbody tr[data-child="Ana Cruz"] td.games')).to_have_text(
            "8"
        )
        assert "Ben Reyes" not in (state / "players.txt").read_text()
