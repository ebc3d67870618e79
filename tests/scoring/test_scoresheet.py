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
    assert sheet.game.winner == RED and sheet.result_text == "RED wins: 1 point, BLUE 0"


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


def test_terminal_table_puts_blue_and_red_side_by_side():
    text = render_text(manual_opening())
    lines = text.splitlines()
    assert lines[0] == "Integer DAMATH Scoresheet (official)"
    assert lines[1] == "BLUE: Ramon    RED: Lapus"
    assert lines[2].split() == ["Move", "Score", "Total", "│", "Move", "Score", "Total"]
    assert any(line.startswith("-9 + (-1)") and "-10" in line for line in lines)
    assert any("│ 10 + (-9)" in line for line in lines)


def test_html_is_self_contained_and_printable():
    page = render_html(manual_opening())
    assert page.startswith("<!DOCTYPE html>")
    assert "@media print" in page and "@page" in page
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert "Ramon" in page and "ADMU" in page and "Grade/Year" in page
    assert "<td>-5 x 10 = -50 x 2 = -100</td>" in page.replace('<td class="sep">', "<td>")


def test_an_unfinished_game_sheet_stops_at_the_running_totals():
    from controller.rules.game import Game
    from controller.scoresheet import build_scoresheet, render_text, sheet_json

    game = Game.new("integer")
    for path in [[(1, 2), (0, 3)], [(2, 5), (1, 4)], [(0, 3), (2, 5)]]:
        game.push(game.find_move(path))
    sheet = build_scoresheet(game.played(), game.chips(), "integer", finished=False)
    assert {r.kind for r in sheet.rows} == {"move", "take"}
    assert sheet.result_text == "Game in progress: BLUE -10, RED 0"
    assert render_text(sheet).rstrip().endswith("Game in progress: BLUE -10, RED 0")
    data = sheet_json(sheet)
    assert data["finished"] is False and data["winner"] is None
    assert "grand" not in data["players"]["blue"]
