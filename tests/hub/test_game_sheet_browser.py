"""Every other game's printed sheet (the desk's reprint, the archive's scoresheets) in Debian's
Chromium: each game's long game played on a board, its own export printed as the hub prints
it, on one A4 page; a record of 180 turns still on one page. The pictures are kept under the
test's folder and copied to docs/images/ (sheet-<game>.png)."""

from __future__ import annotations

import re

import pytest

from controller.hub.game_sheet import (
    COLUMNS,
    ROWS_PER_COLUMN,
    SMALL_ROWS_PER_COLUMN,
    Sheet,
    render,
)
from tests.chromium import browser_scope
from tests.docs_images import keep_for_docs
from tests.link.gameboards import EXPORTS, OTHER_GAMES, play_game

from .daykit import pdf_pages

pytestmark = pytest.mark.browser

COLOURS = {"dam": ("Black", "White"), "english": ("Black", "White"),
           "dadama": ("White", "Black"), "mathchess": ("White", "Black"),
           "italian": ("White", "Black")}  # fmt: skip


def sheet_of(name: str, text: str) -> str:
    return render(
        Sheet(
            title=name,
            heading="Round 1, table 1",
            meta=["Hall Day", "2026-12-05", "division " + name, "board b1, game g1"],
            colours=COLOURS[name],
            players=(f"{name} Ana Maria Santos", f"{name} Ben Reyes"),
            kind=EXPORTS[name],
            text=text,
            lines=["Result for the tournament: Blue wins"],
        )
    )


def long_pdn(text: str, turns: int) -> str:
    """The board's record with its turns played again and again, ``turns`` of them: a long
    game's length for the page, whatever its moves."""
    head = [x for x in text.split("\n") if x.startswith("[")]
    body = " ".join(x for x in text.split("\n") if not x.startswith("["))
    pairs = re.findall(r"\d+\.\s+(\S+(?:\s+\[\d\])?)\s+(\S+(?:\s+\[\d\])?)", body)
    assert pairs, body
    rows = [f"{n + 1}. {' '.join(pairs[n % len(pairs)])}" for n in range(turns)]
    return "\n".join([*head, "", *rows, "*"])


def test_every_games_printed_sheet_fits_one_a4_page(tmp_path, browser):
    exports = {}
    for name in OTHER_GAMES:
        folder = tmp_path / name
        folder.mkdir()
        exports[name] = play_game(folder, name).files()[EXPORTS[name]]
    shots = tmp_path / "shots"
    shots.mkdir()
    with browser_scope(browser):
        page = browser.new_page(viewport={"width": 900, "height": 1270})
        for name, text in exports.items():
            page.set_content(sheet_of(name, text))
            turns = page.locator("ol.turns li:not(.head)")
            assert turns.count() >= 3, name  # each long game has turns to print
            assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == 1, name
            page.screenshot(path=str(shots / f"sheet-{name}.png"), full_page=True)
        # a long game: three columns of 45 turns at the sheet's type, of 60 in smaller type
        for rows, small in ((ROWS_PER_COLUMN, 0), (SMALL_ROWS_PER_COLUMN, 1)):
            many = COLUMNS * rows
            page.set_content(sheet_of("dam", long_pdn(exports["dam"], many)))
            assert page.locator("ol.turns li:not(.head)").count() == many
            assert page.locator("ol.turns.small").count() == small
            assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == 1, many
            page.screenshot(path=str(shots / f"sheet-dam-{many}.png"), full_page=True)
    for name in ("dam", "dadama", "mathchess"):
        keep_for_docs(shots / f"sheet-{name}.png")
