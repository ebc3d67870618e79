"""The whole event as one zip file: what an organiser keeps, sends to the federation or prints.

Per division: standings and crosstable (CSV, printable HTML, JSON), and per round every game the
boards played for a pairing as PDN (the board's own record with the event's tags added: event,
site, date, division, round, table, board, players), the round's games in one PDN file and the
round's scoresheets as one printable HTML file (a page per game; a game recorded by hand gets a
page with its typed result). At the top: the event's data (players, pairings, every result
record with its corrections, which board played which pairing) and the log.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from typing import Any

from controller.tournament import boards as seating
from controller.tournament import export, printing
from controller.tournament.damath_scores import store_text
from controller.tournament.model import ResultRecord
from controller.tournament.teams import team_standings
from controller.tournament.tournament import Tournament

from .feeds import Feeds
from .sheets import EVENT_TAGS, game_sheet, one_document, tagged_pdn, typed_sheet
from .store import Store

__all__ = ["EVENT_TAGS", "build_zip"]

README = """{name}: the event's archive

event.json        the event, divisions, players, pairings, every result record (corrections
                  kept, newest last) and which board played each pairing
log.json          every change: who, when, what, why
DIVISION/         standings and crosstable (.csv for a spreadsheet, .html to print on A4,
                  standings.json with exact Damath values), teams.csv and teams.html (the
                  schools' ranking)
DIVISION/round-N/ games.pdn (every game of the round), one .pdn per game
                  (table-T_board_game.pdn; a Mathematical Chess game's record is the board's
                  JSON, table-T_board_game.json), scoresheets.html (every sheet, a page each),
                  pairings.html and find-table.html (the lists pinned up for the players)

A result the arbiter corrected is the game's Result in its PDN (the board's own is kept as
BoardResult, the reason as ResultNote) and is framed on its scoresheet above the board's.
"""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "event"


def result_json(r: ResultRecord) -> dict[str, Any]:
    """One recorded result as the archive and a federation submission both carry it."""
    return {
        "pairing": r.pairing,
        "outcome": r.result.outcome,
        "blue_score": None if r.result.blue_score is None else store_text(r.result.blue_score),
        "red_score": None if r.result.red_score is None else store_text(r.result.red_score),
        "source": r.result.source,
        "at": r.at,
        "by": r.by,
        "reason": r.reason,
    }


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
            "start": ev.start,
            "team_size": ev.team_size,
        },
        "divisions": [vars(d) for d in t.divisions().values()],
        "players": [vars(p) for p in t.players().values()],
        "pairings": [vars(p) for p in t.pairings()],
        "results": [result_json(r) for r in t.result_records()],
        "boards": [vars(d) for d in t.store.dispatches()],
    }


def _over(row: dict[str, Any]) -> bool:
    return (row["summary"] or {}).get("phase") == "over"


def build_zip(store: Store, t: Tournament) -> bytes:
    feeds = Feeds(store)
    root = _slug(t.event.name)
    buf = io.BytesIO()
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
            when = t.progress(d).words()  # a round only paired is not over
            ev = t.event_for(d)  # the division's game: its tie-breaks, its scores' writing
            rows = export.standings_rows(table, ev)
            key = export.standings_key(ev)
            title = f"standings {when}"
            z.writestr(f"{folder}/standings.csv", export.to_csv(rows))
            z.writestr(f"{folder}/standings.html", export.html_page(title, ev, d, rows, key))
            z.writestr(
                f"{folder}/standings.json",
                json.dumps(export.standings_json(table, ev, d), indent=2, ensure_ascii=False),
            )
            if div.system == "round-robin":
                cross, ckey = export.grid_rows(table), export.GRID_KEY
            else:
                cross, ckey = export.crosstable_rows(table), export.CROSSTABLE_KEY
            z.writestr(f"{folder}/crosstable.csv", export.to_csv(cross))
            z.writestr(
                f"{folder}/crosstable.html",
                export.html_page(f"crosstable {when}", ev, d, cross, ckey),
            )
            teams = team_standings(table, t.event.team_size)
            if teams:
                z.writestr(
                    f"{folder}/teams.csv", export.to_csv(printing.team_rows(teams, ev.variant))
                )
                z.writestr(f"{folder}/teams.html", printing.teams_page(t, d))
            for rnd in range(1, last + 1):
                pdns, sheets = [], []
                for p in t.pairings(d, rnd):
                    if p.is_bye:
                        continue
                    played = []
                    for dispatch in seating.history(t, p.id):
                        played += [
                            g
                            for g in games_by_asg.get(dispatch.assignment, [])
                            if (g["summary"] or {}).get("ply") or _over(g)
                        ]  # a board set up and left: no game
                    for row in played:
                        text = tagged_pdn(feeds, store, row, t, p)
                        name = f"table-{p.table}_{row['board_id']}_{row['game_id']}"
                        exported = feeds.game_record(row)
                        if not text and exported is not None and exported[0] == "json":
                            # a game whose record is not PDN (Mathematical Chess): the board's
                            z.writestr(f"{folder}/round-{rnd}/{name}.json", exported[1])
                        if text:
                            z.writestr(f"{folder}/round-{rnd}/{name}.pdn", text)
                            pdns.append(text)
                        elif exported is None:
                            continue
                        if _over(row):  # every game's printed sheet, whatever its record
                            page = game_sheet(store, t, p, row)
                            if page is not None:
                                sheets.append(page)
                    if not any(_over(g) for g in played):
                        sheets.append(typed_sheet(t, p, unfinished=bool(played)))
                z.writestr(f"{folder}/round-{rnd}/games.pdn", "\n\n".join(pdns) + "\n")
                z.writestr(
                    f"{folder}/round-{rnd}/scoresheets.html",
                    one_document(sheets, f"{t.event.name}: {d}, round {rnd}"),
                )
                z.writestr(f"{folder}/round-{rnd}/pairings.html", printing.pairings_page(t, d, rnd))
                z.writestr(
                    f"{folder}/round-{rnd}/find-table.html", printing.find_table_page(t, d, rnd)
                )
    return buf.getvalue()
