"""Issue 28's hall on the spectators' wall, in Debian's Chromium: one event with a division of
Damath, of Dam (12 × 12), of Mathematical Chess (the 9 × 9 points) and of Dadama, each table's
board seated and sent its table through the real Mosquitto and hub, the games played live. The
wall draws every board as the board itself stands: each piece on its square (read back from the
SVG's circles), its value, digit or operator, the sides kept apart, Dadama's last throw framed
on its die and said; each card names its table's players. A board opened large shows its
game's record, the very text the board exports. The screenshots are kept under the test's
folder and copied to docs/images/ (wall-three-games*.png) for the guides."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from controller.cli import main
from tests.chromium import browser_scope
from tests.docs_images import keep_for_docs
from tests.link.gameboards import EXPORTS, open_game, play

from .conftest import Board
from .eventkit import MOVES, HallBoard, api, wait_for

pytestmark = pytest.mark.browser

DIVISIONS = {"damath": "damath", "dam": "dam", "chess": "mathchess", "dice": "dadama"}
"""The event's divisions and the game each names; one table, one board of each."""
BOARD = {"damath": "d1", "dam": "m1", "chess": "c1", "dice": "a1"}

# What the wall drew: every piece's square (the SVG's y counted from the bottom, as the board's
# squares are), its side's fill or class, and the text written on it (a king's crown left out:
# the board's pieces are compared by their squares, values and sides).
DRAWN = """(card) => {
  const svg = card.querySelector("svg.board");
  const n = Number(svg.getAttribute("viewBox").split(" ")[2]);
  const out = [];
  for (const c of svg.querySelectorAll("g.live circle")) {
    let label = "", t = c.nextElementSibling;
    while (t && t.tagName === "text") {
      if (t.textContent !== "\u265b") label = t.textContent;
      t = t.nextElementSibling;
    }
    const side = c.getAttribute("class") || c.getAttribute("fill");
    out.push([Number(c.getAttribute("cx")) - 0.5, n - 1 - (Number(c.getAttribute("cy")) - 0.5),
              side, label]);
  }
  return {n, pieces: out};
}"""


def own_pieces(game: str, board: Any) -> list[tuple[int, int, int, str]]:
    """The pieces as the board's own game holds them: square, side, what is written on each."""
    if game == "damath":
        chips = board.play.session.game.chips()
        return [(x, y, c.side, str(c.value)) for (x, y), c in chips.items()]
    session = board.game.session
    if game == "dadama":
        return [(x, y, d.side, str(d.value)) for (x, y), d in session.game.pieces().items()]
    if game == "mathchess":
        return [(x, y, p.side, p.symbol) for (x, y), p in session.position.board.pieces()]
    return [(x, y, c.side, "") for (x, y), c in session.game.chips().items()]


def plies(board: Any) -> int:
    """How far the board's game has gone, as the wall counts it: Dadama's steps, Mathematical
    Chess's actions, the draughts games' plies."""
    game = board.game.session.game
    name = board.game.kind.name
    if name == "dadama":
        return len(game.history)
    return len(game.actions) if name == "mathchess" else int(game.ply)


def by_side(pieces: list[tuple[Any, Any, Any, str]]) -> set[frozenset[tuple[int, int, str]]]:
    """The pieces grouped by side, the sides unnamed: the wall names them by colour (blue, or
    the game's white and black), the rules by the first and the second mover."""
    sides: dict[Any, set[tuple[int, int, str]]] = {}
    for x, y, side, label in pieces:
        sides.setdefault(side, set()).add((round(x), round(y), label))
    return {frozenset(s) for s in sides.values()}


def assert_drawn_as_the_board(page: Page, board: str, game: str, own: Any) -> None:
    drawn = page.locator(f"#b-{board}").evaluate(DRAWN)
    assert drawn["n"] == {"dam": 12, "mathchess": 9}.get(game, 8), drawn
    assert by_side(drawn["pieces"]) == by_side(own_pieces(game, own)), (board, drawn)


def test_the_wall_shows_an_event_of_every_game_live_as_each_board_stands(hub, tmp_path, browser):
    hub.start()

    def cli(*argv: str) -> None:
        assert main(["hub", *argv, "--dir", str(hub.folder)]) == 0

    cli("event", "create", "--name", "Hall Day", "--system", "round-robin", "--division",
        "damath", "--initial-colour", "blue")  # fmt: skip
    for division, game in DIVISIONS.items():
        if division != "damath":
            cli("division", "set", division, "--system", "round-robin", "--game", game)
        for player in ("Ana", "Ben"):
            cli("player", "add", f"{division} {player}", "--division", division)
        cli("pair", "--round", "1", "--division", division)
    damath = HallBoard.start("d1", hub.add_board("d1"), tmp_path / "d1")
    links: dict[str, Board] = {}
    for division, b in BOARD.items():
        if division != "damath":
            links[b] = Board(b, tmp_path / b, hub.add_board(b))
            links[b].folder.mkdir()
            links[b].start_link()
        cli("seat", "--division", division, "--table", "1", "--board", b)
        api(hub, "/api/event/publish", {"round": 1, "division": division})
    damath.take_assignment(wait_for("d1: its table", damath.assignment) or "")
    assert api(hub, "/api/event/start", {"round": 1, "division": "damath"})["started"]
    damath.wait_started()
    boards: dict[str, Any] = {}
    for division, b in BOARD.items():
        if division != "damath":
            link = links[b].link
            assert link is not None
            wait_for(f"{b}: its table", link.assignment)
            boards[b] = open_game(links[b].folder, DIVISIONS[division])
    shots = tmp_path / "shots"
    shots.mkdir()
    with browser_scope(browser):
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(hub.url + "/")
        expect(page.locator("#conn")).to_have_text("live")
        for first, turns in ((0, 2), (2, 4)):  # each turn drawn as played (Chess still on)
            damath.play.play_moves(MOVES[first:turns], seed=first)
            for board in boards.values():
                play(board, board.game.kind.name, turns)
            card = page.locator("#b-d1")
            expect(card).to_have_attribute("data-ply", str(damath.play.session.game.ply))
            for b, board in boards.items():
                expect(page.locator(f"#b-{b}")).to_have_attribute("data-ply", str(plies(board)))
            assert_drawn_as_the_board(page, "d1", "damath", damath)
            for division, b in BOARD.items():
                if division != "damath":
                    assert_drawn_as_the_board(page, b, DIVISIONS[division], boards[b])
        # each card names its division, its table and its players, whatever the game
        for division, b in BOARD.items():
            card = page.locator(f"#b-{b}")
            expect(card.locator(".title")).to_have_text(f"{division} · Table 1 · {b}")
            expect(card.locator(".player.blue .name")).to_contain_text(f"{division} Ana")
            expect(card.locator(".player.red .name")).to_contain_text(f"{division} Ben")
        # Dadama's last throw: framed on the die the board threw, its dice said on the card
        square, dice, _kept = boards["a1"].game.session.last_throw
        dice_card = page.locator("#b-a1")
        frame = dice_card.locator("svg rect.thrown")
        expect(frame).to_have_count(1)
        x, y = float(frame.get_attribute("x") or 0), float(frame.get_attribute("y") or 0)
        assert (round(x), 7 - round(y)) == tuple(square), (x, y, square)
        throw = " and ".join(str(d) for d in dice)
        expect(dice_card.locator(".status")).to_have_text(f"Last throw {throw}")
        # Mathematical Chess's points, each player's as the board counts them
        first, second = boards["c1"].game.session.position.score()
        chess = page.locator("#b-c1")
        expect(chess.locator(".player.blue .total")).to_have_text(str(first))
        expect(chess.locator(".player.red .total")).to_have_text(str(second))
        page.screenshot(path=str(shots / "wall-three-games.png"), full_page=True)
        # a board opened large: Mathematical Chess's record as the board exports it
        page.locator("#b-c1").click()
        expect(page).to_have_url(hub.url + "/board/c1")
        own = boards["c1"].game.files()[EXPORTS["mathchess"]]
        expect(page.locator("#record")).to_have_text(own.strip(), use_inner_text=True)
        expect(page.locator("#sheet")).to_be_hidden()
        points = page.locator("svg.board g.live circle")
        expect(points).to_have_count(len(own_pieces("mathchess", boards["c1"])))
        page.screenshot(path=str(shots / "wall-three-games-chess-large.png"), full_page=True)
        # and Dam's 12 × 12, its PDN
        page.goto(hub.url + "/board/m1")
        own = boards["m1"].game.files()[EXPORTS["dam"]]
        expect(page.locator("#record")).to_have_text(own.strip(), use_inner_text=True)
        expect(page.locator("svg.board")).to_have_attribute("viewBox", "0 0 12 12")
        page.screenshot(path=str(shots / "wall-three-games-dam-large.png"), full_page=True)
    assert errors == []
    for shot in shots.iterdir():
        keep_for_docs(shot)
    damath.close()
    for link in links.values():
        link.close()
