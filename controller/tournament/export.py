"""Standings and crosstable as rows, CSV, JSON and a printable A4 page.

One set of rows feeds every format, so the printed sheet, the spreadsheet and the wall agree.
Damath tie-break values are shown exactly as the variant writes them (``24 + 12√2``, ``-7/6``);
the JSON also carries each exact value in the lossless form the store uses.
"""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from controller.rules.values import Sqrt2

from .damath_scores import store_text, text
from .model import BLUE, TIEBREAKS, Event
from .standings import SHORT, Standing

RESULT_SIGN = {
    "win": "1",
    "draw": "½",
    "loss": "0",
    "forfeit-win": "+",
    "forfeit-loss": "−",
    "pending": "·",
}


_GLYPHS = {(1, 2): "½", (1, 4): "¼", (3, 4): "¾"}


def points_text(p: Fraction) -> str:
    """``2½``, ``3``, ``¾``, ``7/3`` (points of an event giving thirds)."""
    if p.denominator == 1:
        return str(p.numerator)
    if p < 0:
        return f"-{points_text(-p)}"
    glyph = _GLYPHS.get((p.numerator % p.denominator, p.denominator))
    if glyph:
        whole = p.numerator // p.denominator
        return f"{whole or ''}{glyph}"
    return str(p)


def value_text(value: object, variant: str) -> str:
    if isinstance(value, Sqrt2):
        return text(value, variant)
    if isinstance(value, Fraction):
        return points_text(value)
    return str(value)


def standings_rows(table: Sequence[Standing], event: Event) -> list[list[str]]:
    head = ["Rank", "No", "Name", "School", "Points"] + [SHORT[t] for t in event.tiebreaks]
    rows = [head]
    for s in table:
        rank = f"{s.rank}=" if s.shared else str(s.rank)
        withdrawn = " (withdrawn)" if s.player.withdrawn_after is not None else ""
        rows.append(
            [rank, str(s.player.id), s.player.name + withdrawn, s.player.school]
            + [points_text(s.points)]
            + [value_text(s.tiebreaks.get(t, ""), event.variant) for t in event.tiebreaks]
        )
    return rows


def crosstable_rows(table: Sequence[Standing]) -> list[list[str]]:
    """A row per player in rank order; a column per round: opponent's rank, colour, result."""
    rank_of = {s.player.id: s.rank for s in table}
    rounds = max((len(s.rounds) for s in table), default=0)
    rows = [["Rank", "Name"] + [f"R{n}" for n in range(1, rounds + 1)] + ["Points"]]
    for s in table:
        cells = []
        for r in s.rounds:
            if r.outcome == "bye":
                cells.append("bye")
            elif r.outcome == "absent":
                cells.append("—")
            else:
                colour = "B" if r.colour == BLUE else "R"
                rank = rank_of.get(r.opponent, "?") if r.opponent is not None else "?"
                cells.append(f"{rank}{colour} {RESULT_SIGN[r.outcome]}")
        cells += [""] * (rounds - len(cells))
        rows.append([str(s.rank), s.player.name, *cells, points_text(s.points)])
    return rows


def grid_rows(table: Sequence[Standing]) -> list[list[str]]:
    """A round robin's crosstable: a row and a column per player in rank order; each cell the
    row player's result against the column player (two in a double round robin)."""
    order = [s.player.id for s in table]
    rows = [["Rank", "Name"] + [str(n) for n in range(1, len(order) + 1)] + ["Points"]]
    for s in table:
        against: dict[int, list[str]] = {}
        for r in s.rounds:
            if r.opponent is not None:
                against.setdefault(r.opponent, []).append(RESULT_SIGN[r.outcome])
        cells = ["×" if pid == s.player.id else " ".join(against.get(pid, [])) for pid in order]
        rows.append([str(s.rank), s.player.name, *cells, points_text(s.points)])
    return rows


GRID_KEY = (
    "Each cell: the row player's result against the column player (numbered by rank): 1 win, "
    "½ draw, 0 loss, + forfeit win, − forfeit loss, · not yet played."
)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""What makes a spreadsheet read a cell as a formula (OWASP's list, and the full-width forms)."""
_SIGNS = (
    "\\s0-9+\\-\u2212\u00d7\u00f7*/().,=\u2248\u221axy^"
    "\u00bd\u00bc\u00be\u2070-\u2079\u00b9\u00b2\u00b3"
)
"""Digits, the signs of arithmetic (``−×÷≈√``), the polynomial variant's ``x``, ``y`` and
exponents, fractions' ``½¼¾``: what the sheet's values and expressions are written with."""
ARITHMETIC = re.compile(f"(?!=)[{_SIGNS}]*[0-9][{_SIGNS}]*")
"""A number or a Damath value (``-7/6``, ``24 + 12√2``, ``2½``): digits and arithmetic only."""


def csv_cell(value: str) -> str:
    """A cell as written to a CSV file: text a spreadsheet would evaluate as a formula (a
    player named ``=cmd|' /C calc'!A0``, ``@SUM(A1)``, ``-Ana``) gets a leading ``'`` (OWASP's
    rule); numbers and Damath values stay as they are (the same rule as the scoresheet's,
    ``controller.scoresheet.render.csv_cell``: the tournament does not depend on it)."""
    if value.startswith(FORMULA_START) and not ARITHMETIC.fullmatch(value):
        return "'" + value
    return value


def to_csv(rows: list[list[str]]) -> str:
    """Rows as CSV, every cell through ``csv_cell`` (standings, crosstable, the archive,
    ``hub export --format csv``)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([csv_cell(c) for c in row] for row in rows)
    return out.getvalue()


def standings_json(table: Sequence[Standing], event: Event, division: str) -> dict[str, Any]:
    return {
        "event": event.name,
        "division": division,
        "tiebreaks": list(event.tiebreaks),
        "standings": [
            {
                "rank": s.rank,
                "shared": s.shared,
                "player": s.player.id,
                "name": s.player.name,
                "school": s.player.school,
                "withdrawn": s.player.withdrawn_after is not None,
                "points": str(s.points),
                "points_text": points_text(s.points),
                "tiebreaks": {
                    t: {
                        "text": value_text(s.tiebreaks.get(t, 0), event.variant),
                        "exact": _exact(s.tiebreaks.get(t, 0)),
                    }
                    for t in event.tiebreaks
                },
            }
            for s in table
        ],
    }


def _exact(value: object) -> str:
    return store_text(value) if isinstance(value, Sqrt2) else str(value)


_CSS = """
@page { size: A4; margin: 14mm 12mm; }
body { font: 10pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #000; }
h1 { font-size: 15pt; margin: 0 0 2mm; }
p.meta { margin: 0 0 5mm; color: #333; }
table { border-collapse: collapse; width: 100%; page-break-inside: auto; }
tr { page-break-inside: avoid; }
th, td { border: 0.3mm solid #444; padding: 1mm 1.5mm; text-align: left; }
th { background: #e8e8e8; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.round, th.round { text-align: center; white-space: nowrap; }
thead { display: table-header-group; }
p.key { font-size: 8.5pt; color: #333; margin-top: 4mm; }
"""


def html_page(title: str, event: Event, division: str, rows: list[list[str]], key: str) -> str:
    """A page that prints on A4 as it is: header row repeated on every page."""
    head, body = rows[0], rows[1:]
    text_cols = {"Name", "School"}

    def cell(tag: str, value: str, col: str) -> str:
        cls = "" if col in text_cols else ' class="num"'
        if col.isdigit() or (col[:1] == "R" and col[1:].isdigit()):
            cls = ' class="round"'
        return f"<{tag}{cls}>{html.escape(value)}</{tag}>"

    meta = " · ".join(
        x for x in (event.date, event.venue, f"division {division}", event.time_control) if x
    )
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(event.name)}: {html.escape(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(event.name)}: {html.escape(title)}</h1>",
        f'<p class="meta">{html.escape(meta)}</p>',
        "<table><thead><tr>" + "".join(cell("th", h, h) for h in head) + "</tr></thead><tbody>",
    ]
    for row in body:
        lines.append("<tr>" + "".join(cell("td", v, h) for v, h in zip(row, head, strict=True)))
    lines += ["</tbody></table>", f'<p class="key">{html.escape(key)}</p>', "</body></html>"]
    return "\n".join(lines) + "\n"


def standings_key(event: Event) -> str:
    names = "; ".join(f"{SHORT[t]}: {TIEBREAKS[t]}" for t in event.tiebreaks)
    p = event.points
    return (
        f"Points: win {points_text(p.win)}, draw {points_text(p.draw)}, loss "
        f"{points_text(p.loss)}, bye {points_text(p.bye)}. Tie-breaks in order: {names}. "
        "“=”: tied on every tie-break."
    )


CROSSTABLE_KEY = (
    "Each round: the opponent's rank, B for Blue (moves first) or R for Red, and the result: "
    "1 win, ½ draw, 0 loss, + forfeit win, − forfeit loss, · not yet played; "
    "bye: a pairing-allocated bye; —: not paired that round."
)
