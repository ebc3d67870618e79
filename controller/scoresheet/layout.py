"""The scoresheet laid out as the manual's paper sheet, for every reader a person looks at (the
printable page, the terminal, the simulator's page and the projector).

The manual's sheet has one line per move: Blue's Move, Score, Total beside Red's reply. A turn
with several takings writes one line per taking, and the other side's entries of that move
start on the same line. After the moves come the remaining chips (RC) of both sides side by
side, then each side's RC total, takings total and grand total.

Entries are typeset as on the board: × and − (the audit's CSV keeps what a keyboard types),
and the exact result of a division before it is rounded is written as a calculator shows it,
a decimal (``−7 ÷ 2 = −3.5 ≈ −4``; one that goes on is cut at two places and marked:
``1 ÷ 9 = 0.11… ≈ 0``), so every approximate step on a sheet reads the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.move import BLUE, RED
from . import texts
from .model import Row, Scoresheet, format_square
from .typeset import typeset


@dataclass(frozen=True, slots=True)
class Cell:
    """One side's part of a line: what is written in Move, Score and Total, typeset."""

    move: str
    score: str
    total: str
    kind: str
    square: str = ""
    """A taking's landing square, ``(2, 5)``; empty for other entries."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the sheet: the move number on its first line, Blue's and Red's cells.
    ``section`` is ``moves``, ``rc`` (a remaining chip) or ``end`` (the totals)."""

    number: str
    blue: Cell | None
    red: Cell | None
    section: str = "moves"


def _cell(row: Row) -> Cell:
    if row.kind == "rc":
        chip = row.entry.removeprefix("RC ").strip()
        return Cell(typeset(texts.RC_CHIP.format(chip=chip)), typeset(row.score), "", "rc")
    square = format_square(row.square, spaced=True) if row.kind == "take" and row.square else ""
    return Cell(typeset(row.entry), typeset(row.score), typeset(row.total), row.kind, square)


def _turns(rows: tuple[Row, ...]) -> list[tuple[int, list[Row]]]:
    """Consecutive entries of the same side: one turn each (a turn of takings has several)."""
    turns: list[tuple[int, list[Row]]] = []
    for row in rows:
        if turns and turns[-1][0] == row.player:
            turns[-1][1].append(row)
        else:
            turns.append((row.player, [row]))
    return turns


def move_lines(sheet: Scoresheet) -> list[Line]:
    """The moves, Blue's and Red's turn of each move number side by side."""
    turns = _turns(tuple(r for r in sheet.rows if r.kind in ("move", "take")))
    pairs: list[tuple[list[Row], list[Row]]] = []
    for side, rows in turns:
        if side == BLUE or not pairs or pairs[-1][1]:
            pairs.append(([], []))
        pairs[-1][side].extend(rows)
    lines = []
    for number, (blue, red) in enumerate(pairs, start=1):
        for i in range(max(len(blue), len(red))):
            lines.append(
                Line(
                    str(number) if i == 0 else "",
                    _cell(blue[i]) if i < len(blue) else None,
                    _cell(red[i]) if i < len(red) else None,
                )
            )
    return lines


def end_lines(sheet: Scoresheet) -> list[Line]:
    """After the moves of a finished game: RC chips, RC total, takings total, grand total."""
    if not sheet.finished:
        return []
    rc = {
        side: [r for r in sheet.rows if r.kind == "rc" and r.player == side] for side in (BLUE, RED)
    }
    lines = [
        Line(
            "",
            _cell(rc[BLUE][i]) if i < len(rc[BLUE]) else None,
            _cell(rc[RED][i]) if i < len(rc[RED]) else None,
            "rc",
        )
        for i in range(max(len(rc[BLUE]), len(rc[RED])))
    ]
    sides = sheet.game.sides

    def total_line(label: str, values: tuple[str, str], kind: str) -> Line:
        blue, red = (Cell(label, "", typeset(v), kind) for v in values)
        return Line("", blue, red, "end")

    lines.append(
        total_line(texts.RC_TOTAL, (sides[BLUE].remaining.text, sides[RED].remaining.text), "rc")
    )
    lines.append(
        total_line(texts.TAKINGS_TOTAL, (sides[BLUE].total_text, sides[RED].total_text), "total")
    )
    lines.append(
        total_line(texts.GRAND_TOTAL, (sides[BLUE].grand_text, sides[RED].grand_text), "grand")
    )
    return lines


def sheet_lines(sheet: Scoresheet) -> list[Line]:
    return move_lines(sheet) + end_lines(sheet)


def result_lines(sheet: Scoresheet) -> list[str]:
    """The result and, once the game has ended, why it ended."""
    out = [sheet.result_text]
    if sheet.finished and sheet.ending:
        out.append(texts.ENDED.format(reason=sheet.ending))
    return out


def notes(sheet: Scoresheet) -> list[str]:
    """The manual's reminders at the foot of the sheet, for this variant and profile."""
    out = [texts.NOTE_DOUBLE]
    out.append(texts.NOTE_RC_DOUBLE if sheet.profile != "online" else texts.NOTE_RC_ONCE)
    if sheet.kind == "integer":
        out.append(texts.NOTE_ROUNDING)
    return out


__all__ = [
    "Cell",
    "Line",
    "end_lines",
    "move_lines",
    "notes",
    "result_lines",
    "sheet_lines",
    "typeset",
]
