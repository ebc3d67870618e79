"""The virtual board in real headless Chromium (Debian's package), driven by Playwright.

A game is played by clicks, as a player's hands would: lift, set down, take the captured chips
off one click each, crown the new dama. Along the way the test reads what the page shows from
the real pipeline: LED meanings and colours, the arbiter clocks (the server runs on the test's
clock, so every time is exact and nothing sleeps), the scoresheet, the buzzer cue. Screenshots
go to tests/artifacts/sim/.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller.rules.game import Game
from controller.scoresheet import build_scoresheet
from controller.scoresheet.layout import move_lines
from controller.scoresheet.typeset import typeset
from controller.view.session_leds import ALL_LIGHTS

from .conftest import ARTIFACTS, RunningServer, open_board

SETTLE = 0.25
STEP = 0.5  # how far the test's clock moves to let a move settle
PLIES = 33  # the bundled game up to Blue's promotion on (6, 7)

pytestmark = pytest.mark.browser


def square(page: Page, x: int, y: int):
    return page.locator(f'.sq[data-x="{x}"][data-y="{y}"]')


def clock_text(seconds: float) -> str:
    whole = math.ceil(seconds - 1e-9)
    return f"{whole // 60}:{whole % 60:02d}"


def sample_moves(plies: int) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """(path, captured squares) of the bundled game's first plies, read with the engine."""
    text = resources.files("controller.data").joinpath("sample_game.json").read_text("utf-8")
    data = json.loads(text)
    game = Game.new(data["variant"], data["profile"])
    out = []
    for path in data["moves"][:plies]:
        move = game.find_move([tuple(s) for s in path])
        game.push(move)
        out.append(([tuple(s) for s in move.path], list(move.captures)))
    return out


def sheet_of(moves):
    """The engine's scoresheet of these moves (a game in progress)."""
    game = Game.new("integer", "official")
    for path, _ in moves:
        game.push(game.find_move(path))
    return build_scoresheet(game.played(), game.chips(), "integer", "official", finished=False)


def sheet_rows(moves) -> list:
    """The engine's written entries (moves and takings) for these moves."""
    return [r for r in sheet_of(moves).rows if r.kind in ("move", "take")]


def square_text(square) -> str:
    return f"({square[0]}, {square[1]})"


def led_colour(page: Page, x: int, y: int) -> str:
    return (
        square(page, x, y)
        .locator(".led")
        .evaluate("el => getComputedStyle(el).getPropertyValue('--led').replace(/\\s/g, '')")
    )


def rgb(name: str) -> str:
    r, g, b = ALL_LIGHTS[name].colour
    return f"rgb({r},{g},{b})"


class Player:
    """The hands and eyes of the test: clicks, the clock, and waiting for the page."""

    def __init__(self, page: Page, server: RunningServer) -> None:
        self.page = page
        self.server = server
        self.elapsed = 0.0  # seconds of play since the clocks started

    def wait(self, seconds: float) -> None:
        self.server.clock.advance(seconds)
        if self.page.locator("body").get_attribute("data-phase") == "play":
            self.elapsed += seconds

    def click(self, x: int, y: int) -> None:
        self.press(square(self.page, x, y))

    def press(self, target) -> None:
        """Click, and wait for the board's answer: time must not pass before it has acted."""
        status = self.page.locator("#status")
        before = status.inner_text()
        target.click()
        expect(status).not_to_have_text(before)

    def play(self, path, captures, ply: int) -> None:
        self.click(*path[0])
        self.click(*path[-1])
        for sq in captures:
            self.click(*sq)
        expect(square(self.page, *path[-1]).locator(".chip")).to_have_count(1)
        for sq in captures:
            expect(square(self.page, *sq).locator(".chip")).to_have_count(0)
        self.wait(STEP)
        expect(self.page.locator("body")).to_have_attribute("data-ply", str(ply))

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_full_game_by_clicks(page: Page, sim_server: RunningServer) -> None:
    me = Player(page, sim_server)
    body = page.locator("body")
    open_board(page, sim_server.url, "game1")
    expect(page.locator("#link")).to_have_text("connected")
    expect(body).to_have_attribute("data-phase", "setup")
    expect(page.locator(".sq .chip")).to_have_count(24)
    me.wait(SETTLE)
    expect(body).to_have_attribute("data-phase", "play")
    expect(page.locator("#clock-game")).to_have_text("20:00")
    me.elapsed = 0.0
    me.wait(5.0)
    expect(page.locator("#clock-game")).to_have_text("19:55")
    expect(page.locator("#clock-move")).to_have_text("0:55")
    me.shot("01-start")

    # Lifting shows where the chip may go, in the view's colours, with a symbol as well.
    me.click(1, 2)
    expect(page.locator("#hand .chip")).to_have_attribute("data-label", "-9")
    expect(square(page, 1, 2)).to_have_attribute("data-led", "lifted")
    for x, y in ((0, 3), (2, 3)):
        expect(square(page, x, y)).to_have_attribute("data-led", "destination")
        assert led_colour(page, x, y) == rgb("destination")
        label = square(page, x, y).get_attribute("aria-label") or ""
        assert f"LED {ALL_LIGHTS['destination'].meaning}" in label  # the legend's words
    expect(square(page, 2, 3).locator(".led-sym")).to_have_text("●")
    me.shot("02-lifted")
    me.click(2, 3)
    me.wait(STEP)
    expect(body).to_have_attribute("data-ply", "1")
    expect(page.locator("#clock-move")).to_have_text("1:00")

    moves = sample_moves(PLIES)
    me.play(*moves[1], ply=2)

    # A mismatch: Blue sets a chip on a square no move reaches; the board says what to fix.
    me.click(5, 2)
    me.click(5, 4)
    expect(square(page, 5, 4).locator(".chip")).to_have_count(1)
    me.wait(1.0)  # the tracker's error delay
    expect(square(page, 5, 2)).to_have_attribute("data-led", "missing")
    expect(square(page, 5, 4)).to_have_attribute("data-led", "extra")
    assert led_colour(page, 5, 2) == rgb("missing")
    expect(page.locator("#buzzer")).to_have_attribute("data-cue", "error")
    me.shot("03-mismatch")
    me.click(5, 4)  # lift it again
    me.click(5, 2)  # and put it back where it stood
    expect(square(page, 5, 2)).not_to_have_attribute("data-led", "missing")
    expect(square(page, 5, 4)).not_to_have_attribute("data-led", "extra")

    for ply in range(3, PLIES + 1):
        path, captures = moves[ply - 1]
        if ply == 5:  # the first taking: the taker pulses before it moves
            expect(square(page, *path[0])).to_have_attribute("data-led", "must_take")
            assert led_colour(page, *path[0]) == rgb("must_take")
        me.play(path, captures, ply)
        if ply == 8:  # Red's double taking: two written entries, each with its score
            red_moves = page.locator("#sheet tbody td:nth-child(5)").all_inner_texts()
            want = [r for r in sheet_rows(moves[:8]) if r.player == 1][-2:]
            assert red_moves[-2:] == [
                f"{typeset(r.entry)} at {square_text(r.square)}" for r in want
            ]
            red_scores = page.locator("#sheet tbody td:nth-child(6)").all_inner_texts()
            assert all(score != "" for score in red_scores[-2:])
            me.shot("04-multi-capture")
            assert page.locator("#tray-blue .chip").count() == 3

    # Promotion: the board asks for the crown; the player crowns the chip on its square.
    expect(page.locator("#crown-call")).to_be_visible()
    expect(square(page, 6, 7)).to_have_attribute("data-led", "crown")
    me.shot("05-promotion")
    page.locator("#crown-square").click()
    expect(square(page, 6, 7).locator(".chip")).to_have_attribute("data-dama", "1")
    expect(page.locator("#crown-call")).to_be_hidden()
    expect(square(page, 6, 7)).not_to_have_attribute("data-led", "crown")

    # The scoresheet on the page is the engine's: same entries, same totals.
    rows = sheet_rows(moves)
    takes = [r for r in rows if r.kind == "take"]
    for side, name in ((0, "blue"), (1, "red")):
        total = [r.total for r in takes if r.player == side][-1]
        expect(page.locator(f"#total-{name}")).to_have_text(
            f"{name.capitalize()} total: {typeset(total)}"
        )
    cells = page.locator("#sheet tbody td").all_inner_texts()
    for r in takes:
        entry = f"{typeset(r.entry)} at {square_text(r.square)}"
        assert entry in cells, f"{entry} missing from the page's scoresheet"
    expect(page.locator("#sheet tbody tr")).to_have_count(len(move_lines(sheet_of(moves))))

    # The clocks: exactly the time that passed, the move clock fresh after the move.
    expect(page.locator("#clock-game")).to_have_text(clock_text(1200 - me.elapsed))
    me.wait(7.0)
    expect(page.locator("#clock-move")).to_have_text(clock_text(60 - 7.0 - (STEP - SETTLE)))
    expect(page.locator("#clock-game")).to_have_text(clock_text(1200 - me.elapsed))

    # The arbiter: pause stops both clocks; takeback asks for the board to be set back.
    page.locator("#btn-pause").click()
    expect(body).to_have_attribute("data-paused", "1")
    shown = page.locator("#clock-game").inner_text()
    sim_server.clock.advance(30.0)
    page.wait_for_timeout(150)
    expect(page.locator("#clock-game")).to_have_text(shown)
    page.locator("#btn-pause").click()
    expect(body).to_have_attribute("data-paused", "0")
    page.locator("#btn-takeback").click()
    expect(body).to_have_attribute("data-phase", "restore")
    expect(square(page, 7, 6)).to_have_attribute("data-led", "missing")
    expect(square(page, 6, 7)).to_have_attribute("data-led", "extra")
    me.click(6, 7)  # the dama goes back to (7, 6), uncrowned
    me.press(page.locator("#turn-over"))
    me.click(7, 6)
    me.wait(STEP)
    expect(body).to_have_attribute("data-phase", "play")
    expect(body).to_have_attribute("data-ply", str(PLIES - 1))
    me.shot("06-after-takeback")

    # Downloads: the scoresheet as CSV and printable page, the game as PDN.
    csv = page.request.get(f"{sim_server.url}/board/game1/scoresheet.csv").text()
    assert csv.startswith("player,kind,entry,score,total,square")
    assert takes[0].entry in csv
    pdn = page.request.get(f"{sim_server.url}/board/game1/game.pdn").text()
    assert "1." in pdn and "[Result" in pdn
    printable = page.request.get(f"{sim_server.url}/board/game1/scoresheet.html")
    assert printable.ok and "<table" in printable.text()


def test_keyboard_only_play(page: Page, sim_server: RunningServer) -> None:
    open_board(page, sim_server.url, "keys")
    expect(page.locator("#link")).to_have_text("connected")
    sim_server.clock.advance(SETTLE)
    expect(page.locator("body")).to_have_attribute("data-phase", "play")
    square(page, 1, 0).focus()
    page.keyboard.press("ArrowUp")  # (2, 1)
    page.keyboard.press("ArrowUp")  # (3, 2)
    focused = page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y]")
    assert focused == ["3", "2"]
    label = square(page, 3, 2).get_attribute("aria-label") or ""
    assert label.startswith("(3, 2) × square, blue chip 6")
    page.keyboard.press("Enter")
    expect(page.locator("#hand .chip")).to_have_attribute("data-label", "6")
    expect(square(page, 3, 2)).to_have_attribute(
        "aria-label", f"(3, 2) × square, empty, LED {ALL_LIGHTS['lifted'].meaning}"
    )
    page.keyboard.press("ArrowUp")  # (4, 3)
    page.keyboard.press(" ")
    expect(square(page, 4, 3).locator(".chip")).to_have_attribute("data-label", "6")
    sim_server.clock.advance(STEP)
    expect(page.locator("body")).to_have_attribute("data-ply", "1")
    expect(page.locator("#legend li")).to_have_count(len(ALL_LIGHTS))


def test_a_phone_sized_screen_shows_the_whole_board(page: Page, sim_server: RunningServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_board(page, sim_server.url, "phone")
    expect(page.locator(".sq .chip")).to_have_count(24)
    box = page.locator("#board").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path=str(ARTIFACTS / "07-phone.png"), full_page=True)


def test_a_lesson_position_with_a_ring_to_take_either_way_round(
    page: Page, sim_server: RunningServer, tmp_path: Path
) -> None:
    from .test_positions import RING

    me = Player(page, sim_server)
    body = page.locator("body")
    open_board(page, sim_server.url, "lesson")
    expect(page.locator("#link")).to_have_text("connected")

    # A file that is not a position is refused with a message; the game on the board stays.
    page.set_input_files(
        "#position-file",
        files=[{"name": "notes.json", "mimeType": "application/json", "buffer": b"{oops"}],
    )
    expect(page.locator("#status")).to_contain_text("notes.json is not a JSON position")
    bad = {"pieces": [{"square": [0, 0], "side": "blue", "value": "1"}]}
    page.set_input_files(
        "#position-file",
        files=[
            {"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}
        ],
    )
    expect(page.locator("#status")).to_contain_text("cannot be played")
    expect(page.locator(".sq .chip")).to_have_count(24)

    lesson = tmp_path / "ring.json"
    lesson.write_text(json.dumps(RING))
    page.set_input_files("#position-file", str(lesson))
    expect(page.locator(".sq .chip")).to_have_count(len(RING["pieces"]))
    me.wait(SETTLE)
    expect(body).to_have_attribute("data-phase", "play")
    expect(square(page, 2, 1)).to_have_attribute("data-led", "must_take")

    for sq in ((3, 2), (3, 4), (1, 4), (1, 2)):  # the four red chips off, one click each
        me.click(*sq)
    me.click(2, 1)  # the taker goes round the ring in the air
    me.click(2, 1)
    expect(page.locator(".sq .chip")).to_have_count(2)
    me.wait(STEP)
    for x, y in ((4, 3), (0, 3)):  # where the two ways part
        expect(square(page, x, y)).to_have_attribute("data-led", "choice")
    expect(page.locator("#oled-text")).to_contain_text("Which way? Next/OK")
    me.shot("08-ring-which-way")

    page.locator("#btn-next").click()
    expect(page.locator("#oled-text")).to_contain_text("> via 4,3")
    expect(square(page, 4, 3)).to_have_attribute("data-led", "selected")
    page.locator("#btn-next").click()
    expect(page.locator("#oled-text")).to_contain_text("> via 0,3")
    expect(square(page, 0, 3)).to_have_attribute("data-led", "selected")
    page.locator("#btn-confirm").click()
    me.wait(STEP)
    expect(body).to_have_attribute("data-ply", "1")
    blue_moves = [t for t in page.locator("#sheet tbody td:nth-child(2)").all_inner_texts() if t]
    assert len(blue_moves) == 4  # the four takings, in the order of the way chosen:
    assert blue_moves[0] == "−5 × 8 at (0, 3)"  # via (0, 3) the 8 is taken first
    saved = page.request.get(f"{sim_server.url}/board/lesson/position.json").json()
    assert saved["to_move"] == "red" and len(saved["pieces"]) == 2


class _Links:
    """``sim --hub``'s links as the server sees them (``link.board.BoardLinks``), their hub
    replaced by the test: ``after_step`` hands over an assignment line once, as the link does
    when it has just put it on the session."""

    def __init__(self) -> None:
        self.line: str | None = None

    def ids(self) -> list[str]:
        return ["t7"]

    def start(self) -> None:
        pass

    def stop(self, timeout: float) -> int:
        return 0

    def after_step(self, board: str, session, t: float) -> str | None:
        line, self.line = self.line, None
        return line

    def refused(self, board: str) -> str:
        return ""  # a Damath board at a Damath table: nothing refused


def test_a_new_assignment_from_the_hub_shows_on_an_open_page(page: Page, clock) -> None:
    from controller.sim.server import create_app

    from .conftest import serve

    links = _Links()
    with serve(create_app(clock=clock, tick_seconds=0.02, links=links), clock) as server:
        first = "Table 7 · Round 2 · Ana (Blue) vs Ben (Red)"
        links.line = first
        page.goto(f"{server.url}/board/t7")
        expect(page.locator("#status")).to_have_text(first)
        second = "Table 7 · Round 3 · Cara (Blue) vs Ana (Red)"
        links.line = second  # the next round, while the page is open
        expect(page.locator("#status")).to_have_text(second)
