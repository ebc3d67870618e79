"""The desk and the event wall in Debian's Chromium, as the organiser and the arbiter use them:
seat the boards, pair and send a round, watch the boards confirm and play, accept the boards'
results, correct one with a reason; the wall shows the standings; a spectator without a login
reaches no desk page. Screenshots go to tests/artifacts/hub/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from controller.hub.accounts import Accounts
from controller.tournament import boards as seating
from controller.tournament.tournament import Tournament
from tests.chromium import browser_scope

from .eventkit import HallBoard
from .test_wall_browser import ARTIFACTS

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"
KINDS = ["blue", "draw", "red", "red-big"]


def csp_refusal(message, errors: list[str]) -> None:
    """Chromium says on the console what the Content-Security-Policy refused."""
    if "Content Security Policy" in message.text:
        errors.append(message.text)


def login(page, url: str, name: str) -> None:
    page.goto(url + "/desk")
    expect(page).to_have_url(url + "/desk/login?next=%2Fdesk")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text(name)


def test_organiser_and_arbiter_run_a_round_at_the_desk(hub, tmp_path, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    accounts = Accounts(hub.folder)
    accounts.add("org", "organiser", PASSWORD)
    accounts.add("lina", "arbiter", PASSWORD)
    accounts.close()
    hub.start()
    boards = {
        b: HallBoard.start(b, hub.add_board(b), tmp_path / b) for b in ("b01", "b02", "b03", "b04")
    }
    t = None
    try:
        with browser_scope(browser):
            errors: list[str] = []
            org = browser.new_context(viewport={"width": 1500, "height": 900}).new_page()
            org.on("pageerror", lambda exc: errors.append(str(exc)))
            org.on("console", lambda m: csp_refusal(m, errors))
            login(org, hub.url, "org")
            # an empty event directory: the organiser creates the event and enters the players
            org.get_by_label("Event").fill("Division Meet 2026")
            org.get_by_label("Venue").fill("Rizal HS gym")
            org.get_by_label("Rounds").fill("3")
            org.get_by_label("pairing number 1 in round 1 plays").select_option("blue")
            org.get_by_role("button", name="Create the event").click()
            expect(org.locator(".msg")).to_contain_text("plays Blue in round 1")
            org.get_by_text("Import a list").click()
            org.locator("textarea[name=csv]").fill(
                "name,school\nMaria Santos,Rizal HS\nJose Reyes,Rizal HS\nAna Cruz,Rizal HS\n"
                "Ben Lim,Rizal HS\nCarla Diaz,Rizal HS\nDan Uy,Rizal HS\nEva Go,Rizal HS\n"
            )
            org.get_by_role("button", name="Import").click()
            expect(org.locator(".msg")).to_have_text("7 player(s) added")
            add = org.locator("section.head")  # the add form (each row has its own Edit…)
            add.get_by_label("Name", exact=True).fill("Fe Tan")
            add.get_by_label("School", exact=True).fill("Rizal HS")
            org.get_by_role("button", name="Add player").click()
            expect(org.locator(".msg")).to_have_text("Fe Tan added (number 8)")
            expect(org.locator("table.players tbody tr")).to_have_count(8)
            org.screenshot(path=str(ARTIFACTS / "desk-players.png"), full_page=True)
            t = Tournament.open(hub.folder)
            org.get_by_role("link", name="Boards").click()
            org.get_by_role("button", name="Give every table without a board").click()
            expect(org.locator(".msg")).to_have_text("every table has a board")
            expect(org.get_by_label("board at table 4")).to_have_value("b04")
            org.get_by_role("link", name="Round").click()
            org.get_by_role("button", name="Pair round 1").click()
            expect(org.locator(".msg")).to_contain_text("round 1 paired")
            rows = org.locator("table.round tbody tr")
            expect(rows).to_have_count(4)
            expect(rows.first).to_contain_text("Maria Santos")
            expect(rows.first).to_contain_text("not sent")
            org.get_by_role("button", name="Send round 1 to the boards").click()
            expect(org.locator(".msg")).to_have_text("round sent to 4 board(s)")
            # the boards hold their tables: the page follows by itself (it polls the round)
            expect(org.locator(".st.received")).to_have_count(4, timeout=20000)
            org.screenshot(path=str(ARTIFACTS / "desk-round-sent.png"), full_page=True)
            sent = seating.dispatches(t)
            first_pairing = t.pairings("open", 1)[0].id
            for pairing in t.pairings("open", 1):
                boards[sent[pairing.id].board].take_assignment(sent[pairing.id].assignment)
            # the clocks wait for the arbiter's start, the whole hall at once
            org.get_by_role("button", name="Start round 1").click()
            expect(org.locator(".msg")).to_have_text(
                "round started: 4 board(s) told to start their clocks"
            )
            expect(org.locator(".started")).to_contain_text("Round 1 started")
            for pairing in t.pairings("open", 1):
                d = sent[pairing.id]
                boards[d.board].wait_started()
                boards[d.board].play_game(KINDS[pairing.table - 1])
            for b in boards.values():
                b.wait_acked()
            expect(org.locator(".st.to-accept")).to_have_count(4, timeout=20000)
            first = rows.first
            expect(first).to_contain_text("Blue wins -5 : 6")
            org.screenshot(path=str(ARTIFACTS / "desk-results-to-accept.png"), full_page=True)
            org.get_by_role("button", name="Accept every finished board game").click()
            expect(org.locator(".msg")).to_have_text("4 result(s) accepted")
            expect(org.locator(".st.accepted")).to_have_count(4)
            # the printed scoresheet carries its own style sheet: the CSP allows it by its hash
            sheet = org.context.new_page()
            sheet.on("console", lambda m: csp_refusal(m, errors))
            sheet.goto(f"{hub.url}/desk/sheet?pairing={first_pairing}")
            expect(sheet.locator("table").first).to_be_visible()
            assert (
                sheet.evaluate("getComputedStyle(document.querySelector('table')).borderCollapse")
                == "collapse"
            )
            sheet.close()

            # the arbiter corrects table 2 (a draw on the board) with a reason
            arb = browser.new_context(viewport={"width": 1500, "height": 900}).new_page()
            arb.on("pageerror", lambda exc: errors.append(str(exc)))
            arb.on("console", lambda m: csp_refusal(m, errors))
            login(arb, hub.url, "lina")
            expect(arb.get_by_role("button", name="Pair round 2")).to_have_count(0)
            row2 = arb.locator("table.round tbody tr").nth(1)
            row2.get_by_text("Record or correct").click()
            row2.get_by_label("result").select_option("red")
            row2.get_by_label("Blue", exact=True).fill("-6")
            row2.get_by_label("Red", exact=True).fill("-6")
            row2.get_by_label("Reason").first.fill("Blue resigned before signing: arbiter saw it")
            row2.get_by_label("arbiter's decision against the scores").check()
            row2.get_by_role("button", name="Save").click()
            expect(arb.locator(".msg")).to_have_text("recorded: Red wins")
            row2 = arb.locator("table.round tbody tr").nth(1)
            expect(row2.locator(".st")).to_have_text("differs from the board")
            expect(row2).to_contain_text("arbiter, arbiter lina: Blue resigned before signing")
            arb.screenshot(path=str(ARTIFACTS / "desk-corrected.png"), full_page=True)

            # the wall: no login, standings and pairings, large
            wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            wall.goto(hub.url + "/event")
            expect(wall.locator("h1")).to_have_text("Division Meet 2026")
            standings = wall.locator("table.standings tbody tr")
            expect(standings).to_have_count(8)
            top = standings.first.locator("td")
            expect(top.nth(2)).to_have_text("Ben Lim")  # won 20:-3 with Red: +23
            expect(wall.locator("table.pairings tbody tr").nth(1)).to_contain_text("Red wins")
            assert wall.locator("form").count() == 0
            wall.screenshot(path=str(ARTIFACTS / "event-wall.png"))

            # a spectator: every desk page sends to the login, nothing is shown
            for path in ("/desk", "/desk/seats", "/desk/log", "/desk/standings"):
                wall.goto(hub.url + path)
                expect(wall.get_by_role("button", name="Log in")).to_be_visible()
                assert "Maria" not in wall.content()
            assert errors == []
    finally:
        if t is not None:
            t.close()
        for b in boards.values():
            b.close()
