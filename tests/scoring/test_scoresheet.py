"""The scoresheet model and its renderings, from hand-built moves (no game object needed)."""

import csv
import io
import json

from controller.audit import audit_text
from controller.rules.move import BLUE, RED
from controller.scoresheet import (
    CSV_HEADER,
    Player,
    build_scoresheet,
    render_csv,
    render_html,
    render_json,
    render_text,
)

from .helpers import chip, plain_move, take_move, taking


def manual_opening():
    """The manual's integer sheet, first four entries: -9 (0, 3), -1 (1, 4), -9 + (-1),
    10 + (-9); then a dama taking, so a multiplier is written."""
    v = "integer"
    played = [
        (BLUE, plain_move(v, "-9", (1, 2), (0, 3))),
        (RED, plain_move(v, "-1", (2, 5), (1, 4), RED)),
        (BLUE, take_move(v, BLUE, [taking(v, "-9", "-1", (2, 5))], (0, 3))),
        (RED, take_move(v, RED, [taking(v, "10", "-9", (1, 4), side=RED)], (3, 6))),
        (BLUE, take_move(v, BLUE, [taking(v, "-5", "10", (4, 1), taker_dama=True)], (2, 3))),
    ]
    chips = {(1, 0): chip("-5", v), (3, 4): chip("-11", v, dama=True), (6, 7): chip("2", v, RED)}
    players = (Player("Ramon", "JGMNHS", "8"), Player("Lapus", "ADMU", "9"))
    return build_scoresheet(played, chips, v, "official", players)


def test_rows_are_written_as_the_manual_writes_them():
    sheet = manual_opening()
    rows = [(r.player_name, r.kind, r.entry, r.score, r.total) for r in sheet.rows]
    assert rows == [
        ("BLUE", "move", "-9 (0, 3)", "", ""),
        ("RED", "move", "-1 (1, 4)", "", ""),
        ("BLUE", "take", "-9 + (-1)", "-10", "-10"),
        ("RED", "take", "10 + (-9)", "1", "1"),
        ("BLUE", "take", "-5 x 10 = -50 x 2 = -100", "-100", "-110"),
        ("BLUE", "rc", "RC -5", "-5", ""),
        ("BLUE", "rc", "RC -11 x 2", "-22", ""),
        ("BLUE", "total", "Total", "", "-27"),
        ("BLUE", "grand", "Grand Total", "", "-137"),
        ("RED", "rc", "RC 2", "2", ""),
        ("RED", "total", "Total", "", "2"),
        ("RED", "grand", "Grand Total", "", "3"),
    ]
    assert sheet.game.winner == RED and sheet.result_text == "RED wins: 1 point, BLUE 0."


def test_csv_is_the_audit_format_and_passes_the_audit():
    sheet = manual_opening()
    text = render_csv(sheet)
    table = list(csv.reader(io.StringIO(text)))
    assert tuple(table[0]) == CSV_HEADER
    assert table[3] == ["BLUE", "take", "-9 + (-1)", "-10", "-10", "(2,5)"]
    assert audit_text(text, "integer", "official").errors == 0


def test_json_carries_rows_totals_and_result():
    data = json.loads(render_json(manual_opening()))
    assert data["players"]["blue"] == {
        "name": "Ramon", "school": "JGMNHS", "grade": "8", "total": "-110", "rc": "-27",
        "grand": "-137", "grand_value": -137.0, "points": 0.0,
    }  # fmt: skip
    assert data["winner"] == "red" and data["rows"][0]["square"] == [0, 3]


def test_terminal_table_puts_each_move_on_one_line_blue_beside_red():
    text = render_text(manual_opening())
    lines = text.splitlines()
    assert lines[0] == "Integer DAMATH Scoresheet (official)"
    assert lines[1] == "Player BLUE: Ramon, JGMNHS, 8"
    assert lines[2] == "Player RED: Lapus, ADMU, 9"
    assert lines[3].split() == ["No.", "Move", "Score", "Total", "│", "Move", "Score", "Total"]
    body = lines[5:]
    # move 1: Blue's -9 (0, 3) and Red's reply on the same line, as on the paper sheet
    assert body[0].split() == ["1", "−9", "(0,", "3)", "│", "−1", "(1,", "4)"]
    assert body[1].split()[:8] == ["2", "−9", "+", "(−1)", "at", "(2,", "5)", "−10"]
    assert "│ 10 + (−9) at (1, 4)" in body[1]
    assert body[2].split()[:2] == ["3", "−5"] and "−5 × 10 = −50 × 2 = −100" in body[2]
    labels = [line.split("│")[0].strip() for line in body]
    assert any(label.startswith("RC total") for label in labels)
    assert any(label.startswith("Grand total") for label in labels)
    assert lines[-1] == "RED wins: 1 point, BLUE 0."
    assert "BLUE: BLUE" not in text


def test_a_sheet_without_names_does_not_invent_them():
    v = "integer"
    sheet = build_scoresheet([(BLUE, plain_move(v, "-9", (1, 2), (0, 3)))], {}, v)
    assert "Player BLUE" not in render_text(sheet) and "BLUE: BLUE" not in render_text(sheet)


def test_html_is_the_manuals_sheet_self_contained_and_printable():
    from controller.scoresheet.model import Event

    blank = build_scoresheet([], {}, "integer", finished=False)  # a sheet to fill in by hand
    assert "<table" in render_html(blank) and "no move yet" in render_html(blank)
    v = "integer"
    played = [
        (BLUE, plain_move(v, "-9", (1, 2), (0, 3))),
        (RED, plain_move(v, "-1", (2, 5), (1, 4), RED)),
        (BLUE, take_move(v, BLUE, [taking(v, "-9", "-1", (2, 5))], (0, 3))),
        (RED, take_move(v, RED, [taking(v, "10", "-9", (1, 4), side=RED)], (3, 6))),
        (BLUE, take_move(v, BLUE, [taking(v, "-5", "10", (4, 1), taker_dama=True)], (2, 3))),
    ]
    chips = {(1, 0): chip("-5", v), (3, 4): chip("-11", v, dama=True), (6, 7): chip("2", v, RED)}
    sheet = build_scoresheet(
        played,
        chips,
        v,
        "official",
        (Player("Ramon", "JGMNHS", "8"), Player("Lapus", "ADMU", "9")),
        event=Event("Division meet", "3", "7", "2026-11-23"),
        ending="RED has no chip left",
    )
    page = render_html(sheet)
    assert page.startswith("<!DOCTYPE html>")
    assert "@media print" in page and "@page" in page and "A4" in page
    assert "http://" not in page and "https://" not in page and "<script" not in page
    for text in ("Ramon", "ADMU", "Grade/Year", "Division meet", "2026-11-23"):
        assert text in page
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")
    # one line per move: Blue's taking and Red's reply in the same row, with the squares
    assert '−9 + (−1) <span class="at">at (2, 5)</span>' in rows[1]
    assert '10 + (−9) <span class="at">at (1, 4)</span>' in rows[1]
    assert "−5 × 10 = −50 × 2 = −100" in rows[2]
    assert " x " not in page.split("<tbody>")[1].split("</tbody>")[0]
    assert "RC total" in page and "Takings total" in page and "Grand total" in page
    assert "RED wins: 1 point, BLUE 0." in page
    assert "The game ended: RED has no chip left." in page


def test_every_rounded_result_is_written_as_a_decimal_like_a_calculator():
    from controller.scoresheet.layout import typeset

    assert typeset("-1 ÷ (-9) = 1/9 ≈ 0") == "−1 ÷ (−9) = 0.11… ≈ 0"
    assert typeset("-11 ÷ 8 = -1.38 ≈ -1") == "−11 ÷ 8 = −1.38 ≈ −1"
    assert typeset("7 ÷ 3 = 7/3 ≈ 2") == "7 ÷ 3 = 2.33… ≈ 2"
    assert typeset("-7 ÷ 2 = -3.5 ≈ -4 x 2 = -8") == "−7 ÷ 2 = −3.5 ≈ −4 × 2 = −8"
    assert typeset("6x x 2") == "6x × 2"  # the x of a polynomial stays a letter
    assert typeset("(-3x²y)(-xy²)") == "(−3x²y)(−xy²)"


def test_an_unfinished_game_sheet_stops_at_the_running_totals():
    from controller.rules.game import Game
    from controller.scoresheet import build_scoresheet, render_text, sheet_json

    game = Game.new("integer")
    for path in [[(1, 2), (0, 3)], [(2, 5), (1, 4)], [(0, 3), (2, 5)]]:
        game.push(game.find_move(path))
    sheet = build_scoresheet(game.played(), game.chips(), "integer", finished=False)
    assert {r.kind for r in sheet.rows} == {"move", "take"}
    assert sheet.result_text.startswith("Game in progress after 3 moves: BLUE −10, RED 0.")
    assert "wins" not in render_text(sheet) and "Grand total" not in render_text(sheet)
    page = render_html(sheet)
    assert '<p class="result">Game in progress' in page and "wins: 1 point" not in page
    data = sheet_json(sheet)
    assert data["finished"] is False and data["winner"] is None
    assert "grand" not in data["players"]["blue"]


def test_a_forfeit_gives_the_point_whatever_the_totals():
    v = "integer"
    played = [(BLUE, take_move(v, BLUE, [taking(v, "10", "9", (2, 1))], (0, 3)))]  # Blue +19
    sheet = build_scoresheet(played, {}, v, forfeit_by=BLUE, ending="BLUE resigned")
    assert sheet.game.winner == BLUE and sheet.winner == RED
    assert sheet.result_text == "RED wins: 1 point, BLUE 0."


def test_a_tournament_sheet_carries_each_players_federation_id_when_they_have_one():
    """A federation's event prints the players' IDs on every sheet (docs/federation.md); a
    sheet without them is unchanged."""
    import dataclasses

    sheet = manual_opening()
    plain = render_html(sheet)
    assert "Federation ID" not in plain
    blue, red = sheet.players
    with_ids = dataclasses.replace(
        sheet, players=(dataclasses.replace(blue, fed_id="1000017"), red)
    )
    page = render_html(with_ids)
    assert page.count("Federation ID") == 1 and ">1000017<" in page
    assert "Ramon, JGMNHS, 8, 1000017" in render_text(with_ids)
