"""What a newcomer and a teacher meet in the page, in Debian's Chromium: New game asks first and
keeps the game, the display's picture follows every moment (a ring's "which way" included), a
wrong move is explained in words, players' names reach the sheet and the PDN, the class
overview follows three boards live, the projector view, practice mode with the capture preview,
chip values that fit their chip, and a phone that shows clocks and turn above the fold.
Screenshots go to tests/artifacts/sim/."""

from __future__ import annotations

import hashlib
import io
import json
import re
import urllib.request

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from controller.rules.damath_data import PLACEMENTS
from drivers.scoresheet import render_page

from .conftest import ARTIFACTS, RunningServer, new_page
from .conftest import open_board as create_or_open
from .test_positions import RING

pytestmark = pytest.mark.browser
SETTLE = 0.25
STEP = 0.5


def square(page: Page, x: int, y: int):
    return page.locator(f'.sq[data-x="{x}"][data-y="{y}"]')


def open_board(page: Page, server: RunningServer, board: str, play: bool = True) -> None:
    """Open the board (created first when it is not there yet, as the arbiter does) and,
    with ``play``, set its chips and let the opening settle."""
    create_or_open(page, server.url, board)
    expect(page.locator("#link")).to_have_text("connected")
    if play:
        page.locator("#arrange").click()
        server.clock.advance(SETTLE)
        expect(page.locator("body")).to_have_attribute("data-phase", "play")


def move(page: Page, server: RunningServer, *clicks: tuple[int, int], ply: int) -> None:
    """Lift, set down (and take off): each click answered before time is let pass."""
    for sq in clicks:
        before = page.locator("#status").inner_text()
        square(page, *sq).click()
        expect(page.locator("#status")).not_to_have_text(before)
    expect(square(page, *clicks[1]).locator(".chip")).to_have_count(1)
    server.clock.advance(STEP)
    expect(page.locator("body")).to_have_attribute("data-ply", str(ply))


def shot(page: Page, name: str, full: bool = True) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


# ---------------------------------------------------------------------------------- New game


def test_new_game_asks_first_and_keeps_the_game_among_the_saved_ones(
    page: Page, saving_server: RunningServer
) -> None:
    server = saving_server
    open_board(page, server, "ng")
    move(page, server, (1, 2), (2, 3), ply=1)
    move(page, server, (2, 5), (1, 4), ply=2)

    page.locator("#open-new-game").click()
    dialog = page.locator("#new-game-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#new-game-warning")).to_contain_text("A game is being played")
    expect(page.locator("#new-game-warning")).to_contain_text("(moves so far: 2)")
    shot(page, "10-new-game-asks", full=False)
    page.locator("#new-game-cancel").click()  # keep playing: nothing happened
    expect(dialog).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-ply", "2")

    page.locator("#open-new-game").click()
    page.locator("#variant").select_option("fraction")
    page.locator("#new-game").click()
    expect(page.locator("body")).to_have_attribute("data-variant", "fraction")
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    expect(page.locator("#game-badge")).to_have_text("Fraction · official rules")

    kept = page.locator("#kept-games li")
    expect(kept).to_have_count(1)
    expect(kept.first).to_contain_text("Integer, Blue v Red, 2 moves")
    sheet = kept.first.locator("a", has_text="scoresheet")
    with page.context.expect_page() as opened:
        sheet.click()
    kept_sheet = opened.value
    expect(kept_sheet.locator("p.result")).to_contain_text("Game in progress after 2 moves")
    kept_sheet.close()
    shot(page, "11-saved-games")


def test_a_second_page_follows_the_variant_chosen_on_the_first(
    browser, page: Page, sim_server: RunningServer
) -> None:
    open_board(page, sim_server, "pair", play=False)
    with new_page(browser, 800, 900) as other:
        open_board(other, sim_server, "pair", play=False)
        expect(other.locator("#game-badge")).to_have_text("Integer · official rules")
        page.locator("#open-new-game").click()
        page.locator("#variant").select_option("radical")
        page.locator("#profile").select_option("online")
        page.locator("#new-game").click()
        expect(other.locator("#game-badge")).to_have_text("Radical · online rules")
        expect(other.locator("#variant")).to_have_value("radical")
        expect(other.locator("#profile")).to_have_value("online")


# ---------------------------------------------------------------------------------- the display


def _shown_picture(page: Page, server: RunningServer) -> tuple[str, Image.Image]:
    """The key of the display picture the page shows, and that picture as the page loaded it."""
    img = page.locator("#oled")
    expect(img).to_have_js_property("complete", True)
    src = img.get_attribute("src") or ""
    # a connection of its own (a kept-alive one the server closes meanwhile resets: seen once
    # on a machine at load 14)
    with urllib.request.urlopen(server.url + src, timeout=60) as answer:
        data = answer.read()
    return src, Image.open(io.BytesIO(data)).convert("L")


def _drawn(lines: list[str]) -> Image.Image:
    image = render_page(lines)
    return image.convert("L").resize((image.width * 3, image.height * 3))


def test_the_display_picture_follows_every_moment_and_asks_which_way(
    page: Page, sim_server: RunningServer
) -> None:
    server = sim_server
    open_board(page, server, "oled")
    first_src, _ = _shown_picture(page, server)
    server.clock.advance(2.0)  # nobody clicks: only the clocks run
    expect(page.locator("#oled")).not_to_have_attribute("src", first_src)
    lines = page.locator("#oled-text").inner_text().split("\n")
    assert lines[1] == "BLUE 19:58 0:58"
    key = hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12]
    src, picture = _shown_picture(page, server)
    assert src.endswith(f"k={key}")
    assert picture.tobytes() == _drawn(lines).tobytes()  # the picture is the lines

    # a ring taken either way round: the question appears on the display by itself
    page.set_input_files(
        "#position-file",
        files=[{"name": "ring.json", "mimeType": "application/json",
                "buffer": json.dumps(RING).encode()}],
    )  # fmt: skip
    expect(page.locator(".sq .chip")).to_have_count(len(RING["pieces"]))
    server.clock.advance(SETTLE)
    expect(page.locator("body")).to_have_attribute("data-phase", "play")
    for sq in ((3, 2), (3, 4), (1, 4), (1, 2), (2, 1), (2, 1)):
        square(page, *sq).click()
    before, _ = _shown_picture(page, server)
    server.clock.advance(STEP)  # the board settles and asks: no click in between
    expect(page.locator("#oled-text")).to_contain_text("Which way? Next/OK")
    expect(page.locator("#oled")).not_to_have_attribute("src", before)
    lines = page.locator("#oled-text").inner_text().split("\n")
    assert lines[1].startswith("  via") and lines[2].startswith("  via")
    _, picture = _shown_picture(page, server)
    assert picture.tobytes() == _drawn(lines).tobytes()
    expect(page.locator("#says")).to_contain_text("Two ways lead here")

    # touching a blinking square chooses that way (no "there is no chip" error)
    square(page, 0, 3).click()
    expect(page.locator("#status")).to_contain_text("You touched (0, 3)")
    expect(page.locator("#oled-text")).to_contain_text("> via 0,3")
    _, picture = _shown_picture(page, server)
    lines = page.locator("#oled-text").inner_text().split("\n")
    assert picture.tobytes() == _drawn(lines).tobytes()
    shot(page, "12-display-which-way", full=False)


# ---------------------------------------------------------------------------------- wrong moves


def test_a_wrong_move_is_explained_in_words_on_the_page_and_the_display(
    page: Page, sim_server: RunningServer
) -> None:
    server = sim_server
    open_board(page, server, "oops")
    says = page.locator("#says")
    square(page, 2, 5).click()  # a red chip, Blue to move
    expect(says).to_have_text(
        "It is BLUE's turn: only blue chips move now. Put the red chip back on (2, 5)."
    )
    expect(page.locator("#oled-text")).to_contain_text("BLUE's turn! Put it")
    expect(page.locator("#tray-red .chip")).to_have_count(0)  # lifted, never put in the tray
    shot(page, "13-wrong-turn", full=False)
    square(page, 2, 5).click()  # put back
    expect(says).to_have_text("")

    square(page, 1, 2).click()
    square(page, 1, 4).click()  # straight up: not diagonal
    # the server has the chip on (1, 4) before its clock moves (clicks travel asynchronously)
    expect(square(page, 1, 4).locator(".chip")).to_have_count(1)
    server.clock.advance(1.2)  # the error delay
    expect(says).to_contain_text("Chips move diagonally")
    expect(page.locator("#oled-text")).to_contain_text("Diagonally only!")
    expect(square(page, 1, 2)).to_have_attribute("data-led", "missing")
    shot(page, "14-wrong-move-explained", full=False)
    square(page, 1, 4).click()
    square(page, 1, 2).click()
    expect(says).to_have_text("")

    move(page, server, (1, 2), (0, 3), ply=1)  # the manual's opening
    move(page, server, (2, 5), (1, 4), ply=2)
    square(page, 5, 2).click()  # Blue must take with (0, 3): another chip may not move
    expect(says).to_contain_text("You must take!")
    expect(says).to_contain_text("The chip on (0, 3) can take")
    square(page, 5, 2).click()
    expect(says).to_have_text("")


# ---------------------------------------------------------------------------------- players


def test_players_names_go_on_the_page_the_display_the_sheet_and_the_pdn(
    page: Page, saving_server: RunningServer
) -> None:
    server = saving_server
    open_board(page, server, "names", play=False)
    expect(page.locator("#roster option")).to_have_count(4)  # the class list to pick from
    form = page.locator("#info-form")
    form.locator('input[name="blue"]').fill("Ana Cruz")
    form.locator('input[name="blue_school"]').fill("Rizal High School")
    form.locator('input[name="red"]').fill("Ben Reyes")
    form.locator('input[name="event"]').fill("Grade 8 Damath club")
    form.locator('input[name="round"]').fill("3")
    form.locator('input[name="table"]').fill("7")
    page.locator("#save-info").click()
    expect(page.locator("#status")).to_have_text("Players and event saved.")
    expect(page.locator("#name-blue")).to_have_text("Ana Cruz (Blue)")
    expect(page.locator("#oled-text")).to_contain_text("Ana v Ben")
    page.locator("#arrange").click()
    server.clock.advance(SETTLE)
    expect(page.locator("#turn")).to_have_text("Ana Cruz (Blue) to move")
    move(page, server, (1, 2), (2, 3), ply=1)
    expect(page.locator("#oled-text")).to_contain_text("Ben ")
    shot(page, "15-players")

    pdn = page.request.get(f"{server.url}/board/names/game.pdn").text()
    for tag in ('[Blue "Ana Cruz"]', '[Red "Ben Reyes"]', '[Event "Grade 8 Damath club"]',
                '[Round "3"]', '[Board "7"]', '[BlueSchool "Rizal High School"]'):  # fmt: skip
        assert tag in pdn
    assert re.search(r'\[Date "\d{4}\.\d\d\.\d\d"\]', pdn)
    with page.context.expect_page() as opened:
        page.locator("#dl-html").click()
    sheet = opened.value
    expect(sheet.locator(".player.blue")).to_contain_text("Ana Cruz")
    expect(sheet.locator(".player.blue")).to_contain_text("Rizal High School")
    expect(sheet.locator(".player.red")).to_contain_text("Ben Reyes")
    expect(sheet.locator(".event")).to_contain_text("Grade 8 Damath club")
    sheet.screenshot(path=str(ARTIFACTS / "16-sheet-with-names.png"), full_page=True)


# ---------------------------------------------------------------------------------- the class


def test_the_class_overview_follows_three_boards_live(
    browser, page: Page, saving_server: RunningServer
) -> None:
    server = saving_server
    with new_page(browser) as b1, new_page(browser) as b2, new_page(browser) as b3:
        open_board(b1, server, "table-1")
        b1.locator('#info-form input[name="blue"]').fill("Ana Cruz")
        b1.locator('#info-form input[name="red"]').fill("Ben Reyes")
        b1.locator("#save-info").click()
        expect(b1.locator("#name-red")).to_have_text("Ben Reyes (Red)")
        move(b1, server, (1, 2), (2, 3), ply=1)
        open_board(b2, server, "table-2")
        b2.locator("#open-new-game").click()
        b2.locator("#variant").select_option("polynomial")
        b2.locator("#new-game").click()
        expect(b2.locator("body")).to_have_attribute("data-variant", "polynomial")
        open_board(b3, server, "table-3")
        move(b3, server, (1, 2), (2, 3), ply=1)
        b3.locator("#btn-hold-pause").click()  # the arbiter stops the game: tally now
        b3.locator("#btn-next").click()
        b3.locator("#btn-confirm").click()
        expect(b3.locator("body")).to_have_attribute("data-phase", "over")

        page.goto(f"{server.url}/class")
        cards = page.locator(".card")
        expect(cards).to_have_count(3)
        one = page.locator('.card[data-board="table-1"]')
        expect(one.locator(".blue")).to_have_text("Ana Cruz")
        expect(one.locator(".red")).to_have_text("Ben Reyes")
        expect(one.locator(".red")).to_have_class(re.compile("to-move"))
        expect(one.locator(".state")).to_contain_text("Ben Reyes to move · 1 move")
        two = page.locator('.card[data-board="table-2"]')
        expect(two.locator(".badge")).to_have_text("Polynomial · official rules")
        three = page.locator('.card[data-board="table-3"]')
        expect(three).to_have_attribute("data-over", "1")
        expect(three.locator(".state")).to_contain_text("Game over:")
        expect(page.locator("#roster-text")).to_contain_text("Ana Cruz, Ben Reyes, Cara Lim")
        shot(page, "17-class-overview")

        move(b1, server, (2, 5), (1, 4), ply=2)  # live: the card follows without a reload
        expect(one.locator(".state")).to_contain_text("Ana Cruz to move · 2 moves")
        expect(one.locator(".blue")).to_have_class(re.compile("to-move"))
        b1.locator("#open-new-game").click()
        b1.locator("#new-game").click()
        expect(b1.locator("body")).to_have_attribute("data-ply", "0")
        one.locator("details.kept summary").click()
        expect(one.locator("details.kept li")).to_have_count(1)
        expect(one.locator("details.kept li")).to_contain_text("Ana Cruz v Ben Reyes, 2 moves")
        pdn_link = one.locator("details.kept li a", has_text="PDN")
        pdn = page.request.get(server.url + (pdn_link.get_attribute("href") or "")).text()
        assert '[Blue "Ana Cruz"]' in pdn

    with new_page(browser, 1920, 1080) as room:
        room.goto(f"{server.url}/board/table-3/projector")
        expect(room.locator(".sq .chip")).to_have_count(24)
        expect(room.locator("#result")).to_contain_text("The game ended: the arbiter stopped")
        box = room.locator("#board").bounding_box()
        assert box is not None and box["height"] >= 780  # most of a 1080-line screen,
        assert box["y"] + box["height"] <= 1080  # and all of the board on it
        size = room.locator("#sheet td").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size >= 28  # a scoresheet line read from the back of a classroom
        chip = room.locator(".sq .chip .val").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert chip >= 30
        room.screenshot(path=str(ARTIFACTS / "18-projector.png"))


# ---------------------------------------------------------------------------------- practice


def test_practice_mode_clocks_off_capture_preview_and_a_players_takeback(
    page: Page, sim_server: RunningServer
) -> None:
    server = sim_server
    open_board(page, server, "practice", play=False)
    page.locator("#open-new-game").click()
    expect(page.locator("#practice-clocks")).to_be_disabled()
    page.locator("#kind-practice").check()
    page.locator("#practice-clocks").select_option("off")
    page.locator("#practice-preview").check()
    page.locator("#practice-takeback").check()
    shot(page, "19-practice-dialog", full=False)
    page.locator("#new-game").click()
    expect(page.locator("#game-badge")).to_have_text("Integer · official rules · practice")
    page.locator("#arrange").click()
    server.clock.advance(SETTLE)
    expect(page.locator("body")).to_have_attribute("data-phase", "play")
    expect(page.locator("#clock-game")).to_have_text("--:--")
    server.clock.advance(600)  # ten minutes of thinking: no clock, no time-out
    expect(page.locator("#clock-move")).to_have_text("--:--")
    expect(page.locator("#buzzer")).not_to_have_attribute("data-cue", "time_up")

    move(page, server, (1, 2), (0, 3), ply=1)  # the manual's opening
    move(page, server, (2, 5), (1, 4), ply=2)
    square(page, 0, 3).click()  # lift the taker: its landing shows what it scores
    target = square(page, 2, 5)
    expect(target).to_have_attribute("data-preview", "-10")  # −9 + (−1) on a + square
    expect(target.locator(".preview")).to_have_text("−10")
    expect(page.locator("#oled-text")).to_contain_text("If you take:")
    expect(page.locator("#oled-text")).to_contain_text("2,5 = -10")
    shot(page, "20-capture-preview", full=False)
    page.locator("#live-preview").uncheck()  # the teacher turns it off
    expect(target).not_to_have_attribute("data-preview", "-10")
    square(page, 0, 3).click()  # put it back

    expect(page.locator("#my-takeback")).to_be_visible()
    page.locator("#my-takeback").click()
    expect(page.locator("body")).to_have_attribute("data-phase", "restore")
    page.locator("#arrange").click()
    server.clock.advance(STEP)
    expect(page.locator("body")).to_have_attribute("data-ply", "1")


# ---------------------------------------------------------------------------------- the chips


CHIP_GEOMETRY = """
(labels) => {
  const slot = document.querySelector('.sq[data-x="1"][data-y="2"] .chip-slot');
  const out = [];
  for (const label of labels) {
    slot.textContent = "";
    const chip = chipEl({ side: "blue", label: label, dama: false }, null);
    slot.append(chip);
    const c = chip.getBoundingClientRect();
    const border = parseFloat(getComputedStyle(chip).borderTopWidth);
    const r = c.width / 2 - border, cx = c.left + c.width / 2, cy = c.top + c.height / 2;
    let worst = 0;
    for (const line of chip.querySelectorAll(".line")) {
      const range = document.createRange();
      range.selectNodeContents(line);
      const b = range.getBoundingClientRect();
      const corners = [[b.left, b.top], [b.right, b.top], [b.left, b.bottom], [b.right, b.bottom]];
      for (const [x, y] of corners) {
        worst = Math.max(worst, Math.hypot(x - cx, y - cy) / r);
      }
    }
    const val = chip.querySelector(".val");
    out.push({ label: label, text: val.textContent, worst: worst,
               font: parseFloat(getComputedStyle(val).fontSize), width: c.width });
  }
  return out;
}
"""


@pytest.mark.parametrize(("width", "height", "smallest"), [(390, 844, 9.0), (1280, 900, 14.0)])
def test_every_value_of_every_variant_fits_inside_its_chip(
    browser, sim_server: RunningServer, width: int, height: int, smallest: float
) -> None:
    labels = sorted({label for values in PLACEMENTS.values() for label in values})
    with new_page(browser, width, height) as pg:
        open_board(pg, sim_server, f"chips{width}", play=False)
        measured = pg.evaluate(CHIP_GEOMETRY, labels)
        for m in measured:
            assert m["worst"] <= 1.0, f"{m['label']} leaves its chip ({m['worst']:.2f} of r)"
            assert m["font"] >= smallest, f"{m['label']}: {m['font']}px at {width}px wide"
            assert m["text"] == m["label"].replace("-", "−").replace("/", ""), m
        if width == 390:
            pg.reload()
            expect(pg.locator("#link")).to_have_text("connected")
            pg.locator("#open-new-game").click()
            pg.locator("#variant").select_option("polynomial")
            pg.locator("#new-game").click()
            expect(pg.locator(".chip .val", has_text="−21xy²")).to_have_count(2)
            pg.locator("#board").screenshot(path=str(ARTIFACTS / "21-phone-polynomial.png"))
            pg.locator("#open-new-game").click()
            pg.locator("#variant").select_option("radical")
            pg.locator("#new-game").click()
            expect(pg.locator(".chip .val", has_text="−121√18")).to_have_count(2)
            pg.locator("#board").screenshot(path=str(ARTIFACTS / "22-phone-radical.png"))


def test_a_phone_shows_clocks_turn_and_the_whole_board_without_scrolling(
    browser, sim_server: RunningServer
) -> None:
    # a small phone's browser window (375 x 667 CSS pixels, less once the address bar shows)
    with new_page(browser, 375, 667) as pg:
        open_board(pg, sim_server, "phone2")
        pg.evaluate("window.scrollTo(0, 0)")  # the page as it opens
        for part in ("#turn", "#clock-game", "#clock-move", "#score-blue", "#score-red", "#board"):
            box = pg.locator(part).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 667, part
        expect(pg.locator("#turn")).to_have_text("Blue to move")
        pg.screenshot(path=str(ARTIFACTS / "23-phone-above-the-fold.png"))


# ---------------------------------------------------------------------------------- printing


def _demo_sheet_html() -> str:
    from controller.cli.demo import load_game_file, players_of, replay
    from controller.scoresheet import build_scoresheet, render_html
    from controller.scoresheet.model import Event

    data = load_game_file(None)
    game = replay(data)
    sheet = build_scoresheet(
        game.played(),
        game.chips(),
        game.variant,
        "official",
        players_of(data),
        event=Event("Division meet", "2", "5", "2026-11-23"),
        ending="BLUE has no chip left",
    )
    return render_html(sheet)


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_the_printed_scoresheet_of_a_normal_game_is_one_a4_page(browser) -> None:
    html = _demo_sheet_html()
    with new_page(browser, 718, 1047) as pg:  # A4 less its 10 mm margins, at 96 dpi
        pg.set_content(html)
        pdf = pg.pdf(format="A4", print_background=True)
        (ARTIFACTS / "24-scoresheet-a4.pdf").write_bytes(pdf)
        assert _pages(pdf) == 1, "the demo game's sheet must print on one A4 page"
        pg.emulate_media(media="print")
        pg.screenshot(path=str(ARTIFACTS / "24-scoresheet-a4.png"), full_page=True)
        height = pg.evaluate("document.body.getBoundingClientRect().height")
        assert height <= 1047
