"""Every page of the desk, the walls, the event pages and the board list, in Chromium, at the
screens a hall has (projectors of 1024 × 768, 1280 × 800, 1366 × 768 and 1920 × 1080, a 4:3
classroom screen of 1400 × 1050) and on a 390 px phone (issue 26): a round in full swing (a
result to accept, one corrected, a dispute to rule, a game being played, a table waiting for
its start), and on each page no element's box leaves the screen sideways and no key cell's
text runs out of its box (the boxes checked in the page, ``fits.js``). Screenshots, looked at:
tests/artifacts/hub/screens/<page>-<width>x<height>.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from controller.hub.accounts import Accounts
from controller.tournament import boards as seating
from controller.tournament.damath_scores import parse_score
from controller.tournament.model import Division, Event, GameResult
from controller.tournament.tournament import Tournament
from tests.chromium import SETTLED, browser_scope

from .daykit import PASSWORD, PLAYERS_CSV, fits
from .eventkit import HallBoard, api, round_view, wait_for
from .test_wall_browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [(1024, 768), (1280, 800), (1366, 768), (1920, 1080), (1400, 1050), (390, 844)]
SHOTS = ARTIFACTS / "screens"


@pytest.fixture
def hall_in_play(hub, tmp_path):
    """Round 1 of twelve players on six boards: table 1 to accept, 2 corrected, 3 disputed,
    4 being played, 5 accepted, 6 waiting for its start (its board started late)."""
    hub.start()
    t = Tournament.create(
        hub.folder,
        Event("Division Meet 2026", date="2026-12-05", venue="Rizal HS gym", initial_colour="blue"),
        Division("open", "swiss", 5),
    )
    t.import_players(PLAYERS_CSV)
    accounts = Accounts(hub.folder)
    accounts.add("maria", "organiser", PASSWORD)
    accounts.close()
    halls = {
        b: HallBoard.start(b, hub.add_board(b), tmp_path / b)
        for b in [f"b0{n}" for n in range(1, 7)]
    }
    seating.auto_seats(t, list(halls))
    t.pair(1)
    api(hub, "/api/event/publish", {"round": 1})
    sent = seating.dispatches(t)
    tables = {p.table: (p, halls[sent[p.id].board]) for p in t.pairings("open", 1)}
    for p, b in tables.values():
        b.take_assignment(sent[p.id].assignment)
    api(hub, "/api/event/start", {"round": 1})
    for n, (_p, b) in tables.items():
        if n != 6:
            b.wait_started()
    tables[1][1].play_game("red-big")
    tables[2][1].play_game("draw")
    b3 = tables[3][1]
    b3.play_some(4)
    b3.play.session.press(b3.play.t + 0.2, "red", "hold")
    b3.play.session.press(b3.play.t + 1, "pause")
    b3.arbiter_ends("stop")
    tables[4][1].play_some(7)
    tables[5][1].play_game("blue")
    tables[6][1].play.play_moves([])
    for _p, b in tables.values():
        b.wait_acked()
    wait_for(
        "the boards' results", lambda: sum(bool(r["board_result"]) for r in round_view(hub, 1)) == 4
    )
    api(hub, "/api/event/accept", {"round": 1, "table": 5})
    t.record_result(
        tables[2][0].id,
        GameResult("red", parse_score("-6"), parse_score("-6"), source="arbiter"),
        by="arbiter lina",
        reason="Blue resigned before signing: the arbiter saw it",
    )
    yield hub, t, {n: p.id for n, (p, _b) in tables.items()}
    t.close()
    for b in halls.values():
        b.close()


def test_every_page_fits_every_screen(hall_in_play, browser):
    hub, _t, pairing = hall_in_play
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = [
        ("desk-login", "/desk/login", "anon", "form.login"),
        ("desk-round", "/desk", "org", "table.round"),
        ("desk-standings", "/desk/standings", "org", "table.standings"),
        ("desk-log", "/desk/log", "org", "table.log"),
        ("desk-players", "/desk/players", "org", "table.players"),
        ("desk-boards", "/desk/seats", "org", "table.seats"),
        ("desk-table", f"/desk/table?pairing={pairing[3]}", "org", "table.journal"),
        ("desk-sheet", f"/desk/sheet?pairing={pairing[2]}", "org", ".tournament"),
        ("print-pairings", "/desk/print?what=pairings&round=1", "org", "table"),
        ("print-find-table", "/desk/print?what=find-table&round=1", "org", "table"),
        ("print-teams", "/desk/print?what=teams&round=1", "org", "table"),
        ("event", "/event", "anon", "table.standings"),
        ("event-fil", "/event?lang=fil", "anon", "table.teams"),
        ("wall", "/", "anon", "#wall .card"),
        ("board", "/board/b04", "anon", "#sheet tbody tr"),
        ("boards", "/boards", "anon", "#boards tbody tr"),
    ]
    problems: list[str] = []
    errors: list[str] = []
    with browser_scope(browser):
        viewers = {role: browser.new_context().new_page() for role in ("anon", "org")}
        for page in viewers.values():
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        org = viewers["org"]
        org.goto(hub.url + "/desk")
        org.get_by_label("Name").fill("maria")
        org.get_by_label("Password").fill(PASSWORD)
        org.get_by_role("button", name="Log in").click()
        expect(org.locator("header .who")).to_have_text("maria")
        for name, path, role, ready in pages:  # each page loaded once, shown on each screen
            page = viewers[role]
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            page.goto(hub.url + path)
            expect(page.locator(ready).first).to_be_visible(timeout=15000)
            if name == "event":  # what is true while round 1 is played
                expect(page.locator("section.standings h2")).to_have_text(
                    "Division open · Standings so far: round 1 under way, 2 of 6 results in"
                )
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate(SETTLED)
                page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"), full_page=True)
                got = fits(page)
                if got["doc"] > got["vw"] + 1 or got["wide"] or got["clipped"]:
                    problems.append(f"{name} at {width}x{height}: {got}")
    assert errors == []
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("players", [10, 24, 40])
def test_the_printed_lists_fit_one_a4_page(tmp_path, players, browser):
    """A division of 10 to 40 players: the pairings, the find-your-table list and the schools
    each print on one A4 page (the type gets smaller as the list grows), in Chromium."""
    from controller.tournament.printing import printed

    from .daykit import pdf_pages

    t = Tournament.create(tmp_path / "cup", Event("Division Meet 2026", date="2026-12-05",
                          venue="Rizal High School gymnasium", initial_colour="blue"),
                          Division("open", "swiss", 5))  # fmt: skip
    schools = ["Rizal National High School", "Mabini Integrated School", "Quezon City Science HS"]
    for n in range(players):
        t.add_player(f"Maria Clara de los Santos {n + 1:02d}", school=schools[n % 3],
                     rating=2000 - n, grade="Grade 10")  # fmt: skip
    t.pair(1)
    for p in t.pairings("open", 1):
        if not p.is_bye:
            t.record_result(p.id, GameResult("blue", parse_score("24"), parse_score("-7")))
    with browser_scope(browser):
        page = browser.new_page()
        for what in ("pairings", "find-table", "teams"):
            path = tmp_path / f"{what}.html"
            path.write_text(printed(t, what, "open", 1), encoding="utf-8")
            page.goto(path.as_uri())
            pages = pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
            assert pages == 1, (what, players, pages)
    t.close()
