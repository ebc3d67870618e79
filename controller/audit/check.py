"""Recompute every entry of a handwritten scoresheet and say which ones are wrong.

Each line is checked on its own, as a reviewer checks a paper sheet: its operation, rounding and
multiplier against the rules (RULES.md §4), and its running total against the total written on
the player's previous line plus the score this line should have. So one wrong score is reported
once, on its own line, and does not make every later total wrong. RC rows, the Total of the RC
and the Grand Total (last running total + RC total) are checked the same way.
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from ..rules.damath_data import OPERATORS, is_playable
from ..rules.move import BLUE, RED, Square
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
from ..rules.values import Monomial, Value
from ..rules.variants import placement_values
from ..scoresheet.render import FED_ID_KIND
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
    rc_sum: Score | None = None
    """The sum of ``rc[:rc_counted]``: each remaining chip added once, so a sheet of many RC rows
    is read in linear time (every total summed all of them again: 40,000 rows took 12 s)."""
    rc_counted: int = 0

    def rc_so_far(self, kind: str) -> Score:
        """The remaining chips' sum so far."""
        added = sum_scores(self.rc[self.rc_counted :], kind)
        self.rc_sum = added if self.rc_sum is None else self.rc_sum + added
        self.rc_counted = len(self.rc)
        return self.rc_sum


class FileError(Exception):
    """The file cannot be read as a scoresheet at all (exit code 2)."""


class _Wrong(Exception):
    def __init__(self, written: str, expected: str, why: str):
        super().__init__(why)
        self.finding = (written, expected, why)


# --------------------------------------------------------------------------------------------
# Reading


MAX_FIELD = 200
"""Characters in one field: the longest entry of a real sheet (a double taking by a dama, with
every step written) has under 60; a longer field is refused before it is parsed."""


def read_rows(text: str) -> tuple[list[SheetRow], list[Finding]]:
    """The rows of the CSV, and a finding for every malformed row (the rest are still read).

    Line endings may be LF, CRLF or CR alone (an old Mac or a spreadsheet's export)."""
    reader = csv.reader(io.StringIO(text, newline=None))
    rows: list[SheetRow] = []
    bad: list[Finding] = []
    header_seen = False
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as err:  # a field over csv's own limit, a stray NUL, ...
            raise FileError(f"line {reader.line_num}: not a CSV scoresheet ({err})") from None
        line = reader.line_num
        too_long = [c for c in cells if len(c) > MAX_FIELD]
        if too_long:
            bad.append(Finding(line, False, too_long[0][:40] + "…", "",
                               f"a field of {len(too_long[0])} characters: an entry "
                               f"has at most {MAX_FIELD}"))  # fmt: skip
            continue
        if not any(c.strip() for c in cells):
            continue
        if not header_seen:
            got = tuple(c.strip().lower() for c in cells)
            if got != HEADER:
                raise FileError(
                    f"line {line}: expected the header {','.join(HEADER)}, "
                    f"got {','.join(cells)[:80]!r}"
                )
            header_seen = True
            continue
        raw = ",".join(cells)
        if len(cells) == len(HEADER) + 1 and cells[-2].lstrip().startswith("("):
            cells = [*cells[:-2], f"{cells[-2]},{cells[-1]}"]  # an unquoted square: (3,0)
        if len(cells) < len(HEADER) - 1 or len(cells) > len(HEADER):
            bad.append(Finding(line, False, raw, "", f"malformed row: {len(cells)} fields, "
                               f"expected {len(HEADER)} ({','.join(HEADER)})"))  # fmt: skip
            continue
        cells = [c.strip() for c in cells] + [""] * (len(HEADER) - len(cells))
        player, kind = cells[0].upper(), cells[1].lower()
        if player not in PLAYERS:
            bad.append(Finding(line, False, raw, "BLUE or RED", f"unknown player {cells[0]!r}"))
            continue
        if kind == FED_ID_KIND:  # who the player is, not what they wrote: nothing to check
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


Problem = tuple[str, str, str]
"""A wrong entry: what is written, what is right, why."""
Problems = list[Problem]
ScoreValues = tuple[str, Score, Score, str, bool]
"""``scoring.score_values``: expression, exact, score, text, division by zero."""


def _board_order(square: tuple[int, int]) -> tuple[int, int]:
    return square[1], square[0]


def _squares(squares: Iterable[Square | None]) -> str:
    """The squares a value fits, in board order (an unwritten square, None, is not one)."""
    known = [s for s in squares if s is not None]
    return ", ".join(f"({x},{y})" for x, y in sorted(known, key=_board_order))


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

    def _plus(self, a: Score, b: Score) -> str:
        """``43/10 + (-5/2)``: a negative second term in parentheses, as the manual writes."""
        right = self.fmt(b)
        return f"{self.fmt(a)} + " + (f"({right})" if right.startswith("-") else right)

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

    def check_total(self, row: SheetRow, side: _Side, score: Score, problems: Problems) -> None:
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
                                 f"total: {self._plus(side.total, score)} "
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
        except (ValueError, ArithmeticError) as err:  # a value the checks did not foresee
            problems.append((row.entry, "", f"cannot check this entry: {err}"))
            ok_text = ""
        except _Wrong as w:
            problems.append(w.finding)
            ok_text = ""
            if row.kind in ("move", "take") and row.total:
                # the entry cannot be computed: the next line goes on from the total written
                with contextlib.suppress(ValueError):
                    self.sides[row.player].total = parse_number(row.total, self.kind).value
        if problems:
            for written, expected, why in problems:
                self.findings.append(Finding(row.line, False, written, expected, why))
        else:
            self.findings.append(Finding(row.line, True, row.entry, ok_text or row.entry, ""))

    def _check_move(self, row: SheetRow, problems: Problems) -> str:
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

    def _check_take(self, row: SheetRow, problems: Problems) -> str:
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
        # The multiplier must be written (the manual writes "-50 x 2 = -100"): the sheet does
        # not say which chips were damas, so an unwritten one is not guessed, only hinted.
        mult = mults.pop() if mults else 1
        if sq is not None or self.kind != "polynomial":
            squares = [sq or (1, 0)]  # the square only matters for polynomials
        else:
            squares = sorted((s for s in OPERATORS if OPERATORS[s] == op), key=_board_order)
        results = {s: score_values(taker, taken, op, s, mult, self.kind) for s in squares}
        first = results[squares[0]]
        listing = ", ".join(f"({x},{y}): {results[(x, y)][3]}" for x, y in squares)
        expected = first[3] if len(squares) == 1 else listing
        if score is None and row.total:
            return self._take_from_total(row, side, results, expected, problems)
        if score is None:
            problems.append(("", expected, f"score not written: {first[0]}"))
            self.check_total(row, side, first[2], problems)
            return ""
        fits = [s for s, r in results.items() if same(score, r[2])]
        if not fits:
            if len(squares) == 1:
                hint = self._multiplier_hint(score, taker, taken, op, squares[0], mult)
                why = f"score: {first[0]}{hint}"
            else:
                hint = self._multiplier_hint_anywhere(score, taker, taken, op, squares, mult)
                why = f"fits no square with {WRITTEN_OPERATORS[op]}{hint}"
            problems.append((score.text, expected, why))
            right = first[2] if len(squares) == 1 else score.value
            self.check_total(row, side, right, problems)
            return ""
        expression, exact, right, _text, _ = results[fits[0]]
        rounded = right / mult if mult != 1 else right
        if len(squares) == 1:
            for step in steps:
                if not any(same(step, v) for v in (exact, rounded, right)):
                    problems.append((step.text, expression, "intermediate value does not follow"))
        self.check_total(row, side, right, problems)
        if len(squares) > 1:
            return "fits " + _squares(fits)
        return expression

    def _take_from_total(
        self,
        row: SheetRow,
        side: _Side,
        results: dict[Square, ScoreValues],
        expected: str,
        problems: Problems,
    ) -> str:
        """No score written but a total: the score the total implies is checked instead, and
        the missing score is still reported."""
        written = self.number(row.total, "total")
        implied = Written("", written.value - side.total, written.places)
        fits = [s for s, r in results.items() if same(implied, r[2])]
        where = f", which fits {_squares(fits)}" if fits and len(results) > 1 else ""
        problems.append(("", expected,
                         f"score not written (the total implies "
                         f"{self.fmt(implied.value)}{where})"))  # fmt: skip
        right = results[fits[0]][2] if fits else next(iter(results.values()))[2]
        if fits or len(results) == 1:
            self.check_total(row, side, right, problems)
        else:
            self.check_total(row, side, implied.value, problems)
            problems.append((self.fmt(implied.value), expected, "the total fits no square"))
        return ""

    _WHO = ((2, "a dama took part"), (4, "a dama took a dama"))

    def _multiplier_hint(
        self, score: Written, taker: Value, taken: Value, op: str, square: Square, mult: int
    ) -> str:
        """`` (x 4 fits: write it if a dama took a dama)`` when another multiplier fits."""
        if mult != 1:
            return ""
        for m, who in self._WHO:
            if same(score, score_values(taker, taken, op, square, m, self.kind)[2]):
                return f" (x {m} fits: write it if {who})"
        return ""

    def _multiplier_hint_anywhere(
        self,
        score: Written,
        taker: Value,
        taken: Value,
        op: str,
        squares: list[Square],
        mult: int,
    ) -> str:
        if mult != 1:
            return ""
        for m, who in self._WHO:
            fits = [
                s
                for s in squares
                if same(score, score_values(taker, taken, op, s, m, self.kind)[2])
            ]
            if fits:
                return f" (x {m} fits {_squares(fits)}: write it if {who})"
        return ""

    def _check_rc(self, row: SheetRow, problems: Problems) -> str:
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
        squares: list[Square | None] = [sq]
        if sq is None and isinstance(value, Monomial):  # where it stands is not written
            squares = [*sorted(OPERATORS, key=_board_order)]
        worth: dict[Square | None, Score] = {}
        for s in squares:
            number: Score
            if isinstance(value, Monomial):
                assert s is not None  # a polynomial chip's square: written, or each in turn
                number = round_2dp(value.at(s))
            else:
                number = value.at(s)
            worth[s] = number * mult
        plain = next(iter(worth.values()))
        expected = self.fmt(plain) if len(squares) == 1 else "its value where it stands"
        if score is None:
            problems.append(("", expected, "score not written"))
            if len(squares) == 1:
                side.rc.append(plain)
            return ""
        fits = [s for s, w in worth.items() if same(score, w)]
        if fits:
            side.rc.append(worth[fits[0]])
            if len(squares) > 1:
                return f"{label} fits {_squares(fits)}"
            return f"{label} = {self.fmt(plain)}"
        if len(squares) == 1:
            hint = ""
            if mult == 1 and self.max_rc == 2 and same(score, plain * 2):
                hint = " (x 2 fits: write it if the chip is a dama)"
            problems.append((score.text, expected, f"RC: {row.entry.strip()}{hint}"))
            side.rc.append(plain)
        else:
            values = sorted(
                {format_decimal(w) for w in worth.values() if isinstance(w, Fraction)}, key=float
            )
            hint = ""
            doubled = [s for s, w in worth.items() if same(score, w * 2)]
            if mult == 1 and self.max_rc == 2 and doubled:
                hint = f" (x 2 fits {_squares(doubled)}: write it if the chip is a dama)"
            problems.append((score.text, ", ".join(values), f"RC fits no square{hint}"))
            side.rc.append(score.value)
        return ""

    def _written_value(self, row: SheetRow) -> Written | None:
        text = row.total or row.score
        return self.number(text, "value") if text else None

    def _check_total(self, row: SheetRow, problems: Problems) -> str:
        side = self.sides[row.player]
        expected = side.rc_so_far(self.kind)
        written = self._written_value(row)
        side.rc_total = expected
        if written is None:
            problems.append(("", self.fmt(expected), "total of the remaining chips not written"))
        elif not same(written, expected):
            problems.append((written.text, self.fmt(expected), "total of the remaining chips"))
        else:
            side.rc_total = written.value
        return f"RC total {self.fmt(expected)}"

    def _check_grand(self, row: SheetRow, problems: Problems) -> str:
        side = self.sides[row.player]
        rc = side.rc_total if side.rc_total is not None else side.rc_so_far(self.kind)
        expected = side.total + rc
        written = self._written_value(row)
        why = f"grand total: {self._plus(side.total, rc)} = {self.fmt(expected)}"
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
