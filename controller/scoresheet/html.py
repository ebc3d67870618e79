"""A printable HTML scoresheet laid out like the manual's: the event, both players' name, school
and grade, then No. / Move / Score / Total for Blue beside Red, the remaining chips and the
totals, the result and why the game ended, the manual's notes and lines to sign.

One self-contained page (inline CSS with print rules, no scripts, no fonts or images from the
internet), so it prints from any browser offline; a normal game fits one A4 page.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from controller.i18n import _, language

from . import texts
from .layout import Cell, Line, notes, result_lines, sheet_lines
from .model import Scoresheet
from .review_html import CSS as REVIEW_CSS
from .review_html import review_section

_CSS = """
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 60em;
  color: #000; font-size: 10pt; line-height: 1.25; padding: 0 1em; }
h1 { font-size: 14pt; text-align: center; margin: 0 0 .5em; letter-spacing: .02em; }
.event { display: flex; flex-wrap: wrap; gap: .3em 1.5em; margin: 0 0 .6em; }
.event span { white-space: nowrap; }
.players { display: flex; gap: 2em; margin-bottom: .7em; }
.player { flex: 1; }
.player h2 { font-size: 10.5pt; margin: 0 0 .2em; }
.field { display: flex; gap: .4em; margin: .15em 0; }
.field .label { font-weight: bold; white-space: nowrap; }
.field .value { flex: 1; border-bottom: 1px solid #000; min-height: 1.2em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #000; padding: .1em .35em; text-align: left; vertical-align: top; }
th { background: #eee; }
th.side { text-align: center; font-size: 10.5pt; }
td.no, th.no { width: 2.2em; text-align: right; color: #333; }
td.score, td.total { white-space: nowrap; width: 4.6em; }
.sep { border-left: 3px double #000; }
.at { color: #555; font-size: 85%; white-space: nowrap; }
tr.section td { font-weight: bold; background: #f3f3f3; }
tr.end td { font-weight: bold; }
tr.grand td { border-top: 2px solid #000; }
.result { margin: .7em 0 .2em; font-weight: bold; font-size: 11pt; }
.tournament { margin: .7em 0 .3em; padding: .3em .6em; border: 2px solid #000; }
.tournament p { margin: .15em 0; }
.tournament p:first-child { font-weight: bold; font-size: 11pt; }
.ending { margin: 0 0 .5em; }
.notes { margin: .4em 0; padding-left: 1.2em; font-size: 8.5pt; color: #222; }
.signatures { display: flex; gap: 2em; margin-top: 1.2em; }
.signatures div { flex: 1; border-top: 1px solid #000; padding-top: .2em; font-size: 8.5pt;
  text-align: center; }
.blue { color: #0645ad; } .red { color: #b00; }
@media print {
  @page { size: A4 portrait; margin: 10mm; }
  body { margin: 0; max-width: none; padding: 0; font-size: 9pt; line-height: 1.2; }
  h1 { font-size: 12.5pt; margin-bottom: .3em; }
  .event, .players { margin-bottom: .4em; }
  .field { margin: .05em 0; }
  th, td { padding: .03em .3em; }
  td.score, td.total { width: 3.8em; }
  .result { margin-top: .4em; }
  .notes { font-size: 7.6pt; margin: .2em 0; }
  .signatures { margin-top: .9em; }
  .blue, .red { color: #000; }
  th { background: #eee; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  tr { break-inside: avoid; }
}
"""


def _field(label: str, value: str) -> str:
    return (
        f'<p class="field"><span class="label">{escape(label)}:</span>'
        f'<span class="value">{escape(value)}</span></p>'
    )


def _player_block(sheet: Scoresheet, side: int) -> str:
    p = sheet.players[side]
    name = _(texts.SIDES[side])
    heading = escape(_(texts.PLAYER).format(side=name))
    return (
        f'<div class="player {("blue", "red")[side]}"><h2>{heading}</h2>'
        f"{_field(_(texts.NAME), p.name)}{_field(_(texts.SCHOOL), p.school)}"
        f"{_field(_(texts.GRADE), p.grade)}"
        f"{_field(_(texts.FED_ID), p.fed_id) if p.fed_id else ''}</div>"
    )


def _event_block(sheet: Scoresheet) -> str:
    e = sheet.event
    items = [
        (_(texts.EVENT), e.name),
        (_(texts.ROUND), e.round),
        (_(texts.TABLE), e.table),
        (_(texts.DATE), e.date),
        (_(texts.RULES), _(texts.RULES_VALUE).format(profile=sheet.profile)),
    ]
    spans = "".join(
        f"<span><b>{escape(label)}:</b> {escape(value) or '________'}</span>"
        for label, value in items
    )
    return f'<div class="event">{spans}</div>'


def _cells(c: Cell | None, sep: bool) -> str:
    cls = ' class="sep"' if sep else ""
    if c is None:
        return f'<td{cls}></td><td class="score"></td><td class="total"></td>'
    move = escape(c.move)
    if c.square:
        move += f' <span class="at">{escape(_(texts.TAKING_AT).format(square=c.square))}</span>'
    return (
        f'<td{cls}>{move}</td><td class="score">{escape(c.score)}</td>'
        f'<td class="total">{escape(c.total)}</td>'
    )


def _row(line: Line) -> str:
    cls = ""
    if line.section == "end":
        cell = line.blue or line.red
        kind = cell.kind if cell else ""
        cls = ' class="end grand"' if kind == "grand" else ' class="end"'
    return (
        f'<tr{cls}><td class="no">{escape(line.number)}</td>'
        f"{_cells(line.blue, False)}{_cells(line.red, True)}</tr>"
    )


def render_html(
    sheet: Scoresheet, review: dict[str, Any] | None = None, tournament: Sequence[str] = ()
) -> str:
    """The whole page as one string; with the coach's review of the game after it, when the
    board reviewed it (``review_html.py``); ``tournament``: what the tournament recorded for
    the game (its result first, then who and why), framed above the board's own result, as
    the hub prints a sheet an arbiter accepted or corrected."""

    title = _(texts.TITLE).format(variant=sheet.variant.capitalize())
    body = []
    section_shown = False
    for line in sheet_lines(sheet):
        if line.section != "moves" and not section_shown:
            section_shown = True
            body.append(
                f'<tr class="section"><td class="no"></td>'
                f'<td colspan="6">{escape(_(texts.REMAINING))}</td></tr>'
            )
        body.append(_row(line))
    said = result_lines(sheet)
    if tournament and said:  # beside the tournament's result, the board's is named as such
        said = [_(texts.AT_THE_BOARD).format(result=said[0]), *said[1:]]
    result = "".join(
        f'<p class="{"result" if i == 0 else "ending"}">{escape(text)}</p>'
        for i, text in enumerate(said)
    )
    if tournament:
        framed = "".join(f"<p>{escape(line)}</p>" for line in tournament)
        result = f'<div class="tournament">{framed}</div>{result}'
    note_items = "".join(f"<li>{escape(n)}</li>" for n in notes(sheet))
    signatures = "".join(
        f"<div>{escape(label)}</div>"
        for label in (_(texts.SIGN_BLUE), _(texts.SIGN_RED), _(texts.SIGN_ARBITER))
    )
    return f"""<!DOCTYPE html>
<html lang="{language()}">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>{_CSS}{REVIEW_CSS if review else ""}</style>
</head>
<body>
<h1>{escape(title)}</h1>
{_event_block(sheet)}
<div class="players">{_player_block(sheet, 0)}{_player_block(sheet, 1)}</div>
<table>
<thead>
<tr><th class="no"></th><th class="side blue" colspan="3">{_(texts.SIDES[0])}</th>
<th class="side red sep" colspan="3">{_(texts.SIDES[1])}</th></tr>
<tr><th class="no">{escape(_(texts.NUMBER))}</th><th>{escape(_(texts.MOVE))}</th>
<th>{escape(_(texts.SCORE))}</th><th>{escape(_(texts.TOTAL))}</th>
<th class="sep">{escape(_(texts.MOVE))}</th><th>{escape(_(texts.SCORE))}</th>
<th>{escape(_(texts.TOTAL))}</th></tr>
</thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
{result}
<ul class="notes">{note_items}</ul>
<p class="signatures-title"><b>{escape(_(texts.SIGNATURES))}</b></p>
<div class="signatures">{signatures}</div>
{review_section(review) if review else ""}
</body>
</html>
"""
