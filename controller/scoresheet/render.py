"""Text renderings of a scoresheet: a terminal table, JSON, and CSV in the audit format.

The CSV is the audit's input format (docs/scoring.md): a sheet the board writes passes the
board's own audit, which is how the scorer and the audit check each other. Every cell goes
through ``csv_cell``: what a spreadsheet would run as a formula is neutralised, the sheet's
numbers and arithmetic are not.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from typing import Any

from controller.i18n import _

from ..rules.move import side_name
from ..rules.scoring import display_float
from . import texts
from .layout import Cell, result_lines, sheet_lines
from .model import Row, Scoresheet, format_square

CSV_HEADER = ("player", "kind", "entry", "score", "total", "square")

FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""What makes a spreadsheet read a cell as a formula (OWASP's list, and the full-width forms)."""
_SIGNS = (
    "\\s0-9+\\-\u2212\u00d7\u00f7*/().,=\u2248\u221axy^"
    "\u00bd\u00bc\u00be\u2070-\u2079\u00b9\u00b2\u00b3"
)
"""Digits, the signs of arithmetic (``−×÷≈√``), the polynomial variant's ``x``, ``y`` and
exponents, fractions' ``½¼¾``: what the sheet's values and expressions are written with."""
ARITHMETIC = re.compile(f"(?!=)[{_SIGNS}]*[0-9][{_SIGNS}]*")
"""A number, a score or an expression of the sheet (``-5``, ``-9 + (-1)``, ``-7/6``, ``-3√2``,
``2x^2``, ``-9 (0, 3)``, ``-5 x 10 = -50``), not starting with ``=``: digits and arithmetic
only, so a spreadsheet can at most compute it, never call a function, open a link or run a
command."""


def csv_cell(value: object) -> str:
    """A cell as written to a CSV file: text a spreadsheet would evaluate as a formula (a name
    like ``=cmd|' /C calc'!A0`` or ``@SUM(A1)``) gets a leading ``'`` (OWASP's rule); numbers
    and the sheet's arithmetic are left as they are, so ``-5`` stays a number and the audit reads
    the sheet the board writes."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not ARITHMETIC.fullmatch(text):
        return "'" + text
    return text


def csv_rows(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV text, every cell through ``csv_cell``."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([csv_cell(c) for c in row] for row in rows)
    return out.getvalue()


FED_ID_KIND = "federation-id"
"""A row giving a player's federation ID (before the entries; the audit reads past it)."""


def render_csv(sheet: Scoresheet) -> str:
    """``player,kind,entry,score,total,square``: a row for each player's federation ID (when
    they have one), then one row per written entry."""
    rows: list[Iterable[object]] = [CSV_HEADER]
    for side, p in enumerate(sheet.players):
        if p.fed_id:
            rows.append((side_name(side).upper(), FED_ID_KIND, p.fed_id, "", "", ""))
    for r in sheet.rows:
        square = format_square(r.square) if r.square is not None else ""
        rows.append((r.player_name, r.kind, r.entry, r.score, r.total, square))
    return csv_rows(rows)


def _row_json(r: Row) -> dict[str, Any]:
    return {
        "player": r.player_name,
        "kind": r.kind,
        "entry": r.entry,
        "score": r.score,
        "total": r.total,
        "square": list(r.square) if r.square is not None else None,
    }


def _points(sheet: Scoresheet, side: int) -> float:
    winner = sheet.winner
    return 0.5 if winner is None else float(winner == side)


def sheet_json(sheet: Scoresheet) -> dict[str, Any]:
    """The sheet as plain data: header, rows, and per side total, RC, grand total, points."""
    sides: dict[str, dict[str, Any]] = {}
    for s in sheet.game.sides:
        p = sheet.players[s.side]
        sides[side_name(s.side)] = {
            "name": p.name,
            "school": p.school,
            "grade": p.grade,
            **({"fed_id": p.fed_id} if p.fed_id else {}),  # a tournament's registered player
            "total": s.total_text,
        }
        if sheet.finished:
            sides[side_name(s.side)] |= {
                "rc": s.remaining.text,
                "grand": s.grand_text,
                "grand_value": display_float(s.grand),
                "points": _points(sheet, s.side),
            }
    winner = sheet.winner
    e = sheet.event
    return {
        "variant": sheet.variant,
        "profile": sheet.profile,
        "finished": sheet.finished,
        "event": {"name": e.name, "round": e.round, "table": e.table, "date": e.date},
        "players": sides,
        "rows": [_row_json(r) for r in sheet.rows],
        "winner": side_name(winner) if winner is not None else None,
        "result": sheet.result_text,
        "ending": sheet.ending,
    }


def render_json(sheet: Scoresheet) -> str:
    return json.dumps(sheet_json(sheet), ensure_ascii=False, indent=2)


def _cells(c: Cell | None) -> tuple[str, str, str]:
    if c is None:
        return ("", "", "")
    move = f"{c.move} {_(texts.TAKING_AT).format(square=c.square)}" if c.square else c.move
    return (move, c.score, c.total)


def render_text(sheet: Scoresheet) -> str:
    """A terminal table laid out as the paper sheet: No., then Blue's Move / Score / Total
    beside Red's, one line per move."""
    lines = [(ln.number, *_cells(ln.blue), *_cells(ln.red)) for ln in sheet_lines(sheet)]
    head = (_(texts.NUMBER), *(_(texts.MOVE), _(texts.SCORE), _(texts.TOTAL)) * 2)
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(head)]

    def fmt(cells: tuple[str, ...]) -> str:
        number = cells[0].rjust(widths[0])
        left = "  ".join(c.ljust(w) for c, w in zip(cells[1:4], widths[1:4], strict=True))
        right = "  ".join(c.ljust(w) for c, w in zip(cells[4:], widths[4:], strict=True))
        return f"{number}  {left} │ {right}".rstrip()

    title = _(texts.TITLE).format(variant=sheet.variant.capitalize())
    out = [f"{title} ({sheet.profile})"]
    for side, p in enumerate(sheet.players):
        if p.name or p.school:
            who = ", ".join(x for x in (p.name, p.school, p.grade, p.fed_id) if x)
            out.append(f"{_(texts.PLAYER).format(side=_(texts.SIDES[side]))}: {who}")
    event = sheet.event
    facts = [
        f"{label}: {value}"
        for label, value in (
            (_(texts.EVENT), event.name),
            (_(texts.ROUND), event.round),
            (_(texts.TABLE), event.table),
            (_(texts.DATE), event.date),
        )
        if value
    ]
    if facts:
        out.append("   ".join(facts))
    out.append(fmt(head))
    out.append("─" * len(fmt(head)))
    out.extend(fmt(line) for line in lines)
    out.extend(result_lines(sheet))
    return "\n".join(out) + "\n"
