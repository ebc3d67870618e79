"""The audit of handwritten scoresheets: the manual's three sheets, malformed rows, exit codes."""

import argparse
import json
from pathlib import Path

import pytest

from controller.audit import add_arguments, audit_text, run

DATA = Path(__file__).parent / "data"
HEADER = "player,kind,entry,score,total,square\n"


def audit_file(name, variant, profile="official"):
    return audit_text((DATA / name).read_text(encoding="utf-8"), variant, profile)


def wrong(report):
    return [(f.line, f.written, f.expected) for f in report.findings if not f.ok]


def cli(argv, capsys):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    code = run(parser.parse_args(argv))
    return code, capsys.readouterr()


def test_manual_integer_sheet_passes_with_grand_totals_75_and_minus_72(capsys):
    report = audit_file("manual_integer.csv", "integer")
    assert report.errors == 0
    grand = [f for f in report.findings if f.expected.startswith("grand total")]
    assert [f.expected for f in grand] == ["grand total 75", "grand total -72"]
    code, out = cli([str(DATA / "manual_integer.csv"), "--variant", "integer"], capsys)
    assert code == 0 and "all 22 entries are right" in out.out


def test_manual_rational_sheet_reports_its_errors_and_accepts_the_right_entries():
    report = audit_file("manual_rational.csv", "rational")
    errors = wrong(report)
    assert (8, "21/10", "21/100") in errors  # -3/10 × -7/10 written as 21/10
    assert (9, "24/10", "6/5") in errors  # 4/10 + 8/10
    assert (10, "4/40", "") in errors  # not a chip of the game
    ok = {f.line for f in report.findings if f.ok}
    # -9/10 + (-1/10) = -10/10, total -1; 2/10 total 1/5; -7/6 total -29/30
    assert {4, 5, 7} <= ok


def test_manual_polynomial_sheet_24000_fits_4_5_and_99_fits_no_square():
    report = audit_file("manual_polynomial.csv", "polynomial")
    by_line = {f.line: f for f in report.findings}
    assert by_line[4].ok and by_line[4].expected == "fits (4,5)"
    assert not by_line[5].ok and by_line[5].written == "99"
    assert by_line[5].why == "fits no square with -"
    assert by_line[9].ok and by_line[9].expected == "fits (5,4)"  # -22.69, total 76.91
    # RULES.md §4 says 0.6 fits no square; -15x ÷ (-xy²) = 15/y² is 0.6 on (6,5), a ÷ square
    assert by_line[7].ok and by_line[7].expected == "fits (6,5)"
    assert by_line[17].ok and by_line[18].ok  # grand totals 24628 and -58.09 follow


def test_operators_minus_signs_and_equal_forms_are_accepted():
    sheet = HEADER + (
        "BLUE,take,-9 + (-1),-10,-10,\n"
        "RED,take,-1 – -9,8,8,(3,0)\n"
        "BLUE,take,-5 * 10 × 2,-100,-110,\n"
        "RED,take,-7 / 2,-3.5 ≈ -4,4,\n"
        "BLUE,take,-7 ÷ 2 = -3.5 ≈ -4,,-114,\n"
    )
    assert wrong(audit_text(sheet, "integer")) == []
    sheet = HEADER + "BLUE,take,-7/10 − (-9/10),2/10,1/5,(0,1)\n"
    assert wrong(audit_text(sheet, "rational")) == []


def test_running_total_checked_against_the_previous_written_total():
    sheet = HEADER + "BLUE,take,-9 + (-1),-10,-10,\nBLUE,take,6 + 4,10,1,\nBLUE,take,6 + 4,10,11,\n"
    assert wrong(audit_text(sheet, "integer")) == [(3, "1", "0")]


def test_wrong_operator_for_the_square_and_unwritten_multiplier_hint():
    report = audit_text(HEADER + "BLUE,take,-9 + (-1),-10,-10,(0,1)\n", "integer")
    assert wrong(report)[0] == (2, "+", "-")
    report = audit_text(HEADER + "BLUE,take,6 + 4,40,40,\n", "integer")
    assert "x 4 fits" in report.findings[0].why


def test_radical_total_a_plus_b_root_two():
    sheet = HEADER + "BLUE,take,4√18 x (-√8),-48,-48,\nBLUE,take,4√18 + 64√2,76√2,-48 + 76√2,\n"
    assert wrong(audit_text(sheet, "radical")) == []
    sheet = HEADER + "BLUE,take,4*sqrt(18) + 64√2,76√2,-48 + 76*sqrt(2),\n"
    assert wrong(audit_text(sheet, "radical")) == [(2, "-48 + 76*sqrt(2)", "76√2")]


def test_rc_dama_doubles_only_in_the_official_profile():
    sheet = HEADER + (
        "BLUE,rc,RC -11 x 2,-22,,\nBLUE,total,Total,,-22,\nBLUE,grand,Grand Total,,-22,\n"
    )
    assert wrong(audit_text(sheet, "integer", "official")) == []
    report = audit_text(sheet, "integer", "online")
    assert wrong(report)[0][:3] == (2, "x 2", "x 1")


def test_malformed_row_is_reported_and_the_rest_still_checked(capsys, tmp_path):
    sheet = HEADER + "GREEN,take,1 + 1,2,2,\nBLUE,take\nBLUE,take,-9 + (-1),-9,-9,\n"
    report = audit_text(sheet, "integer")
    lines = [(f.line, f.ok) for f in report.findings]
    assert lines[:2] == [(2, False), (3, False)]
    assert wrong(report)[-1][:3] == (4, "-9", "-10")
    path = tmp_path / "sheet.csv"
    path.write_text(sheet, encoding="utf-8")
    code, out = cli([str(path), "--variant", "integer", "--json"], capsys)
    data = json.loads(out.out)
    assert code == 1 and data["errors"] == 4
    assert set(data["entries"][0]) == {"line", "ok", "written", "expected", "why"}


@pytest.mark.parametrize("content", [None, b"\xff\xfe\x00bad", b"not,a,header\n"])
def test_unreadable_file_exits_2(content, tmp_path, capsys):
    path = tmp_path / "sheet.csv"
    if content is not None:
        path.write_bytes(content)
    code, out = cli([str(path), "--variant", "integer"], capsys)
    assert code == 2 and "audit:" in out.err and "Traceback" not in out.err
