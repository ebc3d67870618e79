"""A Dadama game's scoresheet: its turns two to a row (White, Black), every throw written in
them (docs/notation.md, "Dadama"), as CSV and as a printable page.

Dadama has no arithmetic score, so there is no column of points and nothing for the Damath
audit to recompute: the throws are the facts a sheet must carry, and the record replays them
(``dadama_notation.read_record_text``)."""

from __future__ import annotations

import html

from controller.i18n import _
from controller.rules.dadama import DadamaGame
from controller.rules.dadama_notation import record_json, record_text
from controller.scoresheet.render import csv_rows


def rows(game: DadamaGame, start: DadamaGame) -> list[tuple[int, str, str]]:
    """(turn number, White's turn, Black's turn); a side that did not play that turn: ""."""
    turns = record_json(game, start)["turns"]
    out: list[tuple[int, str, str]] = []
    ply = 0 if start.side_to_move == 0 else 1
    for text in turns:
        number = ply // 2 + 1
        if ply % 2 == 0:
            out.append((number, text, ""))
        elif out and out[-1][0] == number:
            out[-1] = (number, out[-1][1], text)
        else:
            out.append((number, "", text))
        ply += 1
    return out


def to_csv(game: DadamaGame, start: DadamaGame) -> str:
    record = record_json(game, start)
    return csv_rows(
        [
            ["turn", "white", "black"],
            *rows(game, start),
            ["result", record["result"], record.get("termination", "")],
        ]
    )


def to_html(game: DadamaGame, start: DadamaGame, title: str = "") -> str:
    """A printable sheet (A4 or Letter): the turns, the result, and the record's text."""
    record = record_json(game, start)
    ending = game.ending()
    body = "".join(
        f"<tr><td>{n}</td><td>{html.escape(w)}</td><td>{html.escape(b)}</td></tr>"
        for n, w, b in rows(game, start)
    )
    heading = html.escape(title or _("Dadama scoresheet"))
    result = html.escape(record["result"] + (f": {ending.describe()}" if ending else ""))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{heading}</title><style>"
        "body{font-family:sans-serif;margin:1.5cm}table{border-collapse:collapse;width:100%}"
        "td,th{border:1px solid #444;padding:.2em .5em;text-align:left}"
        "pre{white-space:pre-wrap}@page{size:auto;margin:1.5cm}</style></head><body>"
        f"<h1>{heading}</h1><table><thead><tr><th>#</th><th>{html.escape(_('White'))}</th>"
        f"<th>{html.escape(_('Black'))}</th></tr></thead><tbody>{body}</tbody></table>"
        f"<p><strong>{html.escape(_('Result'))}:</strong> {result}</p>"
        f"<h2>{html.escape(_('The record, with every throw'))}</h2>"
        f"<pre>{html.escape(record_text(game, start))}</pre></body></html>"
    )
