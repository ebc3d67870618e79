"""The whole event as one zip file: what an organiser keeps, sends to the federation or prints.

Per division: standings and crosstable (CSV, printable HTML, JSON), and per round every game the
boards played for a pairing as PDN (the board's own record with the event's tags added: event,
site, date, division, round, table, board, players), the round's games in one PDN file and the
round's scoresheets as one printable HTML file (a page per game; a game recorded by hand gets a
page with its typed result). At the top: the event's data (players, pairings, every result
record with its corrections, which board played which pairing) and the log.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import zipfile
from typing import Any

from controller.link.gamestate import rebuild
from controller.scoresheet.html import render_html
from controller.scoresheet.model import Scoresheet
from controller.tournament import boards as seating
from controller.tournament import export
from controller.tournament.damath_scores import store_text
from controller.tournament.tournament import Tournament

from .feeds import Feeds
from .rounds import score_text
from .store import Store
from .web.page import OUTCOME_WORDS, e

README = """{name}: the event's archive

event.json        the event, divisions, players, pairings, every result record (corrections
                  kept, newest last) and which board played each pairing
log.json          every change: who, when, what, why
DIVISION/         standings and crosstable (.csv for a spreadsheet, .html to print on A4,
                  standings.json with exact Damath values)
DIVISION/round-N/ games.pdn (every game of the round), one .pdn per game
                  (table-T_board_game.pdn), scoresheets.html (every sheet, a page each)
"""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "event"


def _pdn_tag(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
EVENT_TAGS = (
    "Event", "Site", "Date", "Division", "Round", "Board", "BoardId", "Game",
    "BlueFedId", "RedFedId",
)  # fmt: skip
"""The tags the archive sets on a board's game; every other line is the board's own."""


def tagged_pdn(feeds: Feeds, row: dict[str, Any], t: Tournament, division: str, table: int) -> str:
    """The board's own PDN with the event's tags set: event, site, date, division, round, the
    table (``Board``, as PDN numbers a table) and the board's id (``BoardId``), the game id.
    A tag the board wrote is replaced in place (no tag twice); the players' tags, the moves and
    the result stay the board's."""
    text = feeds.game_pdn(row)
    if not text:
        return ""
    lines = text.split("\n")
    head = 0
    while head < len(lines) and TAG.match(lines[head]):
        head += 1
    tags = {m.group(1): m.group(2) for m in (TAG.match(x) for x in lines[:head]) if m}
    wanted = {
        "Event": t.event.name,
        "Site": t.event.venue,
        "Date": t.event.date.replace("-", "."),
        "Division": division,
        "Round": str(row["round"]),
        "Board": str(table),
        "BoardId": str(row["board_id"]),
        "Game": str(row["game_id"]),
        **_fed_ids(t, division, int(row["round"] or 0), table),
    }
    for key, value in wanted.items():
        if value:
            tags[key] = _pdn_tag(value)
    order = [k for k in EVENT_TAGS if k in tags] + [k for k in tags if k not in EVENT_TAGS]
    return "\n".join([f'[{k} "{tags[k]}"]' for k in order] + lines[head:])


def _fed_ids(t: Tournament, division: str, rnd: int, table: int) -> dict[str, str]:
    """The players' federation IDs as PDN tags (as PGN's WhiteFideId), when they have one."""
    pairing = next((p for p in t.pairings(division, rnd) if p.table == table), None)
    if pairing is None:
        return {}
    players = t.players()
    sides = {"BlueFedId": pairing.blue, "RedFedId": pairing.red}
    return {tag: players[n].fed_id for tag, n in sides.items() if n is not None}


def with_fed_ids(sheet: Scoresheet, ids: tuple[str, str]) -> Scoresheet:
    """The board's sheet with the players' federation IDs (Blue's, Red's): the board knows the
    players' names, the event their IDs, and a federation's sheet carries both."""
    if not any(ids):
        return sheet
    blue, red = sheet.players
    return dataclasses.replace(
        sheet,
        players=(dataclasses.replace(blue, fed_id=ids[0]), dataclasses.replace(red, fed_id=ids[1])),
    )


def _with_id(name: str, fed_id: str) -> str:
    return f"{name} (federation ID {fed_id})" if fed_id else name


def _event_json(t: Tournament) -> dict[str, Any]:
    ev = t.event
    return {
        "event": {
            "name": ev.name,
            "date": ev.date,
            "venue": ev.venue,
            "variant": ev.variant,
            "profile": ev.profile,
            "time_control": ev.time_control,
            "points": {k: str(v) for k, v in vars(ev.points).items()},
            "tiebreaks": list(ev.tiebreaks),
            "initial_colour": ev.initial_colour,
        },
        "divisions": [vars(d) for d in t.divisions().values()],
        "players": [vars(p) for p in t.players().values()],
        "pairings": [vars(p) for p in t.pairings()],
        "results": [
            {
                "pairing": r.pairing,
                "outcome": r.result.outcome,
                "blue_score": None
                if r.result.blue_score is None
                else store_text(r.result.blue_score),
                "red_score": None if r.result.red_score is None else store_text(r.result.red_score),
                "source": r.result.source,
                "at": r.at,
                "by": r.by,
                "reason": r.reason,
            }
            for r in t.result_records()
        ],
        "boards": [vars(d) for d in t.store.dispatches()],
    }


def _typed_sheet(t: Tournament, division: str, rnd: int, table: int, names: tuple[str, str]) -> str:
    r = next(
        (
            rec
            for rec in reversed(t.result_records())
            if any(p.id == rec.pairing and p.table == table for p in t.pairings(division, rnd))
        ),
        None,
    )
    if r is None:
        shown = "no result yet"
    else:
        shown = OUTCOME_WORDS[r.result.outcome]
        if r.result.blue_score is not None:
            shown += (
                f" {score_text(r.result.blue_score, t.event.variant)} : "
                f"{score_text(r.result.red_score, t.event.variant)}"
            )
        shown += f" (recorded by {r.by}{': ' + r.reason if r.reason else ''})"
    return (
        f'<section class="typed"><h1>Round {rnd}, table {table}</h1>'
        f"<p>Blue: {e(names[0])}<br>Red: {e(names[1])}</p>"
        f"<p><b>{e(shown)}</b></p><p>No board record: the result was recorded by hand.</p>"
        "</section>"
    )


def _one_document(pages: list[str], title: str) -> str:
    """Scoresheet pages (whole HTML documents) as one printable document, a page each."""
    styles: list[str] = []
    bodies: list[str] = []
    for page in pages:
        if "<body>" in page:
            head, _, rest = page.partition("<body>")
            m = re.search(r"<style>(.*?)</style>", head, re.S)
            if m and not styles:
                styles.append(m.group(1))
            bodies.append(rest.partition("</body>")[0])
        else:
            bodies.append(page)
    joined = '<div style="break-after: page"></div>'.join(bodies)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
        f"<style>{''.join(styles)}</style></head><body>{joined}</body></html>"
    )


def _over(row: dict[str, Any]) -> bool:
    return (row["summary"] or {}).get("phase") == "over"


def build_zip(store: Store, t: Tournament) -> bytes:
    feeds = Feeds(store)
    root = _slug(t.event.name)
    buf = io.BytesIO()
    players = t.players()
    games_by_asg: dict[str, list[dict[str, Any]]] = {}
    for row in store.games():
        if row["assignment_id"]:
            games_by_asg.setdefault(row["assignment_id"], []).append(row)
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{root}/README.txt", README.format(name=t.event.name))
        z.writestr(f"{root}/event.json", json.dumps(_event_json(t), indent=2, ensure_ascii=False))
        z.writestr(f"{root}/log.json", json.dumps(t.log(), indent=2, ensure_ascii=False))
        for d in sorted(t.divisions()):
            folder = f"{root}/{_slug(d)}"
            div = t.division(d)
            table = t.standings(d)
            last = t.last_round(d)
            rows = export.standings_rows(table, t.event)
            key = export.standings_key(t.event)
            title = f"standings after round {last}"
            z.writestr(f"{folder}/standings.csv", export.to_csv(rows))
            z.writestr(f"{folder}/standings.html", export.html_page(title, t.event, d, rows, key))
            z.writestr(
                f"{folder}/standings.json",
                json.dumps(export.standings_json(table, t.event, d), indent=2, ensure_ascii=False),
            )
            if div.system == "round-robin":
                cross, ckey = export.grid_rows(table), export.GRID_KEY
            else:
                cross, ckey = export.crosstable_rows(table), export.CROSSTABLE_KEY
            z.writestr(f"{folder}/crosstable.csv", export.to_csv(cross))
            z.writestr(
                f"{folder}/crosstable.html",
                export.html_page(f"crosstable after round {last}", t.event, d, cross, ckey),
            )
            for rnd in range(1, last + 1):
                pdns, sheets = [], []
                for p in t.pairings(d, rnd):
                    if p.is_bye:
                        continue
                    ids = (players[p.blue].fed_id, players[p.red].fed_id if p.red else "")
                    names = (
                        _with_id(players[p.blue].name, ids[0]),
                        _with_id(players[p.red].name, ids[1]) if p.red else "",
                    )
                    played = []
                    for dispatch in seating.history(t, p.id):
                        played += [
                            g
                            for g in games_by_asg.get(dispatch.assignment, [])
                            if (g["summary"] or {}).get("ply") or _over(g)
                        ]  # a board set up and left: no game
                    for row in played:
                        text = tagged_pdn(feeds, row, t, d, p.table)
                        if not text:
                            continue
                        name = f"table-{p.table}_{row['board_id']}_{row['game_id']}.pdn"
                        z.writestr(f"{folder}/round-{rnd}/{name}", text)
                        pdns.append(text)
                        state = rebuild(store.records(row["board_id"], row["game_id"]))
                        sheet = state.sheet()
                        if sheet is not None and state.phase == "over":
                            sheets.append(render_html(with_fed_ids(sheet, ids)))
                    if not any(_over(g) for g in played):
                        sheets.append(_typed_sheet(t, d, rnd, p.table, names))
                z.writestr(f"{folder}/round-{rnd}/games.pdn", "\n\n".join(pdns) + "\n")
                z.writestr(
                    f"{folder}/round-{rnd}/scoresheets.html",
                    _one_document(sheets, f"{t.event.name}: {d}, round {rnd}"),
                )
    return buf.getvalue()
