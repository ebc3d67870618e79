"""The tournament's acts at the board, through the real broker and the real hub: the table
confirmed (by both players' own buttons at one board, the arbiter's Confirm at the other), a
pause sent from the desk reaching the board's clocks and journal, the scoresheet signed by both
players becoming the pairing's result without the arbiter, and a dispute shown at the desk as a
problem with the sensor changes of the disputed move and the board's journal."""

from __future__ import annotations

import re

import pytest

from controller.hub.accounts import Accounts
from controller.record.journal_file import read as read_journal
from controller.tournament import boards as seating
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament
from tests.chromium import browser_scope

from .eventkit import HallBoard, api, round_view, wait_for
from .test_desk import PASSWORD, Browser


@pytest.fixture
def table2(hub, tmp_path):
    """Two boards, four players, round 1 paired and sent; the arbiter logged in at the desk."""
    hub.start()
    boards = {
        b: HallBoard.start(b, hub.add_board(b), tmp_path / "boards" / b) for b in ("b01", "b02")
    }
    t = Tournament.create(  # each table's clocks start at its confirmation
        hub.folder,
        Event("Signing Cup", initial_colour="blue", start="table"),
        Division("open", "swiss", 3),
    )
    for name in ("Ana", "Ben", "Cora", "Dan"):
        t.add_player(name)
    seating.auto_seats(t, list(boards), "organiser")
    t.pair(1)
    accounts = Accounts(hub.folder)
    accounts.add("lina", "arbiter", PASSWORD)
    accounts.close()
    assert api(hub, "/api/event/publish", {"round": 1})
    desk = Browser(hub.url)
    assert desk.login("lina")[0] == 303
    yield hub, t, boards, desk
    t.close()
    for b in boards.values():
        b.close()


def rows_by_board(hub) -> dict[str, dict]:
    return {r["board"]: r for r in round_view(hub, 1)}


def statuses(hub) -> set[str]:
    return {r["status"] for r in round_view(hub, 1)}


@pytest.mark.slow
def test_confirm_pause_sign_and_dispute_reach_the_desk(table2):
    hub, t, boards, desk = table2
    b1, b2 = boards["b01"], boards["b02"]
    sent = {d.board: d for d in seating.dispatches(t).values()}
    wait_for("both boards hold their table", lambda: b1.assignment() and b2.assignment())
    rows = wait_for(
        "the desk sees the tables on the boards, not yet confirmed",
        lambda: statuses(hub) == {"received"} and rows_by_board(hub),
    )
    assert rows["b01"]["signing"]["confirmed"] is False

    # -- confirmed: at b01 by both players' own buttons, at b02 by the arbiter's Confirm ------
    for b in (b1, b2):
        b.take_assignment(sent[b.board].assignment)
        assert "Confirm: the arbiter presses Confirm" in b.play.session.message
    s1 = b1.play.session
    s1.press(b1.play.t, "blue")
    assert s1.signing.waiting is not None and "waiting for Red" in s1.message
    b1.wait_acked()
    assert rows_by_board(hub)["b01"]["status"] == "received"  # one player is not enough
    s1.press(b1.play.t, "red")
    assert s1.signing.waiting is None and s1.message == "The round has started: the clocks run."
    b2.play.session.press(b2.play.t, "confirm")
    rows = wait_for(  # the event starts a table's clocks at its confirmation
        "both tables confirmed, and so started, at the desk",
        lambda: statuses(hub) == {"started"} and rows_by_board(hub),
    )
    assert rows["b01"]["signing"]["started_by"] == rows["b02"]["signing"]["started_by"] == "table"
    assert rows["b01"]["signing"]["confirmed_by"] == ["blue", "red"]
    assert rows["b02"]["signing"]["confirmed_by"] == ["arbiter"]

    # -- b01: a few moves, then the desk pauses it over MQTT ---------------------------------
    b1.play_some(4)
    assert s1.clocks.running and not s1.paused
    pid1 = rows["b01"]["pairing"]
    token = desk.csrf(f"/desk/table?pairing={pid1}")
    status, _, location = desk.go(
        "/desk/pause", {"csrf": token, "pairing": str(pid1), "cmd": "pause", "back": "/desk"}
    )
    assert status == 303 and "pause+sent" in location, location

    def paused() -> bool:
        b1.play.t += 0.5
        b1.link.after_step(s1, b1.play.t)
        return s1.paused

    wait_for("the board paused by the desk", paused)
    assert not s1.clocks.running and "arbiter's desk" in s1.message
    records = read_journal(b1.folder / "journal.jsonl").records
    assert [r.get("by") for r in records if r["k"] == "pause"] == ["desk"]
    b1.play.t += 0.5
    b1.link.after_step(s1, b1.play.t)  # the retained command is not obeyed twice
    s1.press(b1.play.t + 0.1, "pause")  # the arbiter resumes at the board
    assert not s1.paused
    b1.play.t += 1.0
    b1.link.after_step(s1, b1.play.t)
    assert not s1.paused

    # -- b01 finishes; both players sign: the result needs no arbiter ------------------------
    b1.arbiter_ends("red-resigns")
    s1.press(b1.play.t + 0.1, "red")
    assert "waiting for Blue" in s1.message
    s1.press(b1.play.t + 0.2, "red")  # a second press signs nothing more
    s1.press(b1.play.t + 0.3, "blue")
    assert s1.message == "Both players signed the scoresheet."
    b1.wait_acked()
    row = wait_for(
        "b01's signed result recorded",
        lambda: (r := rows_by_board(hub)["b01"])["status"] == "accepted" and r,
    )
    assert row["signing"]["signed"] == ["red", "blue"]
    assert row["result"]["outcome"] == "blue" and "signed at board b01" in row["result"]["by"]

    # -- b02: Red disputes Blue's last move (holds Red's button) -----------------------------
    s2 = b2.play.session
    b2.play_some(3)
    moved = s2.last_move
    assert moved is not None
    s2.press(b2.play.t + 0.2, "red", "hold")
    assert s2.paused and "RED disputes" in s2.message
    b2.wait_acked()
    row = wait_for(
        "the dispute at the desk",
        lambda: (r := rows_by_board(hub)["b02"])["status"] == "disputed" and r,
    )
    assert row["signing"]["disputes"] == 1
    status, html, _ = desk.go("/desk?round=1")
    assert status == 200 and "dispute: see the evidence" in html and "evidence (1)" in html
    status, html, _ = desk.go(f"/desk/table?pairing={row['pairing']}")
    assert status == 200 and "Red disputes Blue&#x27;s move 2" in html  # the third turn
    sensed = re.findall(r"<td[^>]*>(lifted|placed)</td><td[^>]*>(\w\d) ", html)
    # the disputed move's own sensor changes: its chip lifted from its first square and
    # placed on its last, with their times
    first, final = moved.path[0], moved.path[-1]
    name = lambda sq: f"{'abcdefgh'[sq[0]]}{sq[1] + 1}"  # noqa: E731
    assert ("lifted", name(first)) in sensed and ("placed", name(final)) in sensed
    assert "The board's journal" in html
    assert len(re.findall(r"<td[^>]*>move</td>", html)) == 3
    assert re.search(r"<td[^>]*>dispute</td>", html)
    # a disputed result is not accepted with the round's others
    b2.arbiter_ends("stop")
    b2.wait_acked()
    wait_for("b02's game finished", lambda: rows_by_board(hub)["b02"]["board_result"])
    assert api(hub, "/api/event/accept", {"round": 1})["accepted"] == 0
    assert rows_by_board(hub)["b02"]["status"] == "disputed"

    # -- the sheet to print again, and the pause logged with who -----------------------------
    status, html, _ = desk.go(f"/desk/sheet?pairing={pid1}")
    blue = t.players()[t.pairing(1, rows_by_board(hub)["b01"]["table"]).blue].name
    assert status == 200 and "<table" in html and blue in html
    assert any(e["action"] == "board-pause" and "lina" in e["by"] for e in t.log())


@pytest.mark.browser
def test_the_arbiter_rules_on_a_dispute_from_the_desk_in_chromium(table2, browser):
    """As the arbiter sees it: the round's row says there is a dispute, its evidence page shows
    the sensor changes, and Resume on that page starts the board's clocks again."""
    from playwright.sync_api import expect

    from .test_desk_browser import login
    from .test_wall_browser import ARTIFACTS

    hub, t, boards, _desk = table2
    b2 = boards["b02"]
    sent = {d.board: d for d in seating.dispatches(t).values()}
    wait_for("b02 holds its table", b2.assignment)
    b2.take_assignment(sent["b02"].assignment)
    s2 = b2.play.session
    s2.press(b2.play.t, "confirm")
    b2.play_some(3)
    s2.press(b2.play.t + 0.2, "red", "hold")
    b2.wait_acked()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with browser_scope(browser):
        page = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
        login(page, hub.url, "lina")
        row = page.locator('table.round tbody tr:has(a[href="/board/b02"])')
        expect(row.locator(".st")).to_have_text("dispute: see the evidence", timeout=15000)
        page.screenshot(path=str(ARTIFACTS / "desk-round-dispute.png"), full_page=True)
        row.get_by_role("link", name="evidence (1)").click()
        expect(page.locator("h3.dispute")).to_contain_text("Red disputes Blue's move 2")
        assert page.locator("table.sensed tbody tr").count() >= 2
        expect(page.locator("table.journal")).to_contain_text("dispute")
        page.screenshot(path=str(ARTIFACTS / "desk-dispute-evidence.png"), full_page=True)
        assert s2.paused
        page.get_by_role("button", name="Resume the board").click()
        expect(page.locator(".msg")).to_have_text("board b02: resume sent")

        def resumed() -> bool:
            b2.play.t += 0.5
            b2.link.after_step(s2, b2.play.t)
            return not s2.paused

        wait_for("the board resumed from the desk", resumed)
        assert s2.clocks.running
