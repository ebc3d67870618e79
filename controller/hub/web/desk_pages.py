"""The desk's pages: the round (and its JSON for the live cells), standings, the log, the
boards at tables, one table, and the documents it hands out (a game's sheet and PDN, the
lists to pin up, the event's archive)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from controller.i18n import LANGUAGES, use
from controller.tournament import boards as seating
from controller.tournament.hall_time import hall_time, hall_zone
from controller.tournament.model import TournamentError
from controller.tournament.printing import printed as build_list
from controller.tournament.tournament import Tournament

from .. import rounds
from ..accounts import Session
from ..archive import build_zip
from ..context import HubContext
from ..signing import record_signed
from . import desk_round, desk_table
from .desk_frame import Desk, desk_page, flash, logout_form, nav, not_found
from .desk_players import create_form, no_event
from .edge import csp_with_styles
from .event_wall import standings_html, teams_html
from .page import BadRequest, e, form, hidden, layout, select, status_text, table, whole

T = TypeVar("T")
LISTS = ("pairings", "find-table", "teams")
"""The lists to print (``/desk/print?what=``)."""


def choose(t: Tournament, request: Request) -> tuple[str, int]:
    """The division and round a page asks for: the first division and its last round by
    default."""
    divisions = t.divisions()
    name = request.query_params.get("division") or sorted(divisions)[0]
    d = t.division(name)
    raw = request.query_params.get("round", "")
    if raw and whole(raw) is None:
        raise BadRequest(f"round {raw!r}: a whole number")
    return d.name, whole(raw) or max(1, t.last_round(d.name))


def round_page(ctx: HubContext, request: Request, s: Session) -> str:
    with ctx.tournament() as t:
        division, rnd = choose(t, request)
        record_signed(ctx.store, t, division, rnd)
        rows = rounds.round_view(ctx.store, t, division, rnd, ctx.live.cards)
        last = t.last_round(division)
        total = t.total_rounds(division)
        boards = [b["id"] for b in ctx.store.boards()]
        head = desk_round.round_head(t, division, rnd, last, total, rows, s, logout_form(s))
        body = flash(request) + head + desk_round.round_table(rows, rnd, division, boards, s)
        title = f"{t.event.name}: round {rnd}"
    return layout(title, body, nav=nav(s), user=s.name, script="desk.js")


async def round_get(desk: Desk, request: Request, s: Session) -> Response:
    """The round's page; before the event exists, its form (for the organiser) or who makes
    it (for an arbiter)."""
    ctx = desk.ctx
    if not (ctx.folder / "tournament.sqlite").exists():
        body = flash(request) + (
            create_form(s, ctx.store.event_name) if s.organiser else no_event(ctx.store.event_name)
        )
        return HTMLResponse(desk_page("A new event", body, s))
    try:
        return HTMLResponse(await run_in_threadpool(round_page, ctx, request, s))
    except (TournamentError, BadRequest) as exc:
        body = flash(request) + f'<p class="err">{e(exc)}</p>'
        status = 400 if isinstance(exc, BadRequest) else 200
        return HTMLResponse(desk_page("The desk", body, s), status)


def round_view(ctx: HubContext, request: Request) -> dict[str, Any]:
    """The round's tables with the words the live cells show."""
    with ctx.tournament() as t:
        division, rnd = choose(t, request)
        record_signed(ctx.store, t, division, rnd)
        rows = rounds.round_view(ctx.store, t, division, rnd, ctx.live.cards)
        for r in rows:
            r["status_text"] = status_text(r)
            r["live_text"] = desk_round.live_text(r)
        return {"division": division, "round": rnd, "tables": rows}


async def round_json(desk: Desk, request: Request, s: Session) -> Response:
    try:
        return JSONResponse(await run_in_threadpool(round_view, desk.ctx, request))
    except (TournamentError, BadRequest) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)


def standings_page(ctx: HubContext, request: Request, s: Session) -> str:
    with ctx.tournament() as t:
        body = "".join(standings_html(t, d) + teams_html(t, d) for d in sorted(t.divisions()))
        return desk_page(f"{t.event.name}: standings", body, s)


def log_page(ctx: HubContext, request: Request, s: Session) -> str:
    with ctx.tournament() as t:
        rows = [
            [
                e(hall_time(x["at"])),
                e(x["by"]),
                e(x["action"]),
                e(", ".join(f"{k}={v}" for k, v in x["detail"].items() if v not in (None, ""))),
            ]
            for x in reversed(t.log())
        ]
        body = '<div class="scroll">' + table(
            [f"when ({hall_zone()}, the hall's time)", "who", "what", "detail"], rows, "log"
        )
        return desk_page(f"{t.event.name}: log", body + "</div>", s)


def seats_page(ctx: HubContext, request: Request, s: Session) -> str:
    with ctx.tournament() as t:
        boards = [("", "(none)")] + [(b["id"], b["id"]) for b in ctx.store.boards()]
        current = seating.seats(t)
        rows = []
        several = len(t.divisions()) > 1
        for name in sorted(t.divisions()):
            for tb in range(1, seating.tables_needed(t, name) + 1):
                which = f"board at table {tb}" + (f" of division {name}" if several else "")
                inner = (
                    hidden("division", name)
                    + hidden("table", tb)
                    + hidden("back", "/desk/seats")
                    + select("board", boards, current.get((name, tb), ""), which)
                )
                rows.append([e(name), e(tb), form("/desk/seat", s.csrf, inner, "Set")])
        auto = form(
            "/desk/seat",
            s.csrf,
            hidden("auto", "1") + hidden("back", "/desk/seats"),
            "Give every table without a board the next free board",
        )
        body = flash(request) + auto + table(["Division", "Table", "Board"], rows, "seats")
        return desk_page(f"{t.event.name}: boards at tables", body, s)


def table_page(ctx: HubContext, request: Request, s: Session) -> str:
    with ctx.tournament() as t:
        title, body = desk_table.table_page(ctx, t, request.query_params.get("pairing", ""), s)
    return desk_page(title, flash(request) + body, s)


async def document(build: Callable[[], T]) -> T | Response:
    """A document built in a worker thread (a sheet, a PDN, a list to print), or the page that
    says why it cannot be (400 for a malformed request, 404 for what does not exist)."""
    try:
        return await run_in_threadpool(build)
    except (TournamentError, BadRequest) as exc:
        return not_found(exc)


def styled(html: str) -> HTMLResponse:
    """A printed page with its own style sheet: allowed by its hash, nothing else."""
    return HTMLResponse(html, headers={"Content-Security-Policy": csp_with_styles(html)})


async def sheet(desk: Desk, request: Request, s: Session) -> Response:
    def build() -> str:
        with desk.ctx.tournament() as t:
            return desk_table.sheet_html(desk.ctx, t, request.query_params.get("pairing", ""))

    html = await document(build)
    return html if isinstance(html, Response) else styled(html)


async def pdn(desk: Desk, request: Request, s: Session) -> Response:
    def build() -> tuple[str, str]:
        with desk.ctx.tournament() as t:
            return desk_table.table_pdn(desk.ctx, t, request.query_params.get("pairing", ""))

    built = await document(build)
    if isinstance(built, Response):
        return built
    text, name = built
    return Response(
        text,
        media_type="application/x-pdn; charset=utf-8",
        headers={"Content-Disposition": f'inline; filename="{name}"'},
    )


async def printed(desk: Desk, request: Request, s: Session) -> Response:
    """A list to print and pin up: the round's pairings, its find-your-table list, or the
    schools' ranking (``?what=``), in English or Filipino (``?lang=fil``)."""
    q = request.query_params
    what = q.get("what", "pairings")
    lang = q.get("lang", "en")
    if what not in LISTS or lang not in LANGUAGES:
        return HTMLResponse(layout("The desk", '<p class="err">No such list.</p>'), 400)

    def build() -> str:
        with desk.ctx.tournament() as t:
            division, rnd = choose(t, request)
            if what != "teams" and not t.pairings(division, rnd):
                raise TournamentError(f"round {rnd} of division {division!r} is not paired")
            with use(lang):
                return build_list(t, what, division, rnd)

    html = await document(build)
    return html if isinstance(html, Response) else styled(html)


async def archive(desk: Desk, request: Request, s: Session) -> Response:
    def build() -> tuple[bytes, str]:
        with desk.ctx.tournament() as t:
            return build_zip(desk.ctx.store, t), t.event.name

    data, name = await run_in_threadpool(build)
    filename = "".join(c if c.isalnum() else "-" for c in name).strip("-") or "event"
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{filename}.zip"'},
    )
