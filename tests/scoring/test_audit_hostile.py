"""Hostile scoresheets: CR-only line endings read, a huge field or a stray NUL refused with exit
code 2 or a finding on its line, deep parentheses read in linear time, digits only ASCII."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pytest

from controller.audit import add_arguments, audit_text, run
from controller.audit.check import MAX_FIELD
from controller.audit.written import parse_number, parse_square, split_operation

DATA = Path(__file__).parent / "data"
HEADER = "player,kind,entry,score,total,square\n"


def cli(tmp_path, text: str, capsys, variant: str = "integer"):
    path = tmp_path / "sheet.csv"
    path.write_bytes(text.encode("utf-8"))
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    code = run(parser.parse_args([str(path), "--variant", variant]))
    return code, capsys.readouterr()


def test_a_sheet_with_cr_only_line_endings_is_read_like_the_lf_one(tmp_path, capsys):
    text = (DATA / "manual_integer.csv").read_text(encoding="utf-8")
    code, out = cli(tmp_path, text.replace("\n", "\r"), capsys)
    assert code == 0 and "all 22 entries are right" in out.out
    code, out = cli(tmp_path, text.replace("\n", "\r\n"), capsys)
    assert code == 0 and "all 22 entries are right" in out.out


def test_a_field_over_csvs_own_limit_is_an_unreadable_file_not_a_traceback(tmp_path, capsys):
    code, out = cli(tmp_path, HEADER + 'BLUE,take,"' + "9" * 200_000 + '",,,\n', capsys)
    assert code == 2 and "not a CSV scoresheet" in out.err and "field larger" in out.err


def test_a_long_field_is_a_finding_on_its_line_and_the_rest_is_checked(tmp_path, capsys):
    rows = HEADER + "BLUE,take," + "(" * 300 + ",,,\n" + 'BLUE,move,"-9 (0, 3)",,,\n'
    report = audit_text(rows, "integer")
    bad = [f for f in report.findings if not f.ok]
    assert [f.line for f in bad] == [2] and f"at most {MAX_FIELD}" in bad[0].why
    assert len(report.findings) == 2


def test_a_nul_byte_is_a_clear_error(tmp_path, capsys):
    code, out = cli(tmp_path, HEADER + "BLUE,move,\0,,,\n", capsys)
    assert code in (1, 2) and "Traceback" not in out.err


def test_fifty_thousand_nested_parentheses_take_linear_time():
    """The old reader peeled one pair at a time and re-checked the rest: 124 s for this."""
    deep = "(" * 50_000 + "-9" + ")" * 50_000
    began = time.perf_counter()
    operands, ops = split_operation(deep + " + " + deep)
    assert operands == ["-9", "-9"] and len(ops) == 1
    assert time.perf_counter() - began < 2.0


def test_deep_parentheses_in_a_sheet_are_refused_by_length_quickly(tmp_path, capsys):
    deep = "(" * 50_000 + "-9" + ")" * 50_000
    began = time.perf_counter()
    code, out = cli(tmp_path, HEADER + f'BLUE,take,{deep} + (-1),-10,-10,"(2,5)"\n', capsys)
    assert code == 1 and f"at most {MAX_FIELD}" in out.out
    assert time.perf_counter() - began < 2.0


@pytest.mark.parametrize("text", ["٣", "-٣/10", "1٣"])
def test_only_ascii_digits_are_numbers_on_a_sheet(text):
    with pytest.raises(ValueError, match="cannot read"):
        parse_number(text, "integer")


def test_a_square_with_arabic_indic_digits_is_not_read():
    with pytest.raises(ValueError, match="cannot read the square"):
        parse_square("(٣,4)")


def test_a_number_with_thousands_of_digits_gets_a_sentence_not_a_python_hint():
    with pytest.raises(ValueError, match="characters long") as info:
        parse_number("9" * 5000, "integer")
    assert "set_int_max_str_digits" not in str(info.value)
    report = audit_text(HEADER + "BLUE,take,-9 + (-1)," + "9" * 150 + ',-10,"(2,5)"\n', "integer")
    (bad,) = [f for f in report.findings if not f.ok and "characters long" in f.why]
    assert "set_int_max_str_digits" not in bad.why


def test_a_sheet_of_many_remaining_chips_is_summed_once(monkeypatch):
    """Issue 39, item 10: each RC total summed every remaining chip written so far again (a
    sheet repeating its end, 40,000 rows, took 12 s, 80,000 four times that). Each chip is
    added once now: the additions grow with the rows, not with their square."""
    from controller.audit import check

    added: list[int] = []
    real = check.sum_scores

    def counting(scores, kind):
        scores = list(scores)
        added.append(len(scores))
        return real(scores, kind)

    monkeypatch.setattr(check, "sum_scores", counting)
    end = [r for r in (DATA / "manual_integer.csv").read_text().splitlines()[1:]
           if r.split(",")[1] in ("rc", "total")]  # fmt: skip
    assert end, "the sample sheet ends with its remaining chips and their totals"
    rows = 400
    sheet = HEADER + "\n".join(end[i % len(end)] for i in range(rows)) + "\n"
    check.audit_text(sheet, "integer")
    assert sum(added) <= rows


def test_a_file_that_never_ends_is_refused_in_one_line(capsys):
    """Issue 39, item 10: ``audit /dev/zero`` never ended and a 1 GB file took 6.3 GB; a sheet
    is read up to its limit and refused past it, and ``review`` the same."""
    from controller.cli import review

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["/dev/zero", "--variant", "integer"])) == 2
    err = capsys.readouterr().err
    assert "larger than 1,048,576 characters" in err and len(err.splitlines()) == 1
    with pytest.raises(ValueError, match="larger than 1,048,576 characters"):
        review._read("/dev/zero")
