"""Another game than Damath printed as a scoresheet, for the desk's reprint and the archive: the
board's own record (Dam's, English draughts' and Dadama's PDN; Mathematical Chess's JSON) read
into numbered turns, one row per turn, the first mover's column first, under the event, the
table and the players, with the result recorded for the tournament beside the board's, and
the players' and the arbiter's signatures. It fits one A4 page: the turns flow in three
columns, 135 turns at the sheet's type, up to 180 in smaller type (a longer game runs on).

Nothing is worked out again: the rows are the text the board exported, split where its turns
are; a record this reader cannot split is printed as it is."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import escape
from typing import Any

from controller.i18n import _, language
from controller.rules import pdn_text

NUMBER = re.compile(r"^(\d+)\.(\.\.)?$")
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0", "*", "2-0", "0-2", "1-1")
COLUMNS = 3
ROWS_PER_COLUMN = 45
"""What a column of one A4 page holds at the sheet's type: more turns print smaller."""
SMALL_ROWS_PER_COLUMN = 60
"""And in the smaller type."""
SHORT = 20
"""Turns a column takes before the next is begun: a short game stays in one."""


@dataclass(frozen=True)
class Turn:
    number: int
    first: str
    second: str


@dataclass(frozen=True)
class Record:
    turns: list[Turn]
    result: str
    """The board's own result token (``1-0``, ``*``), or empty."""


def pdn_turns(text: str) -> Record:
    """A PDN's movetext as numbered turns: a Dadama throw's dice (``[5]``) stay with the step
    they follow; ``12...`` starts a turn with the second mover."""
    pdn = pdn_text.read(text)
    words = pdn.movetext.split()
    result = pdn.tags.get("Result", "")
    if words and words[-1] in RESULTS:
        result = words.pop()
    turns: list[Turn] = []
    number, halves = 0, list[str]()

    def close() -> None:
        if number or halves:
            first, second = [*halves, "", ""][:2]
            turns.append(Turn(number, first, second))

    for word in words:
        found = NUMBER.match(word)
        if found:
            close()
            number = int(found.group(1))
            halves = [""] if found.group(2) else []
        elif word.startswith("[") and halves:
            halves[-1] += " " + word
        else:
            halves.append(word)
    close()
    return Record(turns, result)


def _point(p: Any) -> str:
    return f"({p[0]},{p[1]})" if isinstance(p, list) and len(p) == 2 else str(p)


def turn_text(turn: dict[str, Any]) -> str:
    """One Mathematical Chess turn as its record says it: a piece placed, a move (``x`` when it
    takes, with the rule), the removals it made (the pieces, the rule), or a pass."""
    parts: list[str] = []
    if "place" in turn:
        parts.append(_("{piece} placed on {point}").format(
            piece=turn["place"], point=_point(turn.get("at"))))  # fmt: skip
    if turn.get("pass"):
        parts.append(_("pass"))
    move = turn.get("move")
    if isinstance(move, list) and len(move) == 2:
        sep = "x" if turn.get("takes") else "-"
        said = _point(move[0]) + sep + _point(move[1])
        parts.append(f"{said} ({turn['takes']})" if turn.get("takes") else said)
    for removal in turn.get("removals") or []:
        pieces = " ".join(str(x) for x in removal.get("pieces", []))
        parts.append(_("removes {pieces} ({rule})").format(pieces=pieces, rule=removal.get("rule")))
    return "; ".join(parts) or "—"


def json_turns(text: str) -> Record:
    """Mathematical Chess's record: its turns in pairs, the first mover's first."""
    data = json.loads(text)
    start = data.get("start") or {}
    turns = [turn_text(x) for x in data.get("turns") or [] if isinstance(x, dict)]
    # the record's start says who moves first; this sheet's first column is White's
    offset = 1 if start.get("to_move") == "black" else 0
    halves = [""] * offset + turns
    rows = [
        Turn(n // 2 + 1, halves[n], halves[n + 1] if n + 1 < len(halves) else "")
        for n in range(0, len(halves), 2)
    ]
    return Record(rows, str(data.get("result") or ""))


def read_record(kind: str, text: str) -> Record | None:
    """The board's export as turns; None when it cannot be read (printed as it is)."""
    try:
        return json_turns(text) if kind == "json" else pdn_turns(text)
    except (ValueError, TypeError, AttributeError):
        return None


@dataclass(frozen=True)
class Sheet:
    title: str
    """The game's name, said."""
    heading: str
    """Round and table."""
    meta: list[str]
    """Event, date, venue, division, board, game id."""
    colours: tuple[str, str]
    """The first mover's colour, then the second's (``Black``, ``White``)."""
    players: tuple[str, str]
    """Blue's player (the first mover's), Red's."""
    kind: str
    text: str
    lines: list[str]
    """The result recorded for the tournament, and how (``sheets.tournament_lines``)."""


CSS = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font: 10pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 15pt; margin: 0 0 1mm; }
.meta { margin: 0 0 3mm; color: #333; }
.players { width: 100%; border-collapse: collapse; margin-bottom: 3mm; }
.players th, .players td { border: 0.3mm solid #000; padding: 1.5mm 2mm; text-align: left; }
.players th { width: 22%; font-weight: 600; }
.result { margin: 0 0 3mm; }
.result p { margin: 0.5mm 0; }
.turns { column-gap: 6mm; column-rule: 0.2mm solid #999; margin: 0; padding: 0;
  list-style: none; font-size: 9pt; line-height: 1.2; }
.turns li { display: grid; grid-template-columns: 2.4em 1fr 1fr; gap: 1mm;
  break-inside: avoid; border-bottom: 0.1mm solid #ccc; padding: 0.2mm 0; }
.turns li.head { font-weight: 600; border-bottom: 0.3mm solid #000; }
.turns span { overflow-wrap: anywhere; }
.turns.cols-1 { max-width: 120mm; }
.turns.cols-2 { columns: 2; }
.turns.cols-3 { columns: 3; }
.turns.small { font-size: 6.5pt; line-height: 1.15; }
pre { white-space: pre-wrap; font-size: 8pt; margin: 0; }
.sign { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 6mm; margin-top: 8mm; }
.sign div { border-top: 0.3mm solid #000; padding-top: 1mm; font-size: 9pt; }
.note { font-size: 8pt; color: #333; margin-top: 3mm; }
@media screen { body { max-width: 190mm; margin: 8mm auto; } }
"""


def render(sheet: Sheet) -> str:
    """The sheet as one HTML document, its style inside (the desk's CSP allows it by hash)."""
    record = read_record(sheet.kind, sheet.text)
    first, second = sheet.colours
    blue, red = sheet.players
    first_is = _("{colour} (Blue)").format(colour=first)
    second_is = _("{colour} (Red)").format(colour=second)
    head = (
        f"<h1>{escape(sheet.title)}: {escape(sheet.heading)}</h1>"
        f'<p class="meta">{escape(" · ".join(x for x in sheet.meta if x))}</p>'
        '<table class="players"><tr>'
        f"<th>{escape(first_is)}</th><td>{escape(blue)}</td>"
        f"<th>{escape(second_is)}</th><td>{escape(red)}</td>"
        "</tr></table>"
    )
    said = []
    if record is not None and record.result:
        said.append(_("Result on the board: {result}").format(result=record.result))
    said += sheet.lines
    result = '<div class="result">' + "".join(f"<p>{escape(x)}</p>" for x in said) + "</div>"
    if record is None:
        body = f"<pre>{escape(sheet.text)}</pre>"
    else:
        small = len(record.turns) > COLUMNS * ROWS_PER_COLUMN
        # a short game in one column; Mathematical Chess's longer turns in two at most
        most = 2 if sheet.kind == "json" else COLUMNS
        cols = max(1, min(most, -(-len(record.turns) // SHORT)))
        rows = [
            '<li class="head"><span>#</span>'
            f"<span>{escape(first)}</span><span>{escape(second)}</span></li>"
        ]
        rows += [
            f"<li><span>{t.number}.</span><span>{escape(t.first)}</span>"
            f"<span>{escape(t.second)}</span></li>"
            for t in record.turns
        ]
        body = f'<ol class="turns cols-{cols}{" small" if small else ""}">' + "".join(rows)
        body += "</ol>"
    what = "JSON" if sheet.kind == "json" else "PDN"
    note = _("The board's own record ({what}), as the hub stored it, turn by turn.").format(
        what=what
    )
    signs = "".join(
        f"<div>{escape(x)}</div>"
        for x in (
            _("Blue: {name}").format(name=blue),
            _("Red: {name}").format(name=red),
            _("Arbiter"),
        )
    )
    return (
        f'<!doctype html><html lang="{escape(language())}"><head><meta charset="utf-8">'
        f"<title>{escape(sheet.title)}: {escape(sheet.heading)}</title>"
        f"<style>{CSS}</style></head><body>"
        f'{head}{result}{body}<p class="note">{escape(note)}</p>'
        f'<div class="sign">{signs}</div></body></html>'
    )
