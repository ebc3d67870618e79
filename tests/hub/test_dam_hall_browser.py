"""Issue 40, a Dam division on the real Mosquitto and hub, in Debian's Chromium: table 1's game
finished on its board, table 2's board broke mid-game and the arbiter recorded the result by
hand. The archive says one thing of table 2 (its unfinished game's PDN carries the recorded
result, the board's own ``*`` kept beside it; its sheet says the game did not finish, not that
there is no board record); and once round 2 is paired and sent, both live walls still label
round 1's finished game with round 1's table and players, not round 2's."""

from __future__ import annotations

import re
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import expect

from controller.board import BoardHost
from controller.cli import main
from controller.games import GAMES
from controller.hub.accounts import Accounts
from controller.tournament.tournament import Tournament
from tests.chromium import browser_scope
from tests.games.players import PLAYERS, play_on
from tests.games.players import Board as Hands

from .conftest import DESK_PASSWORD, Board
from .eventkit import api, wait_for
from .test_desk_browser import login

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def hub_cli(folder: Path, *argv: str) -> None:
    assert main(["hub", *argv, "--dir", str(folder)]) == 0


def open_dam(folder: Path, finished: bool) -> Hands:
    """A Dam board's game: the short one (it ends, drawn) or a few turns from the start."""
    player = PLAYERS["dam"].short if finished else replace(PLAYERS["dam"].long, turns=2)
    host = BoardHost(folder, sync=False, wall=lambda: 1_700_000_000.0)
    board = Hands(host.open(GAMES["dam"], player.settings, 0.0, position=player.position))
    board.show()
    play_on(board, player)
    return board


def test_a_dam_table_recorded_by_hand_and_round_ones_games_on_the_walls(hub, tmp_path, browser):
    accounts = Accounts(hub.folder)
    accounts.add("lina", "arbiter", DESK_PASSWORD)
    accounts.close()
    hub.start()
    hub_cli(hub.folder, "event", "create", "--name", "Dam Day", "--system", "round-robin",
            "--division", "dam", "--game", "dam", "--initial-colour", "blue")  # fmt: skip
    for name in ("Ana", "Ben", "Cid", "Dee"):
        hub_cli(hub.folder, "player", "add", name, "--division", "dam")
    hub_cli(hub.folder, "pair", "--round", "1")
    boards = {}
    for n in (1, 2):
        b = Board(f"b0{n}", tmp_path / f"b0{n}", hub.add_board(f"b0{n}"))
        b.folder.mkdir()
        b.start_link()
        boards[n] = b
        hub_cli(hub.folder, "seat", "--table", str(n), "--board", b.board)
    api(hub, "/api/event/publish", {"round": 1})
    for b in boards.values():
        assert b.link is not None
        wait_for(f"{b.board}: its table", b.link.assignment)
    open_dam(boards[1].folder, finished=True)
    open_dam(boards[2].folder, finished=False)
    for b in boards.values():
        b.wait_acked()
    wait_for("table 1 finished", lambda: api(hub, "/api/event/round", {"round": 1})["tables"][0]
             ["status"] == "to-accept")  # fmt: skip
    assert api(hub, "/api/event/accept", {"round": 1})
    # -- the desk: a Dam row in Dam's words, and a result form without scores -----------
    with browser_scope(browser):
        desk = browser.new_page(viewport={"width": 1366, "height": 768})
        login(desk, hub.url, "lina")
        row = desk.locator("table.round tbody tr").nth(1)
        expect(row.locator(".live")).to_have_text(re.compile(r"^Move \d+, (Blue|Red) to play$"))
        row.get_by_text("Record or correct").click()
        expect(row.get_by_label("result")).to_be_visible()
        expect(row.get_by_label("Blue", exact=True)).to_have_count(0)  # Dam has no scores
        desk.screenshot(path=str(tmp_path / "desk-dam.png"), full_page=True)
        row.get_by_label("result").select_option("blue")
        row.get_by_label("Reason").first.fill("the board broke at move 2")
        row.get_by_role("button", name="Save").click()
        expect(desk.locator(".msg")).to_have_text("recorded: Blue wins")
        desk.close()

    # -- the archive: table 2's record and its sheet agree --------------------------------
    zipped = tmp_path / "dam.zip"
    hub_cli(hub.folder, "archive", "--out", str(zipped))
    with zipfile.ZipFile(zipped) as z:
        (kept,) = [n for n in z.namelist() if "/round-1/table-2_" in n]
        pdn = z.read(kept).decode()
        sheets = z.read("Dam-Day/dam/round-1/scoresheets.html").decode()
        games = z.read("Dam-Day/dam/round-1/games.pdn").decode()
    assert '[Result "1-0"]' in pdn and '[BoardResult "*"]' in pdn, pdn[:800]
    assert "the board broke at move 2" in pdn and pdn.rstrip().endswith("1-0"), pdn
    assert '[Result "*"]' not in games
    assert "No board record" not in sheets, sheets
    assert "The board&#x27;s game did not finish" in sheets or "The board's game did not" in sheets

    # -- round 2 paired and sent: round 1's finished game keeps round 1's pairing ----------
    t = Tournament.open(hub.folder)
    try:
        first = {q.table: q for q in t.pairings("dam", 1)}[1]
        players = t.players()
        names = [players[first.blue].name, players[first.red].name]
        hub_cli(hub.folder, "pair", "--round", "2")
        api(hub, "/api/event/publish", {"round": 2})
        second = {q.table: q for q in t.pairings("dam", 2)}[1]
        assert {second.blue, second.red} != {first.blue, first.red}
    finally:
        t.close()
    wait_for("b01 holds round 2", lambda: (boards[1].link.assignment() or {}).get("round") == 2)
    with browser_scope(browser):
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.goto(hub.url + "/")
        card = page.locator("#b-b01")
        expect(card.locator(".pill")).to_have_text("1/2-1/2", timeout=20000)
        expect(card.locator(".title")).to_have_text("Round 1 · Table 1 · b01")
        expect(card.locator(".player .name")).to_have_text(names)
        page.goto(hub.url + "/board/b01")
        expect(page.locator("#title")).to_have_text("Round 1 · Table 1 · Board b01")
        expect(page.locator(".player .name")).to_have_text(names)
        assert page.title() == "Round 1 · Table 1 · Board b01"
        page.close()
    for b in boards.values():
        b.close()
