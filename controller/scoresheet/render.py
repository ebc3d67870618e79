"""Text renderings of a scoresheet: a terminal table, JSON, and CSV in the audit format.

The CSV is the audit's input format (docs/scoring.md): a sheet the board writes passes the
board's own audit, which is how the scorer and the audit check each other.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..rules.move import BLUE, RED, side_name
from ..rules.scoring import display_float
from .model import Row, Scoresheet, format_square

CSV_HEADER = ("player", "kind", "entry", "score", "total", "square")


def render_csv(sheet: Scoresheet) -> str:
    """``player,kind,entry,score,total,square``, one row per written entry."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for r in sheet.rows:
        square = format_square(r.square) if r.square is not None else ""
        w.writerow((r.player_name, r.kind, r.entry, r.score, r.total, square))
    return out.getvalue()


def _row_json(r: Row) -> dict[str, Any]:
    return {
        "player": r.player_name,
        "kind": r.kind,
        "entry": r.entry,
        "score": r.score,
        "total": r.total,
        "square": list(r.square) if r.square is not None else None,
    }


def sheet_json(sheet: Scoresheet) -> dict[str, Any]:
    """The sheet as plain data: header, rows, and per side total, RC, grand total, points."""
    sides = {}
    for s in sheet.game.sides:
        p = sheet.players[s.side]
        sides[side_name(s.side)] = {
            "name": p.name,
            "school": p.school,
            "grade": p.grade,
            "total": s.total_text,
        }
        if sheet.finished:
            sides[side_name(s.side)] |= {
                "rc": s.remaining.text,
                "grand": s.grand_text,
                "grand_value": display_float(s.grand),
                "points": float(s.points),
            }
    winner = sheet.game.winner if sheet.finished else None
    return {
        "variant": sheet.variant,
        "profile": sheet.profile,
        "finished": sheet.finished,
        "players": sides,
        "rows": [_row_json(r) for r in sheet.rows],
        "winner": side_name(winner) if winner is not None else None,
        "result": sheet.result_text,
    }


def render_json(sheet: Scoresheet) -> str:
    return json.dumps(sheet_json(sheet), ensure_ascii=False, indent=2)


def side_columns(sheet: Scoresheet) -> list[tuple[Row | None, Row | None]]:
    """Lines of the manual's layout: each entry on its own line, in Blue's or Red's columns;
    after the moves, RC, Total and Grand Total of both sides side by side."""
    lines: list[tuple[Row | None, Row | None]] = []
    end = [r for r in sheet.rows if r.kind in ("rc", "total", "grand")]
    for r in sheet.rows:
        if r.kind in ("move", "take"):
            lines.append((r, None) if r.player == BLUE else (None, r))
    for kind in ("rc", "total", "grand"):
        blue = [r for r in end if r.kind == kind and r.player == BLUE]
        red = [r for r in end if r.kind == kind and r.player == RED]
        for i in range(max(len(blue), len(red))):
            lines.append((blue[i] if i < len(blue) else None, red[i] if i < len(red) else None))
    return lines


def _cells(r: Row | None) -> tuple[str, str, str]:
    if r is None:
        return ("", "", "")
    return (r.entry, r.score, r.total)


def render_text(sheet: Scoresheet) -> str:
    """A terminal table, Blue's Move / Score / Total beside Red's, as on the paper sheet."""
    lines = [_cells(b) + _cells(r) for b, r in side_columns(sheet)]
    head = ("Move", "Score", "Total") * 2
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(head)]

    def fmt(cells: tuple[str, ...]) -> str:
        left = "  ".join(c.ljust(w) for c, w in zip(cells[:3], widths[:3], strict=True))
        right = "  ".join(c.ljust(w) for c, w in zip(cells[3:], widths[3:], strict=True))
        return f"{left} │ {right}".rstrip()

    names = [p.name or side_name(i).upper() for i, p in enumerate(sheet.players)]
    title = f"{sheet.variant.capitalize()} DAMATH Scoresheet ({sheet.profile})"
    out = [title, f"BLUE: {names[0]}    RED: {names[1]}", fmt(head)]
    out.append("─" * len(fmt(head)))
    out.extend(fmt(line) for line in lines)
    out.append(sheet.result_text)
    return "\n".join(out) + "\n"
