"""A whole tournament day as the organiser's guide tells it (docs/guide-organiser.md, issue 26),
from an empty folder, in Debian's Chromium, through a real Mosquitto and the real hub: the
guide's own commands (event, logins, twenty boards and a spare), the players pasted from a
school's CSV and a misspelt name corrected at the desk, the boards seated, round 1 paired,
printed (pairings and find-your-table, one A4 page each) and sent; the boards hold their clocks
at full time however long the hall takes, until the arbiter's start; the games played on the
boards; a dispute ruled by upholding the board's result; a result corrected with its reason,
and that correction on the reprinted scoresheet, in the table's PDN and in the archive; the
schools' ranking printed; round 2 paired and sent; the spare board retired. Screenshots go to
tests/artifacts/hub/day-*.png."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from controller.tournament import boards as seating
from controller.tournament.tournament import Tournament
from tests.chromium import browser_scope

from .daykit import PASSWORD, PLAYERS_CSV, guide_commands, pdf_pages, run_guide_line
from .eventkit import MOVES, HallBoard
from .test_desk_browser import csp_refusal
from .test_wall_browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# the game each table of round 1 plays (eventkit.GAMES): table 2 draws on the board and the
# arbiter corrects it; table 3's Red disputes during the game and the board's result stands
ROUND1 = {1: "blue", 2: "draw", 3: "red", 4: "red-big", 5: "blue", 6: "red"}
FULL = 20 * 60


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"day-{name}.png"), full_page=True)


def login(page, url: str, name: str) -> None:
    page.goto(url + "/desk")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text(name)


def printed_pages(context, url: str, path: str, name: str) -> int:
    """A printed list opened as the desk's link does, looked at, and printed to A4."""
    page = context.new_page()
    page.goto(url + path)
    page.screenshot(path=str(ARTIFACTS / f"day-print-{name}.png"), full_page=True)
    pages = pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
    page.close()
    return pages


def row(page, table: int):
    return page.locator("table.round tbody tr").nth(table - 1)


def test_a_tournament_day_as_the_organisers_guide_tells_it(hub, tmp_path, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    folder = hub.folder
    # -- a week before: the guide's own commands, as written ---------------------------------
    week = guide_commands("A week before")
    assert any("seq -f 'b%02g' 1 20" in x for x in week), week  # b01 … b20, never b1
    for line in week:
        run_guide_line(line, folder, hub.mqtt_port)
    boards_made = sorted(p.stem for p in (folder / "boards").glob("*.toml"))
    assert boards_made == [f"b{n:02d}" for n in range(1, 22)]
    hub.start()
    log = (folder / "hub.log").read_text()
    assert f"desk        http://127.0.0.1:{hub.http_port}/desk" in log, log[-1500:]
    halls = {
        b: HallBoard.start(b, folder / "boards" / f"{b}.toml", tmp_path / "boards" / b)
        for b in ("b01", "b02", "b03", "b04", "b05", "b06")
    }
    t = Tournament.open(folder)
    errors: list[str] = []
    try:
        with browser_scope(browser):
            org_context = browser.new_context(viewport={"width": 1366, "height": 768})
            org = org_context.new_page()
            org.on("pageerror", lambda exc: errors.append(str(exc)))
            org.on("console", lambda m: csp_refusal(m, errors))
            login(org, hub.url, "maria")

            # -- the day before: the players from the schools' CSV, a name corrected ------
            org.get_by_role("link", name="Players").click()
            org.get_by_text("Import a list").click()
            org.locator("textarea[name=csv]").fill(PLAYERS_CSV)
            org.get_by_role("button", name="Import").click()
            expect(org.locator(".msg")).to_have_text("12 player(s) added")
            reyez = org.locator("table.players tbody tr", has_text="Paolo Reyez")
            reyez.get_by_text("Edit…").click()
            edit = reyez.locator("form[action='/desk/player-edit']")
            edit.get_by_label("Name").fill("Paolo Reyes")
            edit.get_by_label("Reason").fill("misspelt on the school's list")
            edit.get_by_role("button", name="Save").click()
            expect(org.locator(".msg")).to_contain_text("player 4 is now Paolo Reyes")
            expect(org.locator("table.players")).to_contain_text("Grade 9")
            shot(org, "players")
            edits = [x for x in t.log() if x["action"] == "player-edit"]
            assert edits[0]["detail"]["name"] == {"before": "Paolo Reyez", "after": "Paolo Reyes"}

            org.get_by_role("link", name="Boards").first.click()
            org.get_by_role("button", name="Give every table without a board").click()
            expect(org.locator(".msg")).to_have_text("every table has a board")
            expect(org.get_by_label("board at table 6")).to_have_value("b06")

            # -- round 1: paired, printed, sent; the clocks wait for the start ----------------
            org.get_by_role("link", name="Round").click()
            steps = org.locator("ol.actions li.step")
            expect(steps).to_have_count(1)
            org.get_by_role("button", name="Pair round 1").click()
            expect(org.locator(".msg")).to_contain_text("round 1 paired")
            expect(org.locator("table.round tbody tr")).to_have_count(6)
            expect(org.locator("table.round thead th")).to_have_text(
                ["Table", "Blue", "Red", "Board", "State", "On the board now", "Board's result",
                 "Result for the tournament", ""]
            )  # fmt: skip
            # the day's order: send first; pairing round 2 waits for round 1's results
            expect(steps.first).to_contain_text("Send round 1 to the boards")
            expect(steps.last).to_contain_text("Pair round 2: once every table")
            assert printed_pages(org_context, hub.url, "/desk/print?what=pairings&round=1",
                                 "pairings") == 1  # fmt: skip
            assert printed_pages(org_context, hub.url, "/desk/print?what=find-table&round=1",
                                 "find-table") == 1  # fmt: skip
            printed_pages(org_context, hub.url, "/desk/print?what=find-table&round=1&lang=fil",
                          "find-table-fil")  # fmt: skip
            org.get_by_role("button", name="Send round 1 to the boards").click()
            expect(org.locator(".msg")).to_have_text("round sent to 6 board(s)")
            expect(org.locator(".st.received")).to_have_count(6, timeout=20000)
            sent = seating.dispatches(t)
            pairings = {q.table: q for q in t.pairings("open", 1)}
            board_of = {n: halls[sent[q.id].board] for n, q in pairings.items()}
            for table, q in pairings.items():
                b = board_of[table]
                b.take_assignment(sent[q.id].assignment)
                b.play.play_moves([])  # the chips set up on the board
                b.play.advance(300, step=5)  # five minutes while the hall settles: nothing runs
                b.step()
                s = b.play.session
                assert s.state.held == "desk" and not s.clocks.running
                reading = s.clocks.reading(b.play.t)
                assert (reading.game_left, reading.move_left) == (FULL, 60), b.board
                assert s.info["event"] == "Division Meet 2026" and s.info["date"] == "2026-12-05"
            # a move before the start is not played: the board asks for the chip back
            early = board_of[1].play
            early.play_moves(MOVES[:1])
            assert early.session.game.ply == 0
            early.restore()
            wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            wall.on("pageerror", lambda exc: errors.append(str(exc)))
            wall.goto(hub.url + "/")
            cards = wall.locator("#wall .card")
            expect(cards).to_have_count(6, timeout=15000)  # of 21 boards: the round's tables
            expect(cards.first.locator(".title")).to_have_text("Table 1 · b01")
            expect(cards.first.locator(".pill")).to_have_text("WAITING", timeout=15000)
            expect(cards.first.locator(".game")).to_have_text("20:00")
            shot(wall, "wall-waiting")

            # -- the start: the whole hall at once ------------------------------------------
            org.get_by_role("button", name="Start round 1").click()
            expect(org.locator(".msg")).to_have_text(
                "round started: 6 board(s) told to start their clocks"
            )
            for b in board_of.values():
                b.wait_started()
                assert b.play.session.clocks.running
            expect(cards.first.locator(".pill")).not_to_have_text("WAITING", timeout=15000)

            # -- the games; table 3's Red disputes Blue's move during the game ---------------
            for table, kind in ROUND1.items():
                b = board_of[table]
                if table == 3:
                    b.play_some(4)
                    b.play.session.press(b.play.t + 0.2, "red", "hold")
                    assert b.play.session.paused and "RED disputes" in b.play.session.message
                    b.play.session.press(b.play.t + 1.0, "pause")  # the arbiter: play on
                    b.play.t += 1.0
                    b.play.play_moves(MOVES[4:10])
                    b.arbiter_ends("stop")
                else:
                    b.play_game(kind)
            for b in board_of.values():
                b.wait_acked()
            expect(org.locator(".st.to-accept")).to_have_count(5, timeout=20000)
            expect(row(org, 3).locator(".st")).to_have_text("dispute: see the evidence")
            expect(row(org, 4).locator(".live")).to_have_text("Finished after 6 moves")
            # the board's result: its reason on a line, the PDN link on the next (no stray "·")
            expect(row(org, 2).locator("td:nth-child(7) small")).to_have_text(
                ["the arbiter stopped the game", "PDN"]
            )
            shot(org, "round1-finished")

            # -- the dispute ruled: the board's result stands, nothing typed again ----------
            row(org, 3).get_by_label("Note").fill("the touch was an adjustment, said so first")
            row(org, 3).get_by_role("button", name="Uphold the board's result").click()
            expect(org.locator(".msg")).to_have_text(
                "the dispute is ruled: the board's result stands (Red wins)"
            )
            expect(row(org, 3).locator(".st")).to_have_text("accepted")
            expect(row(org, 3)).to_contain_text("dispute ruled: the board's result stands")
            assert any(x["action"] == "dispute-ruling" for x in t.log())

            # -- a correction: table 2's draw on the board, Red's win by the arbiter ---------
            r2 = row(org, 2)
            r2.get_by_text("Record or correct").click()
            r2.get_by_label("result").select_option("red")
            r2.get_by_label("Blue", exact=True).fill("-6")
            r2.get_by_label("Red", exact=True).fill("-6")
            r2.get_by_label("Reason").first.fill("Blue resigned before signing: the arbiter saw it")
            r2.get_by_role("button", name="Save").click()
            expect(org.locator(".err")).to_contain_text(
                "an arbiter's decision against the scores: tick"
            )  # the desk names its own checkbox, not a command-line flag
            r2 = row(org, 2)
            r2.get_by_text("Record or correct").click()
            r2.get_by_label("result").select_option("red")
            r2.get_by_label("Reason").first.fill("Blue resigned before signing: the arbiter saw it")
            r2.get_by_label("arbiter's decision against the scores").check()
            r2.get_by_role("button", name="Save").click()
            expect(org.locator(".msg")).to_have_text("recorded: Red wins")
            expect(row(org, 2).locator(".st")).to_have_text("differs from the board")
            org.get_by_role("button", name="Accept every finished board game").click()
            expect(org.locator(".msg")).to_have_text("4 result(s) accepted")
            shot(org, "round1-results")

            # -- the reprinted sheet, the table's PDN, the archive: the correction -----------
            p2 = pairings[2]
            sheet = org_context.new_page()
            sheet.on("console", lambda m: csp_refusal(m, errors))
            sheet.goto(f"{hub.url}/desk/sheet?pairing={p2.id}")
            box = sheet.locator(".tournament")
            expect(box).to_contain_text("Result for the tournament: Red wins −6 : −6")
            expect(box).to_contain_text("Blue resigned before signing")
            expect(box).to_contain_text("The board recorded: Draw −6 : −6")
            # the board's own verdict below the box is named as the board's, never bare
            expect(sheet.locator(".result")).to_have_text("At the board: Draw: ½ point each.")
            expect(sheet.locator(".event")).to_contain_text("Division Meet 2026")
            expect(sheet.locator(".event")).to_contain_text("2026-12-05")
            sheet.screenshot(path=str(ARTIFACTS / "day-sheet-corrected.png"), full_page=True)
            sheet.close()
            pdn = org.request.get(f"{hub.url}/desk/pdn?pairing={p2.id}").text()
            assert '[Result "0-1"]' in pdn and '[BoardResult "1/2-1/2"]' in pdn, pdn[:600]
            assert '[Event "Division Meet 2026"]' in pdn and '[Date "2026.12.05"]' in pdn
            assert pdn.rstrip().endswith("0-1") and "Blue resigned before signing" in pdn
            with org.expect_download() as download:
                org.get_by_role("link", name="Archive").click()
            z = zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes()))
            root = "Division-Meet-2026/open"
            sheets = z.read(f"{root}/round-1/scoresheets.html").decode()
            assert "Result for the tournament: Red wins −6 : −6" in sheets
            assert "At the board: Draw: ½ point each." in sheets
            assert sheets.count("Division Meet 2026") >= 6  # the event's name on every sheet
            (table2,) = [n for n in z.namelist() if "/round-1/table-2_" in n]
            assert '[Result "0-1"]' in z.read(table2).decode()
            assert "Rizal HS" in z.read(f"{root}/teams.csv").decode()

            # -- the hall's screen: what is true, and what the columns mean -----------------
            wall.goto(hub.url + "/event")
            expect(wall.locator("section.standings h2")).to_have_text(
                "Division open · Standings after round 1"
            )
            expect(wall.locator("section.standings .legend")).to_contain_text(
                "BuchC1: Buchholz cut 1"
            )
            expect(wall.locator("table.teams tbody tr")).to_have_count(4)
            shot(wall, "event-wall")
            assert printed_pages(org_context, hub.url, "/desk/print?what=teams&round=1",
                                 "teams") == 1  # fmt: skip

            # -- round 2 paired and sent -----------------------------------------------------
            org.goto(hub.url + "/desk")
            expect(steps.last).to_contain_text("Pair round 2")
            org.get_by_role("button", name="Pair round 2").click()
            expect(org.locator(".msg")).to_contain_text("round 2 paired")
            org.get_by_role("button", name="Send round 2 to the boards").click()
            expect(org.locator(".msg")).to_have_text("round sent to 6 board(s)")
            shot(org, "round2-sent")

            # -- the spare that stayed home is retired ---------------------------------------
            boards_page = org_context.new_page()
            boards_page.goto(hub.url + "/boards")
            expect(boards_page.locator("#boards tbody tr")).to_have_count(21)
            out = run_guide_line("$H board-remove b21 --dir ~/events/meet", folder, hub.mqtt_port)
            assert "board b21 removed" in out.stdout
            boards_page.reload()
            expect(boards_page.locator("#boards tbody tr")).to_have_count(20)
            # a board id, not a random game id that happens to hold the letters (…-b21331)
            assert not re.search(r"\bb21\b", boards_page.locator("#boards tbody").inner_text())
            users = [
                line.split(":")[0]
                for line in (folder / "broker" / "passwd").read_text().splitlines()
            ]
            assert "b21" not in users
            boards_page.screenshot(path=str(ARTIFACTS / "day-boards.png"), full_page=True)
            wall.goto(hub.url + "/")
            expect(cards).to_have_count(6)
            expect(wall.locator("#count")).to_contain_text("6 tables of round 2")
            shot(wall, "wall-round2")
        assert errors == []
    finally:
        t.close()
        for b in halls.values():
            b.close()


def test_the_guides_board_names_keep_two_digits_however_few_boards():
    """A small school shortens the loop to 5 boards: still b01 … b05 (``seq -w 1 5`` made
    b1 … b5, which the desk then seats out of order next to b10)."""
    import subprocess

    (loop,) = [x for x in guide_commands("A week before") if x.startswith("for ")]
    short = loop.replace(" 1 20)", " 1 5)").replace("$H board-add $b --dir ~/events/meet "
                                                   "--host 192.168.50.10", "echo $b")  # fmt: skip
    out = subprocess.run(["bash", "-c", short], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["b01", "b02", "b03", "b04", "b05"]
    assert not re.search(r"seq -w", Path(__file__).parents[2].joinpath(
        "docs", "guide-organiser.md").read_text())  # fmt: skip
