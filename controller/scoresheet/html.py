"""A printable HTML scoresheet laid out like the manual's: names, school, grade, and Move /
Score / Total for Blue and Red side by side. One self-contained page (inline CSS with print
rules, no scripts, no fonts or images from the internet), so it prints from any browser offline.
"""

from __future__ import annotations

from html import escape

from ..rules.move import side_name
from .model import Row, Scoresheet
from .render import side_columns

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: #000; }
h1 { font-size: 1.3em; text-align: center; margin: 0 0 .6em; }
.players { display: flex; gap: 2em; margin-bottom: 1em; }
.player { flex: 1; }
.player p { margin: .2em 0; border-bottom: 1px solid #000; }
.player .label { font-weight: bold; }
table { border-collapse: collapse; width: 100%; font-size: .95em; }
th, td { border: 1px solid #000; padding: .15em .4em; text-align: left; }
th.side { text-align: center; }
td.sep, th.sep { border-left: 3px double #000; }
tr.end td { font-weight: bold; }
.result { margin-top: 1em; font-weight: bold; }
.blue { color: #0645ad; } .red { color: #b00; }
@media print {
  @page { size: A4 portrait; margin: 12mm; }
  body { margin: 0; }
  .blue, .red { color: #000; }
  tr { page-break-inside: avoid; }
}
"""


def _player_block(sheet: Scoresheet, side: int) -> str:
    p = sheet.players[side]
    name = side_name(side).upper()
    return (
        f'<div class="player {side_name(side)}"><p><span class="label">Player {name}</span></p>'
        f'<p><span class="label">Name:</span> {escape(p.name)}</p>'
        f'<p><span class="label">School:</span> {escape(p.school)}</p>'
        f'<p><span class="label">Grade/Year:</span> {escape(p.grade)}</p></div>'
    )


def _cells(r: Row | None, sep: bool) -> str:
    cls = ' class="sep"' if sep else ""
    if r is None:
        return f"<td{cls}></td><td></td><td></td>"
    return f"<td{cls}>{escape(r.entry)}</td><td>{escape(r.score)}</td><td>{escape(r.total)}</td>"


def render_html(sheet: Scoresheet) -> str:
    """The whole page as one string."""
    title = f"{sheet.variant.capitalize()} DAMATH Scoresheet"
    body = []
    for blue, red in side_columns(sheet):
        row = blue or red
        end = ' class="end"' if row is not None and row.kind in ("total", "grand") else ""
        body.append(f"<tr{end}>{_cells(blue, False)}{_cells(red, True)}</tr>")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<div class="players">{_player_block(sheet, 0)}{_player_block(sheet, 1)}</div>
<table>
<thead>
<tr><th class="side blue" colspan="3">BLUE</th><th class="side red sep" colspan="3">RED</th></tr>
<tr><th>Move</th><th>Score</th><th>Total</th>
<th class="sep">Move</th><th>Score</th><th>Total</th></tr>
</thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
<p class="result">{escape(sheet.result_text)} (profile: {escape(sheet.profile)})</p>
</body>
</html>
"""
