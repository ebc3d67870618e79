"""``damath-board hub event|player|pair|result|standings|export…``: a small event run from the
command line, and every mistake answered with one line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main

# the command installed beside the interpreter running the tests (wherever the tree lies: also in
# bench/mutation.sh's copy of it)
EXE = str(Path(sys.executable).with_name("damath-board"))

ROSTER = "Name,School,Division,Rating\nAna,Rizal ES,,1500\nBen,Rizal ES,,\nCid,Mabini ES,,1400\n"


def hub(d, *argv):
    return main(["hub", *argv, "--dir", str(d)])


@pytest.fixture
def event(tmp_path, capsys):
    d = tmp_path / "cup"
    assert hub(d, "event", "create", "--name", "Cup", "--rounds", "3", "--initial-colour", "blue",
               "--variant", "radical", "--tiebreaks", "score-diff,wins") == 0  # fmt: skip
    (tmp_path / "players.csv").write_text(ROSTER)
    assert hub(d, "player", "import", str(tmp_path / "players.csv")) == 0
    assert hub(d, "player", "add", "Dee", "--school", "Mabini ES", "--rating", "1300") == 0
    capsys.readouterr()
    return d


def test_a_round_from_pairing_to_standings(event, tmp_path, capsys):
    assert hub(event, "pair", "--round", "1") == 0
    out = capsys.readouterr().out
    # seeds: Ana 1500, Cid 1400, Dee 1300, Ben unrated; 1 plays Blue (the drawn colour)
    assert "Table  1  Ana (Blue) vs Dee (Red)" in out
    assert "Table  2  Ben (Blue) vs Cid (Red)" in out
    assert hub(event, "result", "--round", "1", "--table", "1", "--scores", "24 + 12√2:30") == 0
    assert hub(event, "result", "--round", "1", "--table", "2", "red-forfeit") == 0
    assert hub(event, "standings", "--json") == 0
    out = capsys.readouterr().out
    data = json.loads(out[out.index("{") :])
    rows = [(r["rank"], r["name"], r["points_text"]) for r in data["standings"]]
    assert rows == [(1, "Ana", "1"), (2, "Cid", "1"), (3, "Ben", "0"), (4, "Dee", "0")]
    assert data["standings"][0]["tiebreaks"]["score-diff"] == {
        "text": "-6 + 12√2",
        "exact": "-6|12",
    }
    csv_out = tmp_path / "x.csv"
    assert hub(event, "export", "crosstable", "--out", str(csv_out)) == 0
    assert csv_out.read_text().splitlines()[1:3] == ["1,Ana,4B 1,1", "2,Cid,3R +,1"]
    page = tmp_path / "s.html"
    assert hub(event, "export", "standings", "--format", "html", "--out", str(page)) == 0
    text = page.read_text()
    assert "@page { size: A4" in text and "<td>Ana</td>" in text and "-6 + 12√2" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pair", "--round", "2"], "pair round 1 first"),
        (
            ["result", "--round", "1", "--table", "1", "blue"],
            "round 1 of division 'open' is not paired",
        ),
        (["player", "withdraw", "Zed"], "no player 'Zed'"),
        (["result", "--round", "1", "--table", "1", "win"], "result 'win': one of"),
        (["result", "--round", "1", "--table", "1", "--scores", "12"], "--scores BLUE:RED"),
        (["result", "--round", "1", "--table", "1", "--scores", "x:1"], "Damath score 'x'"),
        (["event", "set", "--points", "1,2,0"], "a win must give more than a draw"),
        (["event", "set", "--tiebreaks", "luck"], "unknown tie-break 'luck'"),
        (["event", "set", "--variant", "chess"], "unknown variant"),
        (["division", "set", "kids", "--system", "swiss"], "a Swiss needs its number of rounds"),
        (["player", "add", "Ana"], "Ana is already entered"),
        (["pair", "--round", "1", "--by-hand", "1-x", "--reason", "r"], "'1-x' is not BLUE-RED"),
    ],
)
def test_mistakes_get_one_clear_line(event, capsys, argv, message):
    assert hub(event, *argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("damath-board hub: error: ") and message in err, err


def test_a_round_paired_twice_and_a_result_for_a_missing_table(event, capsys):
    assert hub(event, "pair", "--round", "1") == 0
    assert hub(event, "pair", "--round", "1") == 2
    assert "round 1 of division 'open' is already paired" in capsys.readouterr().err
    assert hub(event, "result", "--round", "1", "--table", "9", "blue") == 2
    assert "has no table 9" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("csv_text", "message"),
    [
        ("", "the player list is empty"),
        ("school,rating\nRizal,1\n", "at least 'name'"),
        ("name,age\nAna,9\n", "unknown column 'age'"),
        ("name,rating\nAna,x\nBen,\n,5\n", "line 2: rating 'x' is not a number"),
        ("name,rating\nAna,1,2,3\n", "line 2: 4 fields"),
        ("name,division\nAna,tertiary\n", "no division 'tertiary'"),
    ],
)
def test_a_malformed_csv_adds_nobody(event, tmp_path, capsys, csv_text, message):
    f = tmp_path / "bad.csv"
    f.write_text(csv_text)
    assert hub(event, "player", "import", str(f)) == 2
    assert message in capsys.readouterr().err
    assert hub(event, "player", "list", "--json") == 0
    assert len(json.loads(capsys.readouterr().out)) == 4


def test_a_semicolon_sheet_with_a_byte_order_mark_reads(event, tmp_path, capsys):
    f = tmp_path / "excel.csv"
    f.write_bytes("\ufeffName;School\nEve;Luna HS\n".encode())
    assert hub(event, "player", "import", str(f)) == 0
    assert hub(event, "player", "list") == 0
    assert "Eve (Luna HS), open" in capsys.readouterr().out


def test_the_installed_command_prints_no_traceback(event):
    result = subprocess.run(
        [EXE, "hub", "result", "--dir", str(event), "--round", "3", "--table", "1", "blue"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "not paired yet" in result.stderr


def test_round_two_only_paired_is_not_said_to_be_over(event, tmp_path, capsys):
    """Issue 40: with round 2 paired and no result of it in, the command line's standings and
    the printed standings, crosstable and schools said "after round 2" (the event wall said it
    right). They say round 1 is the last complete one and round 2 under way, with its count."""
    assert hub(event, "pair", "--round", "1") == 0
    assert hub(event, "result", "--round", "1", "--table", "1", "--scores", "30:24") == 0
    assert hub(event, "result", "--round", "1", "--table", "2", "draw") == 0
    assert hub(event, "pair", "--round", "2") == 0
    assert hub(event, "result", "--round", "2", "--table", "1", "draw") == 0
    capsys.readouterr()
    under_way = "after round 1; round 2 under way, 1 of 2 results in"
    assert hub(event, "standings") == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"Cup, division open, {under_way}", first
    assert hub(event, "teams") == 0
    assert under_way in capsys.readouterr().out.splitlines()[0]
    for what in ("standings", "crosstable"):
        page = tmp_path / f"{what}.html"
        assert hub(event, "export", what, "--format", "html", "--out", str(page)) == 0
        text = page.read_text()
        assert "after round 2" not in text and under_way in text, (what, text[:400])
    page = tmp_path / "teams.html"
    assert hub(event, "export", "teams", "--format", "html", "--out", str(page)) == 0
    text = page.read_text()
    assert "after round 2" not in text
    assert "Schools so far: round 2 under way, 1 of 2 results in" in text, text[:600]
    assert hub(event, "result", "--round", "2", "--table", "2", "blue") == 0
    capsys.readouterr()
    assert hub(event, "standings") == 0
    assert capsys.readouterr().out.splitlines()[0] == "Cup, division open, after round 2"
