"""The federation's public pages as HTML: the rating list, a player, the events and an event's
verdict. Plain server-made HTML (every value escaped) with the federation's one style sheet;
no script but the wall's own file (the Content-Security-Policy allows nothing else).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import urlencode

from controller.i18n import _, language
from controller.tournament.damath_scores import from_store, text

from .lists import AGE_GROUPS, Filters
from .ratings import POOLS


def e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def page(title: str, body: str, name: str) -> str:
    nav = " · ".join(
        f'<a href="{href}">{e(label)}</a>'
        for href, label in (
            ("/ratings", _("Rating list")),
            ("/events", _("Events")),
            ("/wall", _("Live boards")),
            ("/status", _("Status")),
        )
    )
    return (
        f'<!DOCTYPE html><html lang="{e(language())}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)} · {e(name)}</title>"
        f'<link rel="stylesheet" href="/static/fed.css"></head><body>'
        f"<header><strong>{e(name)}</strong> <nav>{nav}</nav></header>"
        f"<main><h1>{e(title)}</h1>{body}</main></body></html>"
    )


def table(head: list[str], rows: list[list[str]], cls: str = "", kinds: Sequence[str] = ()) -> str:
    """A table in a box of its own that scrolls sideways on a narrow screen, never the page;
    ``kinds``: each column's class (``wide``: left out on a phone)."""

    def k(i: int) -> str:
        return f' class="{kinds[i]}"' if i < len(kinds) and kinds[i] else ""

    th = "".join(f"<th{k(i)}>{e(h)}</th>" for i, h in enumerate(head))
    trs = "".join(
        "<tr>" + "".join(f"<td{k(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>" for row in rows
    )
    return (
        f'<div class="scroll"><table class="{cls}"><thead><tr>{th}</tr></thead>'
        f"<tbody>{trs}</tbody></table></div>"
    )


def rating_list(as_of: str, rows: list[dict[str, Any]], f: Filters, name: str) -> str:
    query = {
        k: v
        for k, v in (("pool", f.pool), ("region", f.region), ("school", f.school), ("age", f.age))
        if v and not (k == "pool" and v == "all")
    }
    if not f.provisional:
        query["established"] = "1"
    suffix = ("?" + urlencode(query)) if query else ""
    pools = "".join(
        f'<option value="{p}"{" selected" if p == f.pool else ""}>{e(pool_name(p))}</option>'
        for p in POOLS
    )
    ages = '<option value="">—</option>' + "".join(
        f"<option{' selected' if a == f.age else ''}>{a}</option>" for a in AGE_GROUPS
    )
    form = (
        '<form method="get" class="filters">'
        f'<label>{e(_("Pool"))} <select name="pool">{pools}</select></label> '
        f'<label>{e(_("Region"))} <input name="region" value="{e(f.region)}"></label> '
        f'<label>{e(_("School"))} <input name="school" value="{e(f.school)}"></label> '
        f'<label>{e(_("Age group"))} <select name="age">{ages}</select></label> '
        f'<label><input type="checkbox" name="established" value="1"'
        f"{'' if f.provisional else ' checked'}> {e(_('established ratings only'))}</label> "
        f"<button>{e(_('Show'))}</button></form>"
    )
    links = (
        f'<p class="formats"><a href="/ratings.csv{e(suffix)}">CSV</a> · '
        f'<a href="/ratings.json{e(suffix)}">JSON</a></p>'
    )
    if not rows:
        return page(_("Rating list"), form + f"<p>{e(_('No rated games yet.'))}</p>", name)
    body = [
        [
            e(r["rank"]),
            f'<a href="/players/{e(r["fed_id"])}">{e(r["name"])}</a>'
            f'<span class="sub">{e(" · ".join(x for x in (r["school"], r["region"]) if x))}'
            "</span>",
            e(r["fed_id"]),
            e(r["school"]),
            e(r["region"]),
            e(r["age_group"]),
            f"{r['rating']}{'?' if r['provisional'] else ''}",
            e(r["rd"]),
            e(r["games"]),
        ]
        for r in rows
    ]
    head = [
        _("Rank"),
        _("Name"),
        _("Federation ID"),
        _("School"),
        _("Region"),
        _("Age group"),
        _("Rating"),
        _("RD"),
        _("Games"),
    ]
    note = _("As of {period}. A rating marked ? is provisional (its deviation is above 110).")
    return page(
        _("Rating list"),
        form
        + links
        + f"<p>{e(note.format(period=as_of))}</p>"
        + table(head, body, "list", LIST_KINDS),
        name,
    )


LIST_KINDS = ("", "name", "wide", "wide", "wide", "wide", "rating", "", "")
"""The rating list's columns on a phone: rank, name (its school and region under it), rating,
RD and games; the ID, school, region and age group columns on a wider screen only."""


def pool_name(pool: str) -> str:
    names = {
        "all": _("every variant"),
        "integer": _("Counting, Whole and Integer"),
        "fraction": _("Fraction and Rational"),
        "radical": _("Radical"),
        "polynomial": _("Polynomial"),
    }
    return names.get(pool, pool)


def _score(raw: str | None, variant: str) -> str:
    return "" if raw is None else text(from_store(raw), variant)


def result_cells(r: dict[str, Any]) -> list[str]:
    outcome = OUTCOME_WORDS.get(r["outcome"], r["outcome"])
    scores = ""
    if r["blue_score"] is not None:
        scores = f"{_score(r['blue_score'], r['variant'])} : {_score(r['red_score'], r['variant'])}"
    note = ""
    if r["corrected"]:
        note = e(_("corrected: {reason}").format(reason=r["reason"] or "—"))
    elif not r["verified"] and r["outcome"] in ("blue", "red", "draw"):
        note = e(_("recorded by hand: {reason}").format(reason=r["reason"] or "—"))

    def who(side: str) -> str:
        fed_id = r[side]
        label = e(r[f"{side}_name"])
        return f'<a href="/players/{e(fed_id)}">{label}</a> ({e(fed_id)})' if fed_id else label

    return [
        e(r["event_id"]),
        e(r["round"]),
        e(r["table_no"]),
        who("blue"),
        who("red"),
        e(outcome),
        e(scores),
        note,
    ]


OUTCOME_WORDS = {
    "blue": "1–0",
    "red": "0–1",
    "draw": "½–½",
    "blue-forfeit": "+/−",
    "red-forfeit": "−/+",
    "double-forfeit": "−/−",
    "bye": "bye",
}


def player_page(p: dict[str, Any], name: str) -> str:
    facts = table(
        [_("Federation ID"), _("School"), _("Region"), _("Age group")],
        [[e(p["fed_id"]), e(p["school"]), e(p["region"]), e(p["age_group"])]],
    )
    now_rows = [
        [
            e(pool_name(pool)),
            f"{round(r['rating'])}{'?' if r['provisional'] else ''}",
            e(round(r["rd"])),
            e(r["games"]),
        ]
        for pool, r in sorted(p["ratings"].items(), key=lambda i: POOLS.index(i[0]))
    ]
    parts = [facts]
    if now_rows:
        parts.append(f"<h2>{e(_('Ratings as of {period}').format(period=p['as_of']))}</h2>")
        parts.append(table([_("Pool"), _("Rating"), _("RD"), _("Games")], now_rows))
    for pool, rows in p["history"].items():
        parts.append(f"<h2>{e(_('History: {pool}').format(pool=pool_name(pool)))}</h2>")
        parts.append(
            table(
                [_("Period"), _("Rating"), _("RD"), _("Won"), _("Drawn"), _("Lost")],
                [
                    [
                        e(r["period"]),
                        e(round(r["rating"])),
                        e(round(r["rd"])),
                        e(r["wins"]),
                        e(r["draws"]),
                        e(r["losses"]),
                    ]
                    for r in rows
                ],
            )
        )
    parts.append(f"<h2>{e(_('Results'))}</h2>")
    parts.append(table(result_head(), [result_cells(r) for r in p["results"]]))
    return page(p["name"], "".join(parts), name)


def result_head() -> list[str]:
    return [
        _("Event"),
        _("Round"),
        _("Table"),
        _("Blue"),
        _("Red"),
        _("Result"),
        _("Scores"),
        _("Note"),
    ]


def events_page(events: list[dict[str, Any]], name: str) -> str:
    rows = [
        [
            f'<a href="/events/{e(ev["id"])}">{e(ev["id"])}</a>',
            e(ev["name"]),
            e(ev["date"]),
            e(ev["region"]),
            e(state_words().get(ev["state"], ev["state"])),
        ]
        for ev in events
    ]
    head = [_("Event"), _("Name"), _("Date"), _("Region"), _("State")]
    return page(_("Events"), table(head, rows), name)


def state_words() -> dict[str, str]:
    return {
        "open": _("waiting for its results"),
        "accepted": _("accepted"),
        "refused": _("refused"),
    }


def event_page(
    ev: dict[str, Any],
    submissions: list[dict[str, Any]],
    results: list[dict[str, Any]],
    games: list[dict[str, Any]],
    name: str,
) -> str:
    parts = [
        f"<p>{e(ev['name'])} · {e(ev['date'])} · {e(ev['region'])} · "
        f"<b>{e(state_words().get(ev['state'], ev['state']))}</b></p>"
    ]
    for sub in reversed(submissions):
        verdict = _("accepted") if sub["verdict"] == "accepted" else _("refused")
        parts.append(
            f"<h2>{e(_('Submission {n}').format(n=sub['id']))}: {e(verdict)}</h2>"
            f"<p>{e(sub['received_at'])} · "
            f"{e(_('{games} games, {records} records').format(**sub))}</p>"
        )
        if sub["reasons"]:
            items = "".join(
                f"<li><b>{e(r['where'])}</b>: {e(r['reason'])}</li>" for r in sub["reasons"]
            )
            parts.append(f'<ul class="reasons">{items}</ul>')
        if sub["notes"]:
            items = "".join(
                f"<li><b>{e(r['where'])}</b>: {e(r['reason'])}</li>" for r in sub["notes"]
            )
            parts.append(f'<ul class="notes">{items}</ul>')
    if results:
        parts.append(f"<h2>{e(_('Results'))}</h2>")
        parts.append(table(result_head(), [result_cells(r) for r in results]))
    if games:
        parts.append(f"<h2>{e(_('Games verified'))}</h2>")
        parts.append(
            table(
                [_("Round"), _("Table"), _("Board"), _("Game"), _("Moves"), _("Records")],
                [
                    [
                        e(g["round"]),
                        e(g["table_no"]),
                        e(g["board"]),
                        f'<a href="/games/{e(g["id"])}.pdn">{e(g["game"])}</a>',
                        e(g["moves"]),
                        e(g["records"]),
                    ]
                    for g in games
                ],
            )
        )
    return page(_("Event {id}").format(id=ev["id"]), "".join(parts), name)


def wall_page(name: str, broker: dict[str, Any] | None) -> str:
    data = {
        "table": _("Table"),
        "round": _("Round"),
        "live": _("Live: each hall's top boards, as its hub sends them."),
        "lost": _("The connection is lost; trying again…"),
        "waiting": _("Their game has not started yet."),
        "previous": _("Previous game"),
        "lastgame": _("Last game on this board"),
        "empty": _("No hall's board has reached this wall yet."),
    }
    attrs = " ".join(f'data-{k}="{e(v)}"' for k, v in data.items())
    said = f'<p id="broker" class="note">{e(broker_words(None))}</p>' if broker is None else ""
    body = (
        f'{said}<p id="status">{e(_("Connecting…"))}</p><div id="halls" {attrs}></div>'
        '<script src="/static/wall.js"></script>'
    )
    return page(_("Live boards of every hall"), body, name)


def broker_words(broker: dict[str, Any] | None) -> str:
    """The wall's broker in one sentence: none set up, read from a node, or not reached."""
    if broker is None:
        return _(
            "No broker cluster is set up, so no hall's boards can reach this wall "
            "(federation init --broker-nodes …, docs/federation.md)."
        )
    if broker["node"]:
        return _("Reading every hall from the broker node {node} ({n} failovers).").format(
            node=broker["node"], n=broker["failovers"]
        )
    if broker["problem"]:
        return _("Not connected to the broker cluster: {problem}").format(problem=broker["problem"])
    return _("Connecting to the broker cluster…")


def _when(stamp: str) -> str:
    """An ISO time of the store's (UTC) as a person reads it: 2026-12-03 14:57:56 UTC."""
    return stamp.replace("T", " ").replace("+00:00", " UTC")


def status_page(found: dict[str, Any], name: str) -> str:
    store = found["store"]
    if store["ok"]:
        store_text = _("{kind}: answering.").format(kind=store["kind"])
    else:
        store_text = _(
            "{kind}: not answering since {since}; every page asks to try again in a moment."
        ).format(kind=store["kind"], since=_when(store["down_since"] or "—"))
    run = found["ratings"]
    if run is not None:
        run_text = _(
            "Last run {at}: {games} games of {players} players, the list as of {period}."
        ).format(
            at=_when(str(run["at"])),
            games=run["games"],
            players=run["players"],
            period=run["last_period"] or "—",
        )
    elif store["ok"]:
        run_text = _("No rating run yet.")
    else:
        run_text = _("Not known while the store does not answer.")
    wall = found["wall"]
    rows = [
        [e(_("Store")), f'<span class="{"ok" if store["ok"] else "down"}">{e(store_text)}</span>'],
        [e(_("Ratings")), e(run_text)],
        [e(_("Live boards")), e(broker_words(wall["broker"]))],
        [
            e(_("On the wall")),
            e(_("{boards} boards of {halls} halls").format(**wall)),
        ],
    ]
    facts = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return page(_("Status of the service"), f'<table class="status">{facts}</table>', name)
