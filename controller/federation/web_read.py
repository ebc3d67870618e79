"""The federation's public pages: the rating list (page, CSV, JSON, with its filters), a
player's history, the events with their verdicts, a game's PDN, the static files; and what a
hub reads to import a player by ID. Each a function of the site and the request."""

from __future__ import annotations

from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from controller.i18n import _

from . import lists, pages, registry
from .ids import check_id
from .web_site import Site, error

STATIC = {"fed.css": "text/css", "wall.js": "text/javascript"}
EVENT_FIELDS = ("id", "name", "date", "region", "state", "submission_id")
"""An event's fields in the JSON lists."""


def filters(request: Request) -> lists.Filters:
    q = request.query_params
    return lists.Filters(
        pool=q.get("pool") or "all",
        region=q.get("region", "")[:40],
        school=q.get("school", "")[:60],
        age=q.get("age", ""),
        provisional=q.get("established") != "1",
    ).check()


Listed = tuple[lists.Filters, str, list[dict[str, Any]]]


def rating_list(site: Site, request: Request) -> Listed | Response:
    """The list the request's filters ask for (as of when, its rows), or the refusal (400)."""
    try:
        f = filters(request)
    except ValueError as exc:
        return error(400, str(exc))
    as_of, rows = site.fed.rating_list(f)
    return f, as_of, rows


def ratings_page(site: Site, request: Request) -> Response:
    listed = rating_list(site, request)
    if isinstance(listed, Response):
        return listed
    f, as_of, rows = listed
    return HTMLResponse(pages.rating_list(as_of, rows, f, site.name))


def ratings_csv(site: Site, request: Request) -> Response:
    listed = rating_list(site, request)
    if isinstance(listed, Response):
        return listed
    return Response(
        lists.to_csv(listed[2]),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="ratings.csv"'},
    )


def ratings_json(site: Site, request: Request) -> Response:
    listed = rating_list(site, request)
    if isinstance(listed, Response):
        return listed
    f, as_of, rows = listed
    return JSONResponse(
        {"v": 1, "as_of": as_of, "pool": f.pool, "region": f.region, "school": f.school,
         "age": f.age, "players": rows}
    )  # fmt: skip


def player(site: Site, request: Request) -> Response:
    raw = request.path_params["fed_id"]
    as_json = raw.endswith(".json")
    try:
        fed_id = check_id(raw.removesuffix(".json"))
    except ValueError as exc:
        return error(404, str(exc))
    p = site.fed.player(fed_id)
    if p is None:
        return error(404, _("no player {id} in the registry").format(id=fed_id))
    if as_json:
        return JSONResponse(p)
    return HTMLResponse(pages.player_page(p, site.name))


def api_player(site: Site, request: Request) -> Response:
    """What a hub reads to import a player by ID (never the birth year)."""
    try:
        fed_id = check_id(request.path_params["fed_id"])
    except ValueError as exc:
        return error(404, str(exc))
    p = site.fed.store.player(fed_id)
    if p is None:
        return error(404, _("no player {id} in the registry").format(id=fed_id))
    return JSONResponse(registry.public(p))


def events(site: Site, request: Request) -> Response:
    rows = site.fed.store.events()
    if request.url.path.endswith(".json"):
        return JSONResponse({"v": 1, "events": [{k: r[k] for k in EVENT_FIELDS} for r in rows]})
    return HTMLResponse(pages.events_page(rows, site.name))


def event(site: Site, request: Request) -> Response:
    raw = request.path_params["event_id"]
    as_json = raw.endswith(".json")
    ev = site.fed.store.event(raw.removesuffix(".json"))
    if ev is None:
        return error(404, _("no such event"))
    subs = site.fed.store.submissions(ev["id"])
    results = site.fed.store.results(event_id=ev["id"])
    games = site.fed.store.games(ev["id"])
    if as_json:
        return JSONResponse(
            {
                "v": 1,
                "event": {k: ev[k] for k in EVENT_FIELDS},
                "submissions": subs,
                "results": results,
                "games": games,
            }
        )
    return HTMLResponse(pages.event_page(ev, subs, results, games, site.name))


def game_pdn(site: Site, request: Request) -> Response:
    raw = request.path_params["game"]
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        return error(404, _("no such game"))
    text = site.fed.store.game_pdn(int(raw))
    if text is None:
        return error(404, _("no such game"))
    return PlainTextResponse(text, media_type="application/x-pdn; charset=utf-8")


def static(site: Site, request: Request) -> Response:
    file = request.path_params["file"]
    if file not in STATIC:
        return error(404, _("no such file"))
    data = resources.files("controller.federation").joinpath("static", file).read_bytes()
    return Response(data, media_type=STATIC[file])


def home(site: Site, request: Request) -> Response:
    return Response(status_code=303, headers={"location": "/ratings"})
