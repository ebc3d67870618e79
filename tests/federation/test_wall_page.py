"""The federation's wall in Chromium (issue 40, items 13 and 17): a finished game is shown with
its own pairing, never with the board's next table's (a later round's pairing put on an earlier
round's result), and a wall without a broker cluster says so."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.sim.conftest import new_page

from .site import served

HALL = "ncr-meet"
G1, G2 = "20261205-090000-aaaaaa", "20261205-110000-bbbbbb"
A1, A2 = "a-000000000001", "a-000000000002"


def send(wall, board: str, leaf: str, data: dict | None) -> None:
    payload = b"" if data is None else json.dumps({"v": 1, **data}).encode()
    wall.message(f"damath/v1/halls/{HALL}/boards/{board}/{leaf}", payload)


def table(ident: str, round_no: int, blue: str, red: str) -> dict:
    return {"id": ident, "round": round_no, "table": "1", "blue": {"name": blue},
            "red": {"name": red}}  # fmt: skip


def state(board: str, game: str | None, seq: int, asg: str | None, **more) -> dict:
    return {"board": board, "game": game, "seq": seq, "assignment": asg, "ply": seq,
            "phase": "play", "totals": {"blue": "0", "red": "0"}, **more}  # fmt: skip


OVER = {"phase": "over", "totals": {"blue": "16", "red": "12"},
        "result": {"result": "1-0", "text": "Blue wins", "reason": "score"}}  # fmt: skip


def test_a_finished_game_keeps_its_own_pairing_when_the_next_round_is_sent(browser, tmp_path):
    with served(tmp_path / "fed") as site, new_page(browser) as page:
        wall = site.wall
        # board b1: round 1's table, its game played and finished; then round 2's table
        send(wall, "b1", "assignment", table(A1, 1, "Maria Santos", "Jose Reyes"))
        send(wall, "b1", "state", state("b1", G1, 1, A1, phase="setup", ply=0))
        send(wall, "b1", "state", state("b1", G1, 30, A1))
        send(wall, "b1", "state", state("b1", G1, 31, A1, **OVER))
        send(wall, "b1", "assignment", table(A2, 2, "Gino Ramos", "Ana Reyes"))
        send(wall, "b1", "state", state("b1", G1, 31, A2, **OVER))  # the board says it again
        send(wall, "b1", "state", state("b1", None, 0, A2))  # between games
        # board b2, first heard of after its game was over (the wall started late): the
        # retained state names the board's newest table, not necessarily the game's
        send(wall, "b2", "assignment", {**table("a-000000000003", 2, "Ella Garcia",
                                               "Fe Aquino"), "table": "2"})  # fmt: skip
        send(wall, "b2", "state", state("b2", G1, 31, "a-000000000003", **OVER))

        page.goto(site.url + "/wall")
        b1 = page.locator(".card", has_text="Gino Ramos – Ana Reyes")
        expect(b1).to_contain_text("Round 2")
        expect(b1.locator(".score")).to_have_count(0)  # no score, no result: not played yet
        expect(b1.locator(".previous")).to_contain_text("Round 1: Maria Santos – Jose Reyes")
        expect(b1.locator(".previous")).to_contain_text("16 : 12 · 1-0")
        b2 = page.locator(".card", has_text="Ella Garcia – Fe Aquino")
        expect(b2.locator(".score")).to_have_count(0)
        expect(b2.locator(".previous")).to_contain_text("Last game on this board: 16 : 12 · 1-0")
        expect(b2.locator(".waiting")).to_have_count(0)  # its game may have been that one

        # round 2's game begins on b1: now it is that pairing's, with its own score
        send(wall, "b1", "state", state("b1", G2, 1, A2, phase="setup", ply=0))
        send(wall, "b1", "state", state("b1", G2, 2, A2, totals={"blue": "5", "red": "0"}))
        expect(b1.locator(".score")).to_have_text("5 : 0")
        expect(b1.locator(".previous")).to_have_count(0)
