"""``damath-board demo``: the bundled game replays legally and its sheet passes the audit."""

from __future__ import annotations

import json

import pytest

from controller.cli import main


def test_demo_prints_the_scoresheet_and_the_result(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "Integer DAMATH Scoresheet" in out
    assert "Game over: Blue has no chip left." in out
    assert out.rstrip().endswith("RED wins: 1 point, BLUE 0")


def test_demo_sheet_passes_the_audit(tmp_path, capsys):
    assert main(["demo", "--format", "csv"]) == 0
    sheet = tmp_path / "demo.csv"
    sheet.write_text(capsys.readouterr().out)
    assert main(["audit", str(sheet), "--variant", "integer", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0 and len(report["entries"]) > 50


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"moves": 3}', "list of 'moves'"),
        ('{"variant": "integer", "moves": [[[1, 2], [2, 3]], [[1, 2], [2, 3]]]}', "move 2"),
    ],
)
def test_demo_refuses_a_bad_game_file_clearly(tmp_path, capsys, content, message):
    path = tmp_path / "game.json"
    path.write_text(content)
    assert main(["demo", "--game", str(path)]) == 2
    assert message in capsys.readouterr().err
