"""Players from a CSV file, as schools send their lists: a header row names the columns.

Required: ``name``. Optional: ``school``, ``grade`` (grade or year, as the scoresheet writes it),
``division``, ``rating`` (a whole number, or empty).
Column names are matched without case or surrounding spaces; a semicolon-separated file (a
spreadsheet in a Filipino or European locale) reads as well as a comma-separated one. Every
line is checked before anyone is added, so a bad file adds nobody and says which lines to fix.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from .model import TournamentError

COLUMNS = ("name", "school", "grade", "division", "rating")
MAX_ERRORS_SHOWN = 10


@dataclass(frozen=True)
class Entry:
    line: int
    name: str
    school: str
    division: str
    rating: int | None
    grade: str = ""


def read_roster(text: str, default_division: str = "open") -> list[Entry]:
    text = text.lstrip("\ufeff")  # the byte-order mark spreadsheets write
    if not text.strip():
        raise TournamentError("the player list is empty")
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = csv.reader(io.StringIO(text), dialect)
    try:
        header = [h.strip().casefold() for h in next(rows)]
    except csv.Error as exc:
        raise TournamentError(f"line 1: {exc}") from None
    if "name" not in header:
        raise TournamentError(
            f"line 1 must name the columns, with at least 'name' (found: {', '.join(header)})"
        )
    unknown = [h for h in header if h and h not in COLUMNS]
    if unknown:
        raise TournamentError(
            f"line 1: unknown column {unknown[0]!r}; the columns are {', '.join(COLUMNS)}"
        )
    entries: list[Entry] = []
    errors: list[str] = []
    try:
        for number, row in enumerate(rows, start=2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) > len(header):
                errors.append(f"line {number}: {len(row)} fields, the header has {len(header)}")
                continue
            cells = dict(zip(header, (c.strip() for c in row), strict=False))
            name = cells.get("name", "")
            if not name:
                errors.append(f"line {number}: no name")
                continue
            rating = None
            if cells.get("rating"):
                try:
                    rating = int(cells["rating"])
                except ValueError:
                    errors.append(f"line {number}: rating {cells['rating']!r} is not a number")
                    continue
                if not 0 <= rating <= 4000:
                    errors.append(f"line {number}: rating {rating} is not between 0 and 4000")
                    continue
            division = cells.get("division") or default_division
            school, grade = cells.get("school", ""), cells.get("grade", "")
            entries.append(Entry(number, name, school, division, rating, grade))
    except csv.Error as exc:
        errors.append(f"line {rows.line_num}: {exc}")
    if errors:
        more = len(errors) - MAX_ERRORS_SHOWN
        shown = errors[:MAX_ERRORS_SHOWN] + ([f"… and {more} more"] if more > 0 else [])
        raise TournamentError("nobody was added; fix the file:\n  " + "\n  ".join(shown))
    if not entries:
        raise TournamentError("the player list has a header but no players")
    return entries
