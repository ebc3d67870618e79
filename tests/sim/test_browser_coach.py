"""Playing the computer, a hint and the post-game review in Debian's Chromium, through the real
pipeline: the page's clicks move chips on the simulated table, the mock sensors see them, the
tracker and the session check them; the engine searches in its worker processes while the
simulator's loop goes on. Screenshots go to tests/artifacts/sim/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from controller.rules.game import Game
from controller.sim.server import create_app

from .conftest import ManualClock, RunningServer, open_board, serve
from .test_browser import Player

STEP = 0.5  # how far the test's clock moves to let a move settle
ENGINE_WAIT = 60_000  # ms: a search in a worker on a loaded machine (level 2 takes milliseconds)

pytestmark = pytest.mark.browser


@pytest.fixture
def practice_server(clock: ManualClock) -> Iterator[RunningServer]:
    """The simulator where every new game is a practice game without clocks."""
    app = create_app(clock=clock, tick_seconds=0.02, defaults={"practice": True, "clocks": "off"})
    with serve(app, clock) as running:
        yield running


def lit(page: Page, name: str) -> list[tuple[int, int]]:
    """The squares whose LED shows ``name`` now."""
    cells = page.locator(f'.sq[data-led="{name}"]')
    return sorted(
        (int(c.get_attribute("data-x") or 0), int(c.get_attribute("data-y") or 0))
        for c in cells.all()
    )


def state(page: Page, url: str, board: str) -> dict:
    return json.loads(page.request.get(f"{url}/board/{board}/state.json").text())


class Hands(Player):
    """The hands of tests/sim/test_browser.py, making a move shown by the board."""

    def make(self, path, captured) -> None:
        """Lift, set down at the end of the path, take each captured chip off."""
        self.click(*path[0])
        self.click(*path[-1])
        for sq in captured:
            self.click(*sq)
        self.server.clock.advance(STEP)


def test_a_game_against_the_computer_with_hints_and_the_review(
    page: Page, practice_server: RunningServer
) -> None:
    url = practice_server.url
    hands = Hands(page, practice_server)
    body = page.locator("body")
    open_board(page, url, "coach")
    expect(page.locator(".sq .chip")).to_have_count(24)
    practice_server.clock.advance(STEP)
    expect(body).to_have_attribute("data-phase", "play")

    # The teacher sets the computer on Red at level 2 and turns the hints on, on the page.
    expect(page.locator("#coach-settings")).to_be_visible()
    page.select_option("#coach-level", "2")
    expect(page.locator("#coach-level")).to_have_value("2")
    page.select_option("#coach-computer", "red")
    page.locator("#coach-hints").check()
    expect(page.locator("#coach-hint")).to_be_visible()

    game = Game.new("integer", "official")  # the test's own record of the game, to check
    for turn in range(5):
        # Blue asks for a hint: first the chip, then the whole move.
        page.locator("#coach-hint").click()
        expect(body).to_have_attribute("data-shown", "hint_chip", timeout=ENGINE_WAIT)
        chip = lit(page, "shown_from")
        assert len(chip) == 1 and lit(page, "shown_path") == []
        expect(page.locator("#coach-shown")).to_contain_text("Hint: lift your")
        if turn == 0:
            hands.shot("coach-01-hint-chip")
        page.locator("#coach-hint").click()
        expect(body).to_have_attribute("data-shown", "hint")
        expect(page.locator("#coach-shown")).to_contain_text("score")
        hint = state(page, url, "coach")["shown"]
        assert lit(page, "shown_from") == chip == [tuple(hint["from"])]
        move = game.find_move([tuple(sq) for sq in hint["path"]])
        assert move in game.legal_moves()
        if turn == 0:
            hands.shot("coach-02-hint-move")
        hands.make(move.path, move.captures)
        game.push(move)
        expect(body).to_have_attribute("data-ply", str(game.ply))

        # The computer answers: its move is lit (chip, path, chips to take) and said.
        expect(body).to_have_attribute("data-shown", "computer", timeout=ENGINE_WAIT)
        shown = state(page, url, "coach")["shown"]
        computer = game.find_move([tuple(sq) for sq in shown["path"]])
        assert lit(page, "shown_from") == [computer.start]
        assert set(lit(page, "shown_path")) == set(computer.path[1:])
        assert lit(page, "shown_taken") == sorted(computer.captures)
        start = f"({shown['path'][0][0]}, {shown['path'][0][1]})"  # named as on the board
        expect(page.locator("#coach-shown")).to_contain_text(
            re.compile(r"^The computer \(level 2\) (moves|takes with) its .* " + re.escape(start))
        )
        expect(page.locator(".oled-box")).to_be_visible()
        assert state(page, url, "coach")["display"][1].startswith("PC: ")
        if turn == 0:
            hands.shot("coach-03-computer-move")
            # Another legal move of the computer's side is refused: the board asks for the
            # chips back and shows its move again.
            other = next(
                m for m in game.legal_moves() if m.path != computer.path and not m.captures
            )
            hands.make(other.path, ())
            expect(body).to_have_attribute("data-phase", "restore")
            expect(page.locator("#says")).to_contain_text("not the computer's move")
            hands.shot("coach-04-not-as-shown")
            hands.press(page.locator("#arrange"))
            practice_server.clock.advance(STEP)
            expect(body).to_have_attribute("data-phase", "play")
            expect(body).to_have_attribute("data-ply", str(game.ply))
            expect(body).to_have_attribute("data-shown", "computer")
        hands.make(computer.path, computer.captures)
        game.push(computer)
        expect(body).to_have_attribute("data-ply", str(game.ply))
        if game.ending() is not None:
            break

    # The scoresheet holds exactly the moves made: the engine's own game record agrees.
    assert state(page, url, "coach")["moves"] == [str(m) for m in game.move_stack]

    # The review: every move, the three biggest mistakes with the better move, accuracy.
    page.locator("#coach-review").click()
    review = page.locator("#coach-review-out")
    expect(review).to_contain_text("The three biggest mistakes", timeout=ENGINE_WAIT)
    expect(review.locator("table.moves tr")).to_have_count(game.ply + 1)
    expect(review.locator("table.accuracy")).to_contain_text("takings on ×")
    data = state(page, url, "coach")["coach"]["review"]
    assert data["ply"] == game.ply and len(data["moves"]) == game.ply
    for index in data["mistakes"]:
        expect(review.locator(f'li[data-move="{index}"]')).to_contain_text("Better:")
    hands.shot("coach-05-review")

    # A mistake's position opened as a lesson: a new practice game from just before it.
    if data["mistakes"]:
        index = data["mistakes"][0]
        lesson = data["lessons"][str(index)]
        review.locator(f'li[data-move="{index}"] button.lesson').click()
        expect(body).to_have_attribute("data-ply", "0")
        expect(page.locator(".sq .chip")).to_have_count(len(lesson["pieces"]))
        practice_server.clock.advance(STEP)
        expect(body).to_have_attribute("data-phase", "play")
        expect(body).to_have_attribute("data-to-move", lesson["to_move"])
        hands.shot("coach-06-lesson")
