"""The spectator wall in Debian's Chromium (Playwright) following live games move by move, as a
projector in the hall would: the hub pushes each move (server-sent events; the page asks for
nothing while the games go on), the card shows the board, totals and whose turn, a click opens
the board large with its scoresheet. Screenshots go to tests/artifacts/hub/."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.chromium import browser_scope

from .conftest import Board

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hub"

pytestmark = pytest.mark.browser


def assign(hub, board: str, table: int, blue: str, red: str) -> None:
    token = (hub.folder / "hub.toml").read_text().split('organiser_token = "')[1].split('"')[0]
    body = json.dumps({"board": board, "round": 1, "table": table,
                       "blue": {"name": blue}, "red": {"name": red}}).encode()  # fmt: skip
    request = urllib.request.Request(
        hub.url + "/api/assignments", data=body, method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as r:
        assert r.status == 201


def test_wall_follows_a_live_game_move_by_move(hub, tmp_path, sample_moves, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    hub.start()
    boards = [Board(f"t{n}", tmp_path / f"t{n}", hub.add_board(f"t{n}")) for n in (1, 2, 3)]
    names = [("Maria Santos", "Jose Reyes"), ("Ana Cruz", "Ben Lim"), ("Carla Diaz", "Dan Uy")]
    for n, (b, (blue, red)) in enumerate(zip(boards, names, strict=True), start=1):
        assign(hub, b.board, n, blue, red)
        b.start_link()
        b.open_session()
    for b in boards:
        b.wait_acked()
    boards[1].play.play_moves(sample_moves[:9], speed=60)
    boards[2].play.play_moves(sample_moves[:4], speed=60)
    main = boards[0]
    with browser_scope(browser):
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else 0)
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(hub.url + "/")
        card = page.locator("#b-t1")
        expect(card).to_contain_text("Maria Santos")
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#b-t2")).to_have_attribute("data-ply", "9")
        before = len(requests)
        for ply, move in enumerate(sample_moves[:8], start=1):
            main.play.play_moves([move], seed=ply, speed=60)
            expect(card).to_have_attribute("data-ply", str(ply), timeout=5000)
            blue, red = main.play.session.totals()
            expect(card.locator(".player.blue .total")).to_have_text(blue)
            expect(card.locator(".player.red .total")).to_have_text(red)
            turn = "red" if ply % 2 else "blue"
            expect(card.locator(f".player.{turn}")).to_have_class("player " + turn + " turn")
            chips = len(main.play.session.game.chips())
            expect(card.locator("svg circle")).to_have_count(chips)
            if ply in (1, 8):
                page.screenshot(path=str(ARTIFACTS / f"wall-after-move-{ply}.png"))
        assert requests[before:] == [], "the wall asked for nothing: every move was pushed"
        card.click()
        expect(page).to_have_url(hub.url + "/board/t1")
        expect(page.locator("#title")).to_contain_text("Table 1")

        def written() -> list:  # the entries so far (no RC and grand totals before the end)
            return [r for r in main.play.session.sheet().rows if r.kind in ("move", "take")]

        expect(page.locator("body")).to_have_attribute("data-sheet-rows", str(len(written())))
        for ply, move in enumerate(sample_moves[8:12], start=9):
            main.play.play_moves([move], seed=ply, speed=60)
            expect(page.locator("body")).to_have_attribute("data-ply", str(ply), timeout=5000)
        expect(page.locator("body")).to_have_attribute("data-sheet-rows", str(len(written())))
        expect(page.locator("#sheet tbody")).to_contain_text(written()[-1].entry)
        page.screenshot(path=str(ARTIFACTS / "board-large.png"))
        boards[2].link.stop()  # a board goes away: the wall says so
        page.goto(hub.url + "/")
        expect(page.locator("#b-t3 .pill")).to_have_text("OFFLINE", timeout=10000)
        page.screenshot(path=str(ARTIFACTS / "wall-one-offline.png"))
        page.goto(hub.url + "/boards")
        expect(page.locator("#boards tbody")).to_contain_text("t3")
        page.screenshot(path=str(ARTIFACTS / "boards.png"))
    assert errors == []
    for b in boards:
        b.close()
