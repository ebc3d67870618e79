"""The spectator wall in Debian's Chromium following a hall of every game live: boards of Dadama,
Dam, Mathematical Chess and English draughts publish through their links to the real hub, and
the wall draws each as the board stands: Dam's 12 × 12 board, the 9 × 9 points with their digits
and operators and the players' points, Dadama's dice with their values and the last throw framed;
each turn pushed as it is played. A card opened large shows the game's record, the very text the
board exports. Screenshots go to tests/artifacts/hub/ (wall-every-game*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.chromium import browser_scope
from tests.link.gameboards import EXPORTS, OTHER_GAMES, open_game, play

from .conftest import Board
from .test_wall_browser import ARTIFACTS

pytestmark = pytest.mark.browser


def pieces(name: str, game) -> list[tuple[tuple[int, int], str]]:
    """The pieces on the board game as it stands: where, and what is written on each."""
    session = game.session
    if name == "dadama":
        return [(sq, str(die.value)) for sq, die in session.game.pieces().items()]
    if name == "mathchess":
        return [(p, piece.symbol) for p, piece in session.position.board.pieces()]
    return [(sq, "") for sq in session.game.chips()]


def plies(name: str, game) -> int:
    session = game.session
    if name == "dadama":
        return len(session.game.history)
    if name == "mathchess":
        return len(session.game.actions)
    return session.game.ply


GRID = {"dam": ("rect", 144), "english": ("rect", 64), "dadama": ("rect", 64),
        "mathchess": ("line", 18), "italian": ("rect", 64)}  # fmt: skip
"""What each game's board is drawn with: its squares, or the lines through its 9 × 9 points."""


def test_the_wall_draws_every_game_live_and_opens_its_record(hub, tmp_path, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    hub.start()
    links = {name: Board(f"w-{name}", tmp_path / name, hub.add_board(f"w-{name}"))
             for name in OTHER_GAMES}  # fmt: skip
    boards = {}
    for name, link in links.items():
        link.folder.mkdir()
        link.start_link()
        boards[name] = open_game(link.folder, name)
    with browser_scope(browser):
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(hub.url + "/")
        expect(page.locator("#conn")).to_have_text("live")
        for turns in (2, 5):
            for name, board in boards.items():
                play(board, name, turns)
                card = page.locator(f"#b-w-{name}")
                expect(card).to_have_attribute("data-ply", str(plies(name, board.game)))
                tag, count = GRID[name]
                svg = card.locator("svg.board")
                expect(svg.locator(f":scope > {tag}")).to_have_count(count)
                on_board = pieces(name, board.game)
                expect(svg.locator("circle.piece")).to_have_count(len(on_board))
                labels = sorted(label for _, label in on_board if label)
                if labels:
                    shown = sorted(svg.locator("g.live text").all_text_contents())
                    assert [t for t in shown if t != "♛"] == labels
        dadama = page.locator("#b-w-dadama")
        expect(dadama.locator("svg rect.thrown")).to_have_count(1)
        expect(dadama.locator(".status")).to_contain_text("Last throw")
        white, black = boards["mathchess"].game.session.position.score()
        mathchess = page.locator("#b-w-mathchess")
        expect(mathchess.locator(".player.blue .name")).to_contain_text("White")
        expect(mathchess.locator(".player.blue .total")).to_have_text(str(white))
        expect(mathchess.locator(".player.red .total")).to_have_text(str(black))
        expect(page.locator("#b-w-dam svg.board")).to_have_attribute("viewBox", "0 0 12 12")
        page.screenshot(path=str(ARTIFACTS / "wall-every-game.png"))
        for name in ("dam", "mathchess"):  # to their ends: the result on the card
            play(boards[name], name)
            card = page.locator(f"#b-w-{name}")
            expect(card).to_have_attribute("data-ply", str(plies(name, boards[name].game)))
        expect(page.locator("#b-w-mathchess .pill")).to_have_text("1-0")
        page.screenshot(path=str(ARTIFACTS / "wall-every-game-over.png"))
        page.locator("#b-w-dam").click()
        expect(page).to_have_url(hub.url + "/board/w-dam")
        own = boards["dam"].game.files()[EXPORTS["dam"]]
        expect(page.locator("#record")).to_have_text(own.strip(), use_inner_text=True)
        expect(page.locator("#sheet")).to_be_hidden()
        page.screenshot(path=str(ARTIFACTS / "wall-every-game-dam-large.png"))
        page.goto(hub.url + "/board/w-dadama")
        expect(page.locator("svg.board circle.piece")).to_have_count(
            len(pieces("dadama", boards["dadama"].game))
        )
        expect(page.locator("#record")).to_contain_text("[")
        page.screenshot(path=str(ARTIFACTS / "wall-every-game-dadama-large.png"))
    assert errors == []
    for link in links.values():
        link.close()
