"""Recompute every entry of a handwritten scoresheet and say which ones are wrong.

Each line is checked on its own, as a reviewer checks a paper sheet: its operation, rounding and
multiplier against the rules (RULES.md §4), and its running total against the total written on
the player's previous line plus the score this line should have. So one wrong score is reported
once, on its own line, and does not make every later total wrong. RC rows, the Total of the RC
and the Grand Total (last running total + RC total) are checked the same way.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from ..rules.damath_data import OPERATORS, is_playable
from ..rules.move import BLUE, RED
from ..rules.scoring import (
    WRITTEN_OPERATORS,
    Score,
    dama_factor,
    format_decimal,
    format_score,
    kind_of,
    round_2dp,
    score_values,
    sum_scores,
)
from ..rules.values import Monomial, Value, placement_values
from .written import (
    Written,
    parse_move,
    parse_number,
    parse_operand,
    parse_rc,
    parse_square,
    parse_take,
    same,
    split_multiplier,
)

HEADER = ("player", "kind", "entry", "score", "total", "square")
KINDS = ("move", "take", "rc", "total", "grand")
PLAYERS = {"BLUE": BLUE, "RED": RED}


@dataclass(frozen=True, slots=True)
class Finding:
    """One checked entry: ``ok``, what was written, what it should be, and why."""

    line: int
    ok: bool
    written: str
    expected: str = ""
    why: str = ""

    def json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "ok": self.ok,
            "written": self.written,
            "expected": self.expected,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class SheetRow:
    line: int
    player: int
    kind: str
    entry: str
    score: str
    total: str
    square: str


@dataclass
class _Side:
    """A player's running state: the base for the next running total, and the RC so far."""

    total: Score
    rc: list[Score] = field(default_factory=list)
    rc_total: Score | None = None


class FileError(Exception):
    """The file cannot be read as a scoresheet at all (exit code 2)."""


class _Wrong(Exception):
    def __init__(self, written: str, expected: str, why: str):
        super().__init__(why)
        self.finding = (written, expected, why)


# --------------------------------------------------------------------------------------------
# Reading


def read_rows(text: str) -> tuple[list[SheetRow], list[Finding]]:
    """The rows of the CSV, and a finding for every malformed row (the rest are still read)."""
    reader = csv.reader(io.StringIO(text))
    rows: list[SheetRow] = []
    bad: list[Finding] = []
    header_seen = False
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if not header_seen:
            got = tuple(c.strip().lower() for c in cells)
            if got != HEADER:
                raise FileError(
                    f"line {line}: expected the header {','.join(HEADER)}, got {','.join(cells)!r}"
                )
            header_seen = True
            continue
        raw = ",".join(cells)
        if len(cells) < len(HEADER) - 1 or len(cells) > len(HEADER):
            bad.append(Finding(line, False, raw, "", f"malformed row: {len(cells)} fields, "
                               f"expected {len(HEADER)} ({','.join(HEADER)})"))  # fmt: skip
            continue
        cells = [c.strip() for c in cells] + [""] * (len(HEADER) - len(cells))
        player, kind = cells[0].upper(), cells[1].lower()
        if player not in PLAYERS:
            bad.append(Finding(line, False, raw, "BLUE or RED", f"unknown player {cells[0]!r}"))
            continue
        if kind not in KINDS:
            bad.append(Finding(line, False, raw, " / ".join(KINDS), f"unknown kind {cells[1]!r}"))
            continue
        rows.append(SheetRow(line, PLAYERS[player], kind, *cells[2:]))
    if not header_seen:
        raise FileError(f"empty sheet: expected the header {','.join(HEADER)}")
    return rows, bad


# --------------------------------------------------------------------------------------------
# Checking


def _chip_key(v: Value) -> object:
    if isinstance(v, Monomial):
        return (v.coefficient, v.x_exp, v.y_exp)
    return v.number


class Auditor:
    """Checks the rows of one sheet in order; ``findings`` collects the result."""

    def __init__(self, variant: str, profile: str = "official"):
        self.variant = variant
        self.kind = kind_of(variant)
        self.profile = profile
        self.max_rc = dama_factor(profile)
        self.chips = {_chip_key(v) for v in placement_values(variant)}
        zero = sum_scores((), self.kind)
        self.zero = zero
        self.sides = {BLUE: _Side(zero), RED: _Side(zero)}
        self.findings: list[Finding] = []

    # helpers -------------------------------------------------------------------------------

    def fmt(self, x: Score) -> str:
        return format_score(x, self.kind)

    def number(self, text: str, what: str) -> Written:
        try:
            return parse_number(text, self.kind)
        except ValueError as err:
            raise _Wrong(text, "", f"{what}: {err}") from None

    def chip(self, text: str) -> Value:
        try:
            value = parse_operand(text, self.kind)
        except ValueError as err:
            raise _Wrong(text, "", str(err)) from None
        if _chip_key(value) not in self.chips:
            raise _Wrong(text, "", f"{text} is not a chip of {self.variant} Damath")
        return value

    def square(self, text: str) -> tuple[int, int] | None:
        if not text:
            return None
        try:
            sq = parse_square(text)
        except ValueError as err:
            raise _Wrong(text, "", str(err)) from None
        if not is_playable(sq):
            raise _Wrong(text, "", f"{text} is not a playable square (x + y must be odd)")
        return sq

    def score_and_steps(self, row: SheetRow, entry_steps: tuple[str, ...]) -> tuple[
        Written | None, list[Written], int | None
    ]:  # fmt: skip
        """The written score (score column, else the entry's last ``= value``), the other
        written intermediate values, and a multiplier written in the score column."""
        steps = list(entry_steps)
        mult = None
        if row.score:
            parts = [p.strip() for p in row.score.replace("≈", "=").split("=")]
            for p in parts:
                value, m = split_multiplier(p, self.kind)
                if m is not None:
                    mult = m
                if value:
                    steps.append(value)
            if not parts[-1]:
                raise _Wrong(row.score, "", "score: nothing after '='")
        if not steps:
            return None, [], mult
        written = [self.number(s, "score") for s in steps]
        return written[-1], written[:-1], mult

    def check_total(self, row: SheetRow, side: _Side, score: Score, problems: list) -> None:
        """Running total = the previous line's total as written + this line's right score."""
        expected = side.total + score
        if row.total:
            try:
                written = parse_number(row.total, self.kind)
            except ValueError as err:
                problems.append((row.total, self.fmt(expected), f"total: {err}"))
                side.total = expected
                return
            if not same(written, expected):
                problems.append((row.total, self.fmt(expected),
                                 f"total: {self.fmt(side.total)} + {self.fmt(score)} "
                                 f"= {self.fmt(expected)}"))  # fmt: skip
            # right: go on from the exact value (a decimal may be rounded); wrong: from what
            # the player wrote, as the next line was computed from it
            side.total = expected if same(written, expected) else written.value
        else:
            side.total = expected

    # rows ----------------------------------------------------------------------------------

    def check(self, row: SheetRow) -> None:
        problems: list[tuple[str, str, str]] = []
        try:
            ok_text = getattr(self, f"_check_{row.kind}")(row, problems)
        except _Wrong as w:
            problems.append(w.finding)
            ok_text = ""
        if problems:
            for written, expected, why in problems:
                self.findings.append(Finding(row.line, False, written, expected, why))
        else:
            self.findings.append(Finding(row.line, True, row.entry, ok_text or row.entry, ""))

    def _check_move(self, row: SheetRow, problems: list) -> str:
        side = self.sides[row.player]
        try:
            label, dest = parse_move(row.entry)
        except ValueError as err:
            raise _Wrong(row.entry, "", str(err)) from None
        self.chip(label)
        if not is_playable(dest):
            problems.append((row.entry, "", f"{dest} is not a playable square"))
        sq = self.square(row.square)
        if sq is not None and sq != dest:
            problems.append((row.square, f"({dest[0]},{dest[1]})", "square: not the move's"))
        if row.score:
            w = self.number(row.score, "score")
            if not same(w, self.zero):
                problems.append((row.score, "", "a move without taking scores nothing"))
        self.check_total(row, side, self.zero, problems)
        return row.entry

    def _check_take(self, row: SheetRow, problems: list) -> str:
        side = self.sides[row.player]
        try:
            entry = parse_take(row.entry, self.kind)
        except ValueError as err:
            raise _Wrong(row.entry, "", str(err)) from None
        taker, taken = self.chip(entry.taker), self.chip(entry.taken)
        sq = self.square(row.square)
        op = entry.operator
        if sq is not None and OPERATORS[sq] != op:
            problems.append((WRITTEN_OPERATORS[op], WRITTEN_OPERATORS[OPERATORS[sq]],
                             f"operator: the square {row.square} is "
                             f"{WRITTEN_OPERATORS[OPERATORS[sq]]}"))  # fmt: skip
            op = OPERATORS[sq]
        score, steps, score_mult = self.score_and_steps(row, entry.steps)
        mults = {m for m in (entry.multiplier, score_mult) if m is not None}
        if len(mults) > 1:
            raise _Wrong(row.entry, "", "two different multipliers written")
        mult = mults.pop() if mults else 1
        if sq is None and self.kind == "polynomial":
            return self._take_anywhere(row, side, taker, taken, op, mult, score, problems)
        expression, exact, right, text, _ = score_values(
            taker, taken, op, sq or (1, 0), mult, self.kind
        )
        if score is None:
            problems.append(("", text, f"score not written: {expression}"))
        elif not same(score, right):
            problems.append((score.text, text, f"score: {expression}"))
        rounded = right / mult if mult != 1 else right
        for step in steps:
            if not any(same(step, v) for v in (exact, rounded, right)):
                problems.append((step.text, expression, "intermediate value does not follow"))
        self.check_total(row, side, right, problems)
        return expression

    def _take_anywhere(self, row, side, taker, taken, op, mult, score, problems) -> str:
        """A polynomial taking without its square: try every square with that operator."""
        results = {
            sq: score_values(taker, taken, op, sq, mult, self.kind)
            for sq in sorted(OPERATORS, key=lambda s: (s[1], s[0]))
            if OPERATORS[sq] == op
        }
        listing = ", ".join(f"({x},{y}): {r[3]}" for (x, y), r in results.items())
        if score is None:
            problems.append(("", listing, "score not written (no square given)"))
            return ""
        fits = [sq for sq, r in results.items() if same(score, r[2])]
        if not fits:
            problems.append((score.text, listing,
                             f"fits no square with {WRITTEN_OPERATORS[op]}"))  # fmt: skip
            self.check_total(row, side, score.value, problems)
            return ""
        self.check_total(row, side, score.value, problems)
        return "fits " + ", ".join(f"({x},{y})" for x, y in fits)

    def _check_rc(self, row: SheetRow, problems: list) -> str:
        side = self.sides[row.player]
        try:
            label, mult, entry_steps = parse_rc(row.entry, self.kind)
        except ValueError as err:
            raise _Wrong(row.entry, "", str(err)) from None
        value = self.chip(label)
        sq = self.square(row.square)
        score, _steps, score_mult = self.score_and_steps(row, entry_steps)
        mult = mult or score_mult or 1
        if mult > self.max_rc:
            problems.append((f"x {mult}", f"x {self.max_rc}",
                             f"a remaining dama counts x {self.max_rc} "
                             f"in the {self.profile} profile"))  # fmt: skip
            mult = self.max_rc
        if isinstance(value, Monomial):
            candidates = [sq] if sq else sorted(OPERATORS, key=lambda s: (s[1], s[0]))
            worth = {s: round_2dp(value.at(s)) * mult for s in candidates}
        else:
            worth = {sq: value.at(sq) * mult}
        ok_text = f"{label} = {self.fmt(next(iter(worth.values())))}"
        if score is None:
            if len(worth) == 1:
                right = next(iter(worth.values()))
                problems.append(("", self.fmt(right), "score not written"))
                side.rc.append(right)
            else:
                problems.append(("", "", "score not written (no square given)"))
            return ok_text
        fits = [s for s, w in worth.items() if same(score, w)]
        if len(worth) == 1:
            right = next(iter(worth.values()))
            if not fits:
                problems.append((score.text, self.fmt(right), f"RC: {row.entry.strip()}"))
            side.rc.append(right)
            return ok_text
        if not fits:
            values = sorted({format_decimal(w) for w in worth.values()}, key=float)
            problems.append((score.text, ", ".join(values), "RC fits no square"))
        side.rc.append(score.value)
        return "fits " + ", ".join(f"({x},{y})" for x, y in fits)

    def _written_value(self, row: SheetRow) -> Written | None:
        text = row.total or row.score
        return self.number(text, "value") if text else None

    def _check_total(self, row: SheetRow, problems: list) -> str:
        side = self.sides[row.player]
        expected = sum_scores(side.rc, self.kind)
        written = self._written_value(row)
        side.rc_total = expected
        if written is None:
            problems.append(("", self.fmt(expected), "total of the remaining chips not written"))
        elif not same(written, expected):
            problems.append((written.text, self.fmt(expected), "total of the remaining chips"))
        else:
            side.rc_total = written.value
        return f"RC total {self.fmt(expected)}"

    def _check_grand(self, row: SheetRow, problems: list) -> str:
        side = self.sides[row.player]
        rc = side.rc_total if side.rc_total is not None else sum_scores(side.rc, self.kind)
        expected = side.total + rc
        written = self._written_value(row)
        why = f"grand total: {self.fmt(side.total)} + {self.fmt(rc)} = {self.fmt(expected)}"
        if written is None:
            problems.append(("", self.fmt(expected), why))
        elif not same(written, expected):
            problems.append((written.text, self.fmt(expected), why))
        return f"grand total {self.fmt(expected)}"


@dataclass(frozen=True, slots=True)
class Report:
    findings: tuple[Finding, ...]

    @property
    def errors(self) -> int:
        return sum(not f.ok for f in self.findings)

    def json(self) -> dict[str, object]:
        return {"errors": self.errors, "entries": [f.json() for f in self.findings]}


def audit_text(text: str, variant: str, profile: str = "official") -> Report:
    """Audit a sheet given as CSV text. Raises FileError when it is not a sheet at all."""
    rows, bad = read_rows(text)
    auditor = Auditor(variant, profile)
    for row in rows:
        auditor.check(row)
    findings = sorted(auditor.findings + bad, key=lambda f: f.line)
    return Report(tuple(findings))


__all__ = ["HEADER", "Auditor", "FileError", "Finding", "Report", "audit_text"]
