"""Every game's clocks on the simulator's page, in Debian's Chromium (issue 41): a game other
than Damath started from the New game dialog shows both sides' game times and the move time in
the strip above its board, the side to move's clock runs, and a flag ends the game with the
display saying so (Mathematical Chess's clocks wait while its pieces are prepared); with
``clocks=off`` (the dialog's Clocks) no strip. Screenshots in
tests/artifacts/sim/clocks-<game>.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller.sim.server import create_app

from .conftest import ARTIFACTS, ManualClock, RunningServer, open_board, serve
from .test_browser_dam import held

pytestmark = pytest.mark.browser

# the game, its first mover's clock face at the start, its move time (None: none)
GAMES = {
    "dam": ("30:00", "1:00"),
    "english": ("20:00", "1:00"),
    "dadama": ("20:00", "1:00"),
    "mathchess": ("15:00", None),
}


@pytest.fixture
def clock_server(clock: ManualClock, tmp_path: Path):
    with serve(create_app(clock=clock, tick_seconds=0.02, state_dir=tmp_path), clock) as running:
        yield running


def start(page: Page, server: RunningServer, board: str, game: str) -> None:
    open_board(page, server.url, board)
    page.locator("#open-new-game").click()
    page.locator("#variant").select_option(game)
    page.locator("#new-game").click()
    expect(page.locator("body")).to_have_attribute("data-game", game)
    held(page, server)


@pytest.mark.parametrize("game", GAMES)
def test_a_games_clocks_run_on_the_page_and_a_flag_ends_it(
    page: Page, clock_server: RunningServer, game: str
) -> None:
    server = clock_server
    face, move = GAMES[game]
    start(page, server, f"clk-{game}", game)
    strip = page.locator("#table-clocks")
    expect(strip).to_be_visible()
    expect(strip.locator(".side-clock")).to_have_count(2)
    expect(strip.locator(".side-clock").nth(1)).to_contain_text(face)  # the waiting side's: whole
    if move is None:
        expect(strip.locator(".move-clock")).to_have_count(0)
    else:
        expect(strip.locator(".move-clock")).to_contain_text(move)
    server.clock.advance(10)
    expect(strip.locator(".side-clock").nth(1)).to_contain_text(face)  # not its turn: still
    mover = strip.locator(".side-clock").nth(0)
    if game == "mathchess":  # its pieces are prepared first: the clocks wait for the play
        expect(mover).to_contain_text(face)
        return
    expect(mover).not_to_contain_text(face)  # its turn: its time runs
    page.screenshot(path=str(ARTIFACTS / f"clocks-{game}.png"))
    server.clock.advance(60 * 60)  # past any game's time: the side to move flags
    expect(page.locator("#oled-text")).to_contain_text("time is over")
    page.screenshot(path=str(ARTIFACTS / f"clocks-{game}-flag.png"))


def test_clocks_off_shows_no_clocks(page: Page, clock_server: RunningServer) -> None:
    server = clock_server
    open_board(page, server.url, "clk-off")
    page.locator("#open-new-game").click()
    page.locator("#variant").select_option("english")
    page.locator("#table-clocks-choice").select_option("off")
    page.locator("#new-game").click()
    expect(page.locator("body")).to_have_attribute("data-renderer", "draughts")
    held(page, server)
    expect(page.locator(".mcell.dark")).to_have_count(32)
    expect(page.locator("#table-clocks")).to_be_hidden()
