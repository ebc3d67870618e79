"""What the organiser prints and pins up for the players: a round's pairings by table, the same
round as an alphabetical "find your table" list, and the schools' ranking. Each is rows (for a
CSV) and one A4 page (print CSS, no script, nothing from the network), made to fit one page for
a division of up to 40 players; the words follow the language in force (``--lang fil``).

Pure functions of the tournament's records, like the standings: what is printed is what the
desk and the wall show.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from controller.i18n import _, language

from .boards import dispatches, seats
from .damath_scores import text
from .export import points_text
from .model import Event, GameResult, Player
from .teams import TeamStanding, team_standings
from .tournament import Tournament

RESULT_SIGNS = {
    "blue": "1 – 0",
    "red": "0 – 1",
    "draw": "½ – ½",
    "blue-forfeit": "+ – −",
    "red-forfeit": "− – +",
    "double-forfeit": "− – −",
    "bye": "",
}
"""A result as the pairings lists of every Swiss program write it, Blue's side first."""


@dataclass(frozen=True)
class Seat:
    """One player's place in a round: the find-your-table line."""

    player: Player
    table: int | None
    colour: str  # "blue", "red", or "" for the bye
    opponent: Player | None


def sort_key(name: str) -> str:
    """Alphabetical as a list pinned on a wall is read: case and accents aside."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _board_of(t: Tournament) -> dict[int, str]:
    """Pairing → the board it is played on (sent), else its table's seat."""
    sent = dispatches(t)
    seated = seats(t)
    return {
        p.id: sent[p.id].board if p.id in sent else seated.get((p.division, p.table), "")
        for p in t.pairings()
    }


def _person(p: Player) -> str:
    return p.name + (f" ({p.school})" if p.school else "")


def _result(r: GameResult | None) -> str:
    return "" if r is None else RESULT_SIGNS[r.outcome]


def pairings_rows(t: Tournament, division: str, rnd: int) -> list[list[str]]:
    """Table, board, Blue (school), Red (school), result: the round by table."""
    players = t.players()
    results = t.results()
    board = _board_of(t)
    rows = [[_("Table"), _("Board"), _("Blue (moves first)"), _("Red"), _("Result")]]
    for p in t.pairings(division, rnd):
        red = _("bye") if p.red is None else _person(players[p.red])
        rows.append(
            [
                str(p.table) if not p.is_bye else "",
                board.get(p.id, "") if not p.is_bye else "",
                _person(players[p.blue]),
                red,
                _result(results.get(p.id)) if not p.is_bye else "",
            ]
        )
    return rows


def seats_of(t: Tournament, division: str, rnd: int) -> list[Seat]:
    """Every player of the round, alphabetically: where they sit and against whom."""
    players = t.players()
    out = []
    for p in t.pairings(division, rnd):
        if p.red is None:
            out.append(Seat(players[p.blue], None, "", None))
            continue
        out.append(Seat(players[p.blue], p.table, "blue", players[p.red]))
        out.append(Seat(players[p.red], p.table, "red", players[p.blue]))
    return sorted(out, key=lambda s: (sort_key(s.player.name), s.player.id))


def find_table_rows(t: Tournament, division: str, rnd: int) -> list[list[str]]:
    rows = [[_("Name"), _("School"), _("Table"), _("Plays"), _("Against")]]
    for s in seats_of(t, division, rnd):
        colour = {"blue": _("Blue"), "red": _("Red"), "": _("bye")}[s.colour]
        rows.append(
            [
                s.player.name,
                s.player.school,
                "" if s.table is None else str(s.table),
                colour,
                "" if s.opponent is None else s.opponent.name,
            ]
        )
    return rows


def team_rows(teams: Sequence[TeamStanding], variant: str, sep: str = ", ") -> list[list[str]]:
    """Rank, school, points, score difference and the players counted (``sep`` between
    them: the printed page puts each on a line of its own)."""
    rows = [[_("Rank"), _("School"), _("Points"), _("Score difference"), _("Players counted")]]
    for team in teams:
        space = "\u00a0" if "\n" in sep else " "  # a line per player: its points stay on it
        counted = sep.join(f"{s.player.name}{space}({points_text(s.points)})" for s in team.counted)
        rows.append(
            [
                f"{team.rank}=" if team.shared else str(team.rank),
                team.school,
                points_text(team.points),
                text(team.score_diff, variant),
                counted,
            ]
        )
    return rows


def teams_key(event: Event) -> str:
    return _(
        "A school's team score is the sum of its best {n} players' points in this division (the"
        " order of the individual standings). Ties: the counted players' Damath score difference,"
        " then the best individual rank among them; still equal: “=”, a shared rank."
    ).format(n=event.team_size)


# --------------------------------------------------------------------------------------------

_CSS = """
@page { size: A4 portrait; margin: 12mm 12mm; }
* { box-sizing: border-box; }
body { font: {size}pt/1.2 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 1.5em; margin: 0 0 1mm; }
p.meta { margin: 0 0 3mm; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.3mm solid #444; padding: 0.5mm 1.5mm; text-align: left; vertical-align: top; }
th { background: #e6e6e6; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
td.n, th.n { text-align: center; white-space: nowrap; width: 1%; }
th.n { white-space: normal; }
td.name { font-weight: bold; }
td.lines { white-space: pre-line; width: 48%; }
td.keep, th.keep { white-space: nowrap; }
tr { break-inside: avoid; }
thead { display: table-header-group; }
p.key { font-size: 0.8em; color: #222; margin-top: 2mm; }
@media screen { body { max-width: 190mm; margin: 8mm auto; padding: 0 4mm; } }
@media screen and (max-width: 640px) {
  body { font-size: 11px; margin: 3mm auto; padding: 0 2mm; }
  th, td { padding: 0.5mm 1mm; overflow-wrap: anywhere; }
  td.keep, th.keep, td.n, th.n { white-space: normal; }
}
"""


def _size(rows: int) -> float:
    """The type size that keeps a list of ``rows`` on one A4 page, and large when it can be."""
    if rows <= 12:
        return 14
    if rows <= 22:
        return 12
    if rows <= 32:
        return 10.5
    return 9.5


def page(
    title: str,
    event: Event,
    division: str,
    rows: list[list[str]],
    *,
    centred: Sequence[int] = (),
    bold: Sequence[int] = (),
    lines: Sequence[int] = (),
    keep: Sequence[int] = (),
    key: str = "",
) -> str:
    """One printable A4 page: ``rows[0]`` is the header (repeated if the list ever runs over);
    columns ``centred``, ``bold``, written on several ``lines``, or kept on one (``keep``)."""
    head, body = rows[0], rows[1:]
    styles = (("n", centred), ("name", bold), ("lines", lines), ("keep", keep))

    def cls(i: int) -> str:
        names = [name for name, columns in styles if i in columns]
        return f' class="{" ".join(names)}"' if names else ""

    division_words = _("division {name}").format(name=division)
    meta = " · ".join(x for x in (event.name, event.date, event.venue, division_words) if x)
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{language()}"><head><meta charset="utf-8">',
        f"<title>{html.escape(event.name)}: {html.escape(title)}</title>",
        f"<style>{_CSS.replace('{size}', f'{_size(len(body)):g}')}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="meta">{html.escape(meta)}</p>',
        "<table><thead><tr>"
        + "".join(f"<th{cls(i)}>{html.escape(h)}</th>" for i, h in enumerate(head))
        + "</tr></thead><tbody>",
    ]
    for row in body:
        out.append(
            "<tr>" + "".join(f"<td{cls(i)}>{html.escape(c)}</td>" for i, c in enumerate(row))
        )
    out.append("</tbody></table>")
    if key:
        out.append(f'<p class="key">{html.escape(key)}</p>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def pairings_page(t: Tournament, division: str, rnd: int) -> str:
    title = _("Round {round}: pairings").format(round=rnd)
    key = _("Blue moves first. Result: Blue's points first (1 – 0 Blue wins; + – − a forfeit).")
    rows = pairings_rows(t, division, rnd)
    return page(title, t.event, division, rows, centred=(0, 1, 4), keep=(4,), key=key)


def find_table_page(t: Tournament, division: str, rnd: int) -> str:
    title = _("Round {round}: find your table").format(round=rnd)
    rows = find_table_rows(t, division, rnd)
    return page(title, t.event, division, rows, centred=(2, 3), bold=(0,), keep=(2, 3))


def teams_page(t: Tournament, division: str) -> str:
    now = t.progress(division)  # a round only paired is not over
    if now.under_way is not None:
        title = _("Schools so far: round {round} under way, {done} of {all} results in").format(
            round=now.under_way, done=now.done, all=now.total
        )
    elif now.complete:
        title = _("Schools after round {round}").format(round=now.complete)
    else:
        title = _("Schools")
    teams = team_standings(t.standings(division), t.event.team_size)
    rows = team_rows(teams, t.event.variant, sep="\n")
    return page(
        title, t.event, division, rows, centred=(0, 2, 3), bold=(1,), lines=(4,),
        key=teams_key(t.event),
    )  # fmt: skip


def printed(t: Tournament, what: str, division: str, rnd: int) -> str:
    """``pairings``, ``find-table`` or ``teams`` as its page."""
    if what == "pairings":
        return pairings_page(t, division, rnd)
    if what == "find-table":
        return find_table_page(t, division, rnd)
    return teams_page(t, division)
