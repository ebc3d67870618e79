"""Handwriting the audit cannot read: every unreadable number, chip, move or square is reported
on its own line with what could not be read, and the lines after it are still checked (from the
total the player wrote, as the next line was computed from it)."""

import pytest

from controller.audit import audit_text

HEADER = "player,kind,entry,score,total,square\n"
SHEET = HEADER + (
    "BLUE,take,-9 + (-1),minus ten,-10,\n"  # 2: the score is words
    "BLUE,take,6 + 4,10,l0,\n"  # 3: an l for a 1 in the total
    "BLUE,take,6 + 4,10,10,\n"  # 4: right, counted on from line 3's right total
    "RED,take,-1 - (-9),8 =,8,\n"  # 5: nothing after '='
    "RED,move,-7 (2; 3),,,\n"  # 6: a square that is not one
    "RED,take,? + 4,6,14,\n"  # 7: a chip that cannot be read
    'RED,take,-1 + 4,3,17,"(9,9)"\n'  # 8: a square off the board
    'RED,move,"-7 (1, 4)",abc,17,\n'  # 9: a score on a plain move, unreadable
    "BLUE,rc,RC -11 x 2,-2z,,\n"  # 10
    "BLUE,rc,RC x,,,\n"  # 11
    "BLUE,total,Total,,sum,\n"  # 12
    "BLUE,grand,Grand Total,,1/0,\n"  # 13
    "RED,rc,RC 2,2,,\n"  # 14: right
)


def test_every_unreadable_entry_is_reported_on_its_line_with_what_was_unreadable():
    report = audit_text(SHEET, "integer")
    found = {f.line: (f.ok, f.written, f.why) for f in report.findings}
    assert found == {
        2: (False, "minus ten", "score: cannot read 'minus ten' as a number"),
        3: (False, "l0", "total: cannot read 'l0' as a number"),
        4: (True, "6 + 4", ""),
        5: (False, "8 =", "score: nothing after '='"),
        6: (False, "-7 (2; 3)",
            "cannot read the move '-7 (2; 3)': expected a chip and a square, like -9 (0, 3)"),
        7: (False, "?", "cannot read the chip '?': bad integer value '?': expected a whole "
                        "number like -9"),
        8: (False, "(9,9)", "(9,9) is not a playable square (x + y must be odd)"),
        9: (False, "abc", "score: cannot read 'abc' as a number"),
        10: (False, "-2z", "score: cannot read '-2z' as a number"),
        11: (False, "x", "cannot read the chip 'x': bad integer value 'x': expected a whole "
                         "number like -9"),
        12: (False, "sum", "value: cannot read 'sum' as a number"),
        13: (False, "1/0", "value: '1/0' divides by 0"),
        14: (True, "RC 2", ""),
    }  # fmt: skip
    assert report.errors == 11


def test_an_unreadable_total_is_replaced_by_the_right_one_for_the_next_line():
    report = audit_text(SHEET, "integer")
    third = next(f for f in report.findings if f.line == 3)
    assert third.expected == "0"  # -10 written on line 2, + 10


@pytest.mark.parametrize(
    ("variant", "row", "ok", "why"),
    [
        ("integer", "BLUE,take,(-9 + (-1),-10,-10,", False, "unbalanced parentheses in"),
        ("integer", "BLUE,take,-9 -10,,,", False, "score not written: -9 - 10"),
        ("integer", "BLUE,take,-9 + (-1) x 2 x 4,-20,-20,", False, "as 'taker operator taken'"),
        ("integer", "BLUE,take,+ 4,4,4,", False, "as 'taker operator taken'"),
        ("integer", "BLUE,take,-9 + (-1),-10,-10,(4;5)", False, "cannot read the square '(4;5)'"),
        ("integer", "BLUE,rc,RC,,,", False, "no chip in 'RC'"),
        ("integer", "BLUE,take,-9 + (-1) x 2,-20 x 4,-20,", False, "two different multipliers"),
        ("radical", "BLUE,take,4√18 + 4√7,8,8,", False, "√7 is not a whole multiple of √2"),
        ("integer", "BLUE,take,-9 + (-1) = ,-10,-10,", True, ""),
        ("integer", "BLUE,take,-9 + (-1),-10.0,-10,", True, ""),
        ("fraction", "BLUE,take,10/10 + 7/10,1.7,1.7,", True, ""),
        ("rational", "BLUE,take,-9/10 ÷ 0,0,0,", True, ""),
        ("radical", "BLUE,take,4√18 + 4√18,24√2,24√2,", True, ""),
    ],
)
def test_written_forms_read_or_refused_by_name(variant, row, ok, why):
    (finding,) = audit_text(HEADER + row + "\n", variant).findings
    assert finding.ok is ok and why in finding.why, finding
