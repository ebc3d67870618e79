"""A short game of Mathematical Chess played by clicks on the simulator's board in Debian's
Chromium: placement at level 9 with each piece named as it is put down, then a position in the
engine's JSON format in which White takes an operator by moving (R02), Black removes without
moving (R12), White removes four digits in two steps around its operator (R06 then R08) after a
wrong removal is refused with its rule, Black declines a removal, and White wins by taking
Black's last operator. Screenshots go to tests/artifacts/sim/mathchess-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller.sim.server import create_app

from .conftest import ARTIFACTS, ManualClock, RunningServer, open_board, serve

pytestmark = pytest.mark.browser

PLAY = {
    "game": "mathchess",
    "conditions": {"digits": 9, "operators": {"+": 1, "−": 1, "×": 1}},
    "phase": "play",
    "to_move": "white",
    "pieces": [
        {"at": [6, 0], "side": "white", "piece": "×"},
        {"at": [8, 0], "side": "white", "piece": "9"},
        {"at": [3, 1], "side": "white", "piece": "−"},
        {"at": [0, 2], "side": "white", "piece": "+"},
        {"at": [5, 2], "side": "black", "piece": "×"},
        {"at": [1, 4], "side": "white", "piece": "5"},
        {"at": [2, 4], "side": "black", "piece": "7"},
        {"at": [4, 4], "side": "black", "piece": "1"},
        {"at": [5, 4], "side": "black", "piece": "2"},
        {"at": [6, 4], "side": "black", "piece": "9"},
        {"at": [4, 6], "side": "white", "piece": "6"},
        {"at": [5, 6], "side": "white", "piece": "2"},
        {"at": [7, 6], "side": "white", "piece": "8"},
        {"at": [4, 7], "side": "white", "piece": "1"},
        {"at": [5, 7], "side": "white", "piece": "3"},
        {"at": [6, 7], "side": "black", "piece": "+"},
        {"at": [7, 7], "side": "white", "piece": "4"},
        {"at": [0, 8], "side": "black", "piece": "3"},
    ],
}


class Player:
    def __init__(self, page: Page) -> None:
        self.page = page

    def _count(self, name: str) -> str:
        return self.page.locator("body").get_attribute(f"data-{name}") or "0"

    def _after(self, action) -> None:
        """One action, then its answer: a refusal is said; a done action is drawn anew."""
        replies, renders = self._count("replies"), self._count("renders")
        action()
        expect(self.page.locator("body")).not_to_have_attribute("data-replies", replies)
        if self.page.locator("body").get_attribute("data-reply") == "done":
            expect(self.page.locator("body")).not_to_have_attribute("data-renders", renders)

    def point(self, x: int, y: int):
        return self.page.locator(f'#mc-board button[data-x="{x}"][data-y="{y}"]')

    def click(self, x: int, y: int) -> None:
        self._after(lambda: self.point(x, y).click())

    def name(self, symbol: str) -> None:
        self._after(lambda: self.page.locator("#mc-names button", has_text=symbol).click())

    def done(self) -> None:
        self._after(lambda: self.page.locator("#mc-done").click())

    def says(self):
        return self.page.locator("#mc-says")

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"mathchess-{name}.png"), full_page=True)


@pytest.fixture
def mc_server(clock: ManualClock, tmp_path: Path):
    app = create_app(
        clock=clock, tick_seconds=0.02, state_dir=tmp_path, defaults={"game": "mathchess"}
    )
    with serve(app, clock) as running:
        yield running


def test_a_short_game_of_mathematical_chess_by_clicks(
    page: Page, mc_server: RunningServer, tmp_path: Path
) -> None:
    you = Player(page)
    open_board(page, mc_server.url, "mc1")  # an ordinary board, its game Mathematical Chess
    expect(page.locator("body")).to_have_attribute("data-phase", "prepare")
    expect(page.locator("body")).to_have_attribute("data-renderer", "mathchess")
    expect(page.locator("#mc-conditions")).to_contain_text("Level 9")

    # Prepare now!: a piece put down is named from the buttons before anything else (C-12)
    you.click(4, 1)
    expect(you.point(4, 1)).to_have_attribute("aria-label", "(4,1), to be named")
    expect(page.locator("#mc-names button")).to_have_text(["+", "×", "÷", "−"])
    expect(you.says()).to_contain_text("Name the piece on (4,1).")
    you.shot("1-naming")
    you.name("+")
    expect(you.point(4, 1)).to_have_attribute("aria-label", "(4,1) white addition")
    expect(you.point(4, 1).locator(".side")).to_have_text("W")
    expect(page.locator("body")).to_have_attribute("data-to-move", "black")
    you.click(4, 1 + 7)  # Black names its first piece too
    you.name("×")
    expect(you.point(4, 8).locator(".side")).to_have_text("B")
    expect(page.locator("#mc-sheet li")).to_have_count(2)
    you.shot("2-placed")

    # a position from the engine's JSON format: Play now!
    you._after(
        lambda: page.evaluate(
            """(position) => send({type: 'new_game', game: 'mathchess', position: position,
                                   confirm: true})""",
            PLAY,
        )
    )
    expect(page.locator("body")).to_have_attribute("data-phase", "play")
    expect(page.locator("#mc-sheet li")).to_have_count(0)

    # 1. White: the + meets Black's × along its row and takes it (a direct removal, R02)
    you.click(0, 2)
    you.click(5, 2)
    you.click(5, 2)
    expect(you.point(5, 2)).to_have_class("mc-point x5 y2 moved")
    you.done()
    expect(page.locator("#mc-sheet li").nth(0)).to_contain_text("R02 × +2")

    # 2. Black removes White's 1 3 and 4 without moving, by the match around its + (R12)
    expect(you.point(5, 7).locator(".badge")).to_have_text("R12")
    expect(page.locator("#mc-options")).to_contain_text("R12: 1 + 3 = 4 and 4: last digits 4 = 4")
    you.shot("2-without-moving")
    for x, y in ((4, 7), (5, 7), (7, 7)):
        you.click(x, y)
    you.done()
    expect(page.locator("#mc-sheet li").nth(1)).to_contain_text("R12 1 3 4 +3: 1 + 3 = 4 and 4")

    # 3. White moves its − between 5 7 and 1 2 9; the 2 lifted first is refused (R06)
    you.click(3, 1)
    you.click(3, 4)
    you.click(5, 4)
    expect(you.says()).to_contain_text("R06")
    expect(you.point(5, 4).locator(".badge")).to_have_text("R06")
    you.shot("3-refused")
    you.done()  # the button is refused while the wrong piece is off
    expect(page.locator("#mc-sheet li")).to_have_count(2)
    you.click(5, 4)  # put back
    expect(you.says()).to_have_text("")
    for x, y in ((4, 4), (6, 4)):
        you.click(x, y)
    expect(you.point(5, 4).locator(".badge")).to_have_text("R08")  # what may still go, lit
    you.shot("3-going-on")
    for x, y in ((2, 4), (5, 4)):
        you.click(x, y)
    you.done()
    third = page.locator("#mc-sheet li").nth(2)
    expect(third).to_contain_text("R06 1 9 +2")
    expect(third).to_contain_text("9 − 1 = 8: last digits 8 = 8")
    expect(third).to_contain_text("R08 7 2 +2: 7 − 5 = 2 and 2: last digits 2 = 2")

    # 4. Black moves its + between White's 2s and declines the removal it allows
    you.click(6, 7)
    you.click(6, 6)
    expect(you.point(5, 6).locator(".badge")).to_have_text("R06")
    you.shot("4-declining")
    you.done()
    expect(you.point(5, 6)).to_have_attribute("aria-label", "(5,6) white 2")
    expect(page.locator("#mc-sheet li").nth(3)).not_to_contain_text("+")

    # 5. White's × takes Black's last operator: the game is won
    you.click(6, 0)
    you.click(6, 6)
    you.click(6, 6)
    you.done()
    expect(page.locator("body")).to_have_attribute("data-phase", "over")
    expect(you.says()).to_contain_text("white")
    expect(page.locator("#mc-score")).to_have_text("White 14 · Black 4")  # C-11: 2 + 2 + 2 + 2 more
    expect(page.locator("#mc-began")).to_contain_text("began at 6–1")
    you.shot("5-won")

    # the journal replays the game after a restart of the simulator
    journal = tmp_path / "boards" / "mc1" / "journal.jsonl"
    records = [json.loads(line.split(" ", 1)[1]) for line in journal.read_text().splitlines()]
    assert [r.get("k") for r in records][:2] == ["start", "mathchess-turn"]
    with serve(create_app(clock=mc_server.clock, state_dir=tmp_path), mc_server.clock) as again:
        page.goto(f"{again.url}/mathchess/mc1")  # the old address leads to the board
        expect(page.locator("body")).to_have_attribute("data-phase", "over")
        expect(page.locator("#mc-sheet li")).to_have_count(5)


def test_a_board_page_draws_its_game_however_late_the_games_script_arrives(
    page: Page, mc_server: RunningServer
) -> None:
    """The game's own script (mathchess.js) comes after sim.js; on a slow network (a loaded Pi,
    a classroom's Wi-Fi) the board's first state arrived before it and the page failed with
    "MathChess is not defined". The script is held back here until the state is long there."""
    import time

    open_board(page, mc_server.url, "mc1")
    expect(page.locator("body")).to_have_attribute("data-renderer", "mathchess")

    def late(route) -> None:
        time.sleep(1.5)  # the page's socket is open and its state sent meanwhile
        route.continue_()

    page.route("**/static/mathchess.js", late)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-renderer", "mathchess")
    expect(page.locator("#mc-conditions")).to_contain_text("Level 9")
    # the fixture fails the test on any JavaScript error the page had
