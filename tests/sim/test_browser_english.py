"""English draughts in the simulator, in Debian's Chromium: the fifth game of the board, added
through the game registry alone. The new-game dialog starts it, the page (the draughts renderer,
picked from the renderers' table) draws the 8×8 board's 32 dark squares with 12 men a side, moves
are read from the table, a taking that empties White's side ends the game (a position in the
game's JSON format), its PDN is shown, downloaded and kept once in the board's games.
Screenshots in tests/artifacts/sim/english-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller.sim.server import create_app

from .conftest import ARTIFACTS, ManualClock, RunningServer, open_board, serve
from .test_browser_dam import cell, held, move

pytestmark = pytest.mark.browser

LAST_MAN = {"game": "english", "fen": "B:W18:B14"}  # Black's man jumps White's last one


@pytest.fixture
def english_server(clock: ManualClock, tmp_path: Path):
    with serve(create_app(clock=clock, tick_seconds=0.02, state_dir=tmp_path), clock) as running:
        yield running


def test_english_draughts_on_the_page(
    page: Page, english_server: RunningServer, tmp_path: Path
) -> None:
    server = english_server
    open_board(page, server.url, "eng")
    page.locator("#open-new-game").click()
    page.locator("#variant").select_option("english")
    page.locator("#new-game").click()
    body = page.locator("body")
    expect(body).to_have_attribute("data-game", "english")
    expect(body).to_have_attribute("data-renderer", "draughts")
    expect(page.locator(".mcell.dark")).to_have_count(32)
    expect(page.locator(".mcell svg")).to_have_count(24)  # twelve men a side
    expect(page.locator("#game-badge")).to_have_text("English draughts")
    held(page, server)
    expect(page.locator("#dam-status")).to_contain_text("Black to move")
    page.screenshot(path=str(ARTIFACTS / "english-opening.png"))

    move(page, server, (1, 2), (0, 3))  # Black's man forward
    expect(page.locator("#dam-status")).to_contain_text("White to move")
    expect(page.locator("#dam-record")).to_contain_text("1. 9-13")
    expect(page.locator("#dam-record")).to_contain_text('[GameType "21"]')
    display = page.locator("#oled")
    expect(display).to_be_visible()  # the board's own display, drawn as on the OLED

    data = json.dumps(LAST_MAN).encode()
    page.set_input_files(
        "#position-file",
        files=[{"name": "last.json", "mimeType": "application/json", "buffer": data}],
    )
    expect(page.locator("#new-game-dialog")).to_be_visible()  # a game is under way: asked
    expect(page.locator("#variant")).to_have_value("english")
    page.locator("#new-game").click()
    expect(page.locator(".mcell svg")).to_have_count(2)
    held(page, server)
    expect(cell(page, 2, 3)).to_have_attribute("data-light", "must_take")
    page.screenshot(path=str(ARTIFACTS / "english-must-take.png"))
    move(page, server, (2, 3), (4, 5), taken=((3, 4),))
    expect(page.locator("#dam-status")).to_contain_text("Game over (1-0)")
    expect(page.locator("#dam-record")).to_contain_text('[Result "1-0"]')
    page.screenshot(path=str(ARTIFACTS / "english-won.png"))

    download = page.request.get(f"{server.url}/board/eng/game.pdn")
    assert download.ok and '[Result "1-0"]' in download.text()
    games = tmp_path / "boards" / "eng" / "games"
    kept = sorted(p.name for p in games.iterdir())
    pdns = [name for name in kept if name.endswith(".pdn")]
    assert len(pdns) == 1, kept  # the finished game kept once (the first game, put away, too)
    assert '[Result "1-0"]' in (games / pdns[0]).read_text()
