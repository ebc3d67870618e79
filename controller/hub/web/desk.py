"""The arbiter's desk: the round's tables (pairing, board, live state, the board's result to
accept), corrections and games recorded by hand, a game moved to another board, standings, the
log; and for the organiser: pairing and publishing rounds, the boards' seats, the archive.

Behind a login (``accounts``): a session cookie (HttpOnly, SameSite=Strict) and a CSRF token in
every form, checked on every POST. Pages are plain HTML; a little JavaScript refreshes the live
cells. Every change goes through ``rounds`` and ``Tournament``, which log who and when.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from controller.tournament import boards as seating
from controller.tournament.games import DAMATH, GAMES, parse_game_score, tournament_game
from controller.tournament.model import (
    OUTCOMES,
    SYSTEMS,
    Division,
    Event,
    GameResult,
    TournamentError,
)
from controller.tournament.tournament import Tournament

from .. import rounds
from ..accounts import AccountError, Accounts, Session
from ..signing import record_signed
from . import desk_round, desk_table
from .edge import body_limit, csp_with_styles
from .page import (
    OUTCOME_WORDS,
    STATUS_WORDS,
    BadRequest,
    e,
    field,
    form,
    hidden,
    labelled,
    layout,
    select,
    table,
    whole,
)

if TYPE_CHECKING:
    from ..context import HubContext

COOKIE = "damath_desk"
LOGIN_COOKIE = "damath_login"
Page = Callable[[Request, Session], Awaitable[Response]]
Handler = Callable[[Request], Awaitable[Response]]
Action = Callable[[Tournament, dict[str, str], Session], str]


def _nav(s: Session) -> list[tuple[str, str]]:
    nav = [("/desk", "Round"), ("/desk/standings", "Standings"), ("/desk/log", "Log")]
    if s.organiser:
        nav += [
            ("/desk/players", "Players"),
            ("/desk/seats", "Boards"),
            ("/desk/archive.zip", "Archive"),
        ]
    return [*nav, ("/event", "Wall")]


def _logout_form(s: Session) -> str:
    return form("/desk/logout", s.csrf, "", "Log out", "logout")


def routes(ctx: HubContext) -> list[Route]:
    accounts = Accounts(ctx.folder)

    def secure(request: Request) -> bool:
        return request.url.scheme == "https"

    def login_required(fn: Page, organiser: bool = False, post: bool = False) -> Handler:
        async def endpoint(request: Request) -> Response:
            s = await run_in_threadpool(accounts.session, request.cookies.get(COOKIE))
            if s is None:
                if post:
                    return HTMLResponse("Log in first.", status_code=401)
                return RedirectResponse("/desk/login?" + urlencode({"next": request.url.path}), 303)
            if organiser and not s.organiser:
                return HTMLResponse("Only the organiser may do this.", status_code=403)
            if post:
                data = await _form(request)
                if data is None:
                    return HTMLResponse("The form is too large.", status_code=413)
                if not hmac.compare_digest(data.get("csrf", "").encode(), s.csrf.encode()):
                    return HTMLResponse(
                        "This form is out of date (or came from another site): reload the page.",
                        status_code=403,
                    )
                request.state.form = data
            return await fn(request, s)

        return endpoint

    # -- login ---------------------------------------------------------------------------

    async def login_page(request: Request) -> Response:
        token = secrets.token_urlsafe(16)
        message = request.query_params.get("err", "")
        nxt = request.query_params.get("next", "/desk")
        body = (
            (f'<p class="err">{e(message)}</p>' if message else "")
            + '<form method="post" action="/desk/login" class="login">'
            + hidden("csrf", token)
            + hidden("next", nxt if nxt.startswith("/desk") else "/desk")
            + '<label>Name <input name="name" autocomplete="username" required autofocus>'
            + '</label><label>Password <input name="password" type="password" '
            + 'autocomplete="current-password" required></label>'
            + '<button type="submit">Log in</button></form>'
        )
        resp = HTMLResponse(layout(f"{ctx.store.event_name or 'Damath'}: the desk", body))
        resp.set_cookie(
            LOGIN_COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=secure(request),
            path="/desk",
        )
        return resp

    async def login(request: Request) -> Response:
        data = await _form(request) or {}
        token = request.cookies.get(LOGIN_COOKIE, "")
        if not token or not hmac.compare_digest(data.get("csrf", "").encode(), token.encode()):
            return RedirectResponse("/desk/login?err=The+form+expired:+try+again", 303)
        try:
            address = request.client.host if request.client else ""
            session = await run_in_threadpool(
                accounts.login, data.get("name", ""), data.get("password", ""), address
            )
        except AccountError as exc:
            return RedirectResponse("/desk/login?" + urlencode({"err": str(exc)}), 303)
        nxt = data.get("next", "/desk")
        resp = RedirectResponse(nxt if nxt.startswith("/desk") else "/desk", 303)
        resp.set_cookie(
            COOKIE,
            session,
            httponly=True,
            samesite="strict",
            secure=secure(request),
            path="/",
            max_age=14 * 3600,
        )
        resp.delete_cookie(LOGIN_COOKIE, path="/desk")
        return resp

    async def logout(request: Request, s: Session) -> Response:
        await run_in_threadpool(accounts.logout, request.cookies.get(COOKIE, ""))
        resp = RedirectResponse("/desk/login", 303)
        resp.delete_cookie(COOKIE, path="/")
        return resp

    # -- the round -----------------------------------------------------------------------

    def choose(t: Tournament, request: Request) -> tuple[str, int]:
        divisions = t.divisions()
        name = request.query_params.get("division") or sorted(divisions)[0]
        d = t.division(name)
        raw = request.query_params.get("round", "")
        if raw and whole(raw) is None:
            raise BadRequest(f"round {raw!r}: a whole number")
        return d.name, whole(raw) or max(1, t.last_round(d.name))

    def round_page(request: Request, s: Session) -> str:
        with ctx.tournament() as t:
            division, rnd = choose(t, request)
            record_signed(ctx.store, t, division, rnd)
            rows = rounds.round_view(ctx.store, t, division, rnd, ctx.live.cards)
            last = t.last_round(division)
            total = t.total_rounds(division)
            boards = [b["id"] for b in ctx.store.boards()]
            head = desk_round.round_head(t, division, rnd, last, total, rows, s, _logout_form(s))
            body = _flash(request) + head + desk_round.round_table(rows, rnd, division, boards, s)
            title = f"{t.event.name}: round {rnd}"
        return layout(title, body, nav=_nav(s), user=s.name, script="desk.js")

    async def round_get(request: Request, s: Session) -> Response:
        if not (ctx.folder / "tournament.sqlite").exists():
            body = _flash(request) + (
                _create_form(s, ctx.store.event_name)
                if s.organiser
                else _no_event(ctx.store.event_name)
            )
            return HTMLResponse(layout("A new event", body, nav=_nav(s), user=s.name))
        try:
            return HTMLResponse(await run_in_threadpool(round_page, request, s))
        except (TournamentError, BadRequest) as exc:
            body = _flash(request) + f'<p class="err">{e(exc)}</p>'
            status = 400 if isinstance(exc, BadRequest) else 200
            return HTMLResponse(layout("The desk", body, nav=_nav(s), user=s.name), status)

    async def round_json(request: Request, s: Session) -> Response:
        def view() -> dict[str, Any]:
            with ctx.tournament() as t:
                division, rnd = choose(t, request)
                record_signed(ctx.store, t, division, rnd)
                rows = rounds.round_view(ctx.store, t, division, rnd, ctx.live.cards)
                for r in rows:
                    r["status_text"] = STATUS_WORDS.get(r["status"], r["status"])
                    r["live_text"] = desk_round.live_text(r)
                return {"division": division, "round": rnd, "tables": rows}

        try:
            return JSONResponse(await run_in_threadpool(view))
        except (TournamentError, BadRequest) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    # -- actions (POST, CSRF) ------------------------------------------------------------

    def act(fn: Action) -> Page:
        async def endpoint(request: Request, s: Session) -> Response:
            data: dict[str, str] = request.state.form
            back = data.get("back", "/desk")
            back = back if back.startswith("/desk") else "/desk"

            def run() -> str:
                with ctx.tournament() as t:
                    return fn(t, data, s)

            try:
                message = await run_in_threadpool(run)
                key = "msg"
            except TournamentError as exc:  # the fix named in the desk's own words
                message, key = exc.at_desk(), "err"
            except ValueError as exc:
                message, key = str(exc), "err"
            sep = "&" if "?" in back else "?"
            return RedirectResponse(back + sep + urlencode({key: message}), 303)

        return endpoint

    def _pid(data: dict[str, str]) -> int:
        pid = whole(data.get("pairing", ""))
        if pid is None:
            raise TournamentError("which game? (no pairing given)")
        return pid

    def _round(data: dict[str, str]) -> int:
        rnd = whole(data.get("round", ""))
        if rnd is None:
            raise TournamentError("which round? (a whole number)")
        return rnd

    def accept(t: Tournament, data: dict[str, str], s: Session) -> str:
        r = rounds.accept(ctx.store, t, _pid(data), f"{s.role} {s.name}")
        return f"accepted: {OUTCOME_WORDS[r.outcome]}"

    def uphold(t: Tournament, data: dict[str, str], s: Session) -> str:
        r = rounds.uphold(ctx.store, t, _pid(data), f"{s.role} {s.name}", data.get("note", ""))
        return f"the dispute is ruled: the board's result stands ({OUTCOME_WORDS[r.outcome]})"

    def start(t: Tournament, data: dict[str, str], s: Session) -> str:
        told = rounds.start_round(ctx, t, data.get("division"), _round(data), f"{s.role} {s.name}")
        return f"round started: {len(told)} board(s) told to start their clocks"

    def accept_all(t: Tournament, data: dict[str, str], s: Session) -> str:
        n = rounds.accept_round(
            ctx.store, t, data.get("division"), _round(data), f"{s.role} {s.name}"
        )
        return f"{n} result(s) accepted"

    def result(t: Tournament, data: dict[str, str], s: Session) -> str:
        outcome = data.get("outcome", "")
        if outcome not in OUTCOMES:
            raise TournamentError("choose a result")
        blue, red = data.get("blue", "").strip(), data.get("red", "").strip()
        pid = _pid(data)
        game = next((t.division(p.division).game for p in t.pairings() if p.id == pid), DAMATH)
        scores = (
            (parse_game_score(game, blue), parse_game_score(game, red))
            if blue or red
            else (None, None)
        )
        reason = data.get("reason", "").strip()
        sent = seating.dispatches(t).get(pid)
        if sent is not None and not reason:
            raise TournamentError(
                f"this game was sent to board {sent.board}: say why it is recorded by hand"
            )
        source = "arbiter" if data.get("decided") else "hand"
        if data.get("ruling") and not reason:
            raise TournamentError("a ruling on a dispute needs its reason: fill in Reason")
        t.record_result(
            pid,
            GameResult(outcome, scores[0], scores[1], source=source),
            by=f"{s.role} {s.name}",
            reason=reason,
        )
        if data.get("ruling"):
            t.store.log(f"{s.role} {s.name}", "dispute-ruling", pairing=pid, ruling="corrected",
                        outcome=outcome, reason=reason)  # fmt: skip
        return f"recorded: {OUTCOME_WORDS[outcome]}"

    def move(t: Tournament, data: dict[str, str], s: Session) -> str:
        board = data.get("board", "")
        rounds.move_pairing(ctx, t, _pid(data), board, f"{s.role} {s.name}", data.get("reason", ""))
        return f"sent to board {board}"

    def pair(t: Tournament, data: dict[str, str], s: Session) -> str:
        division = data.get("division") or None
        rnd = t.last_round(t.division(division).name) + 1
        t.pair(rnd, division=division, by=f"{s.role} {s.name}")
        return f"round {rnd} paired: check it, then send it to the boards"

    def publish(t: Tournament, data: dict[str, str], s: Session) -> str:
        plan = rounds.publish_round(
            ctx, t, data.get("division"), _round(data), f"{s.role} {s.name}"
        )
        return f"round sent to {len(plan)} board(s)"

    def seat(t: Tournament, data: dict[str, str], s: Session) -> str:
        if data.get("auto"):
            seating.auto_seats(t, [b["id"] for b in ctx.store.boards()], f"{s.role} {s.name}")
            return "every table has a board"
        table = whole(data.get("table", ""))
        if table is None:
            raise TournamentError("which table?")
        board = data.get("board") or None
        seating.set_seat(t, data.get("division", ""), table, board, f"{s.role} {s.name}")
        return f"table {table}: board {board or 'none'}"

    async def create(request: Request, s: Session) -> Response:
        data: dict[str, str] = request.state.form

        def run() -> str:
            rounds_raw = data.get("rounds", "").strip()
            drawn = data.get("colour", "draw") not in ("blue", "red")
            colour = secrets.choice(("blue", "red")) if drawn else data["colour"]
            team_raw = data.get("team_size", "3").strip()
            team_size = whole(team_raw, 20)
            if team_size is None:
                raise TournamentError(f"team size {team_raw!r}: a whole number from 0 to 20")
            event = Event(
                name=data.get("name", "").strip(),
                date=data.get("date", "").strip(),
                venue=data.get("venue", "").strip(),
                variant=data.get("variant", "integer"),
                time_control=data.get("time_control", "").strip(),
                initial_colour=colour,
                start=data.get("start", "desk"),
                team_size=team_size,
            )
            division = Division(
                data.get("division", "open").strip() or "open",
                data.get("system", "swiss"),
                whole(rounds_raw, 99) or 0,
                tournament_game(data.get("game", DAMATH)).name,
            )
            Tournament.create(ctx.folder, event, division, by=f"{s.role} {s.name}").close()
            return (
                f"event {event.name!r} created; pairing number 1 plays "
                f"{colour.capitalize()} in round 1" + (" (drawn by lot)" if drawn else "")
            )

        try:
            message, key = await run_in_threadpool(run), "msg"
        except TournamentError as exc:
            message, key = exc.at_desk(), "err"
        except ValueError as exc:
            message, key = str(exc), "err"
        target = "/desk/players" if key == "msg" else "/desk"
        return RedirectResponse(f"{target}?{urlencode({key: message})}", 303)

    def add_player(t: Tournament, data: dict[str, str], s: Session) -> str:
        raw = data.get("rating", "").strip()
        rating = whole(raw, 9999)
        if raw and rating is None:
            raise TournamentError(f"rating {raw!r}: a whole number up to 9999")
        division = data.get("division") or sorted(t.divisions())[0]
        p = t.add_player(
            data.get("name", ""), data.get("school", ""), division,
            rating, by=f"{s.role} {s.name}", grade=data.get("grade", ""),
        )  # fmt: skip
        return f"{p.name} added (number {p.id})"

    def edit_player(t: Tournament, data: dict[str, str], s: Session) -> str:
        player = whole(data.get("player", ""))
        if player is None:
            raise TournamentError("which player?")
        raw = data.get("rating", "").strip()
        rating = whole(raw, 9999)
        if raw and rating is None:
            raise TournamentError(f"rating {raw!r}: a whole number up to 9999, or empty")
        p = t.edit_player(
            player, by=f"{s.role} {s.name}", reason=data.get("reason", ""),
            name=data.get("name", ""), school=data.get("school", ""),
            grade=data.get("grade", ""), rating=rating,
        )  # fmt: skip
        return f"player {p.id} is now {p.name}" + "".join(
            f", {x}" for x in (p.school, p.grade) if x
        )

    def add_division(t: Tournament, data: dict[str, str], s: Session) -> str:
        """A division run side by side, with its game (docs/tournament.md, "A division's
        game"): another game's event on the same day is a division of the same event."""
        rounds_raw = data.get("rounds", "").strip()
        rounds = whole(rounds_raw, 99)
        if rounds_raw and rounds is None:
            raise TournamentError(f"rounds {rounds_raw!r}: a whole number up to 99")
        d = t.set_division(
            data.get("name", ""), data.get("system", "swiss"), rounds or 0,
            by=f"{s.role} {s.name}", game=data.get("game") or None,
        )  # fmt: skip
        return f"division {d.name}: {GAMES[d.game].title}, {d.system}" + (
            f", {d.rounds} rounds" if d.rounds else ""
        )

    def import_players(t: Tournament, data: dict[str, str], s: Session) -> str:
        added = t.import_players(data.get("csv", ""), by=f"{s.role} {s.name}")
        return f"{len(added)} player(s) added"

    def withdraw(t: Tournament, data: dict[str, str], s: Session) -> str:
        player = whole(data.get("player", ""))
        if player is None:
            raise TournamentError("which player?")
        p = t.withdraw(player, by=f"{s.role} {s.name}", reason=data.get("reason", ""))
        return f"{p.name} withdrawn: not paired after round {p.withdrawn_after}"

    def players_page(request: Request, s: Session) -> str:
        with ctx.tournament() as t:
            divisions = sorted(t.divisions())
            back = hidden("back", "/desk/players")
            rows = []
            for p in t.players().values():
                status = "" if p.withdrawn_after is None else f"withdrawn after {p.withdrawn_after}"
                edit = "<details><summary>Edit…</summary>" + form(
                    "/desk/player-edit", s.csrf,
                    hidden("player", p.id) + back
                    + field("name", "Name", p.name, size=16, required=True)
                    + field("school", "School", p.school, size=12)
                    + field("grade", "Grade", p.grade, size=7)
                    + field("rating", "Rating", "" if p.rating is None else str(p.rating), size=5)
                    + field("reason", "Reason", size=12),
                    "Save",
                ) + "</details>"  # fmt: skip
                action = edit
                if p.withdrawn_after is None:
                    action += "<details><summary>Withdraw…</summary>" + form(
                        "/desk/withdraw", s.csrf,
                        hidden("player", p.id) + back + field("reason", "Reason", size=14),
                        "Withdraw",
                    ) + "</details>"  # fmt: skip
                rows.append(
                    [e(p.id), e(p.name), e(p.school), e(p.grade), e(p.division),
                     e(p.rating or ""), e(status), action]
                )  # fmt: skip
            division = (
                select("division", [(d, d) for d in divisions], label="division")
                if len(divisions) > 1
                else hidden("division", divisions[0])
            )
            add = form(
                "/desk/player", s.csrf,
                back + field("name", "Name", size=18, required=True)
                + field("school", "School", size=14) + field("grade", "Grade", size=7)
                + division + field("rating", "Rating", size=5),
                "Add player",
            )  # fmt: skip
            games = [(g.name, g.title) for g in GAMES.values()]
            division_form = form(
                "/desk/division", s.csrf,
                back + field("name", "Division", size=12, required=True)
                + select("game", games, DAMATH, "game")
                + select("system", [(x, x) for x in SYSTEMS], "swiss", "system")
                + field("rounds", "Rounds", size=3),
                "Add the division",
            )  # fmt: skip
            shown = ", ".join(
                f"{d.name} ({GAMES[d.game].title}, {d.system})" for d in t.divisions().values()
            )
            csv_form = form(
                "/desk/import", s.csrf,
                back + '<label>CSV (name,school,grade,division,rating) <textarea name="csv" '
                'rows="4" cols="50"></textarea></label>',
                "Import",
            )  # fmt: skip
            body = (
                _flash(request)
                + f'<section class="head">{add}</section><details><summary>Import a list'
                + f"</summary>{csv_form}</details>"
                + f"<details><summary>Add a division (divisions: {e(shown)})</summary>"
                + f"{division_form}</details>"
                + '<div class="scroll">'
                + table(
                    ["No", "Name", "School", "Grade", "Division", "Rating", "", ""], rows, "players"
                )
                + "</div>"
            )
            return layout(f"{t.event.name}: players", body, nav=_nav(s), user=s.name)

    # -- other pages ---------------------------------------------------------------------

    def standings_page(request: Request, s: Session) -> str:
        from .event_wall import standings_html, teams_html

        with ctx.tournament() as t:
            body = "".join(standings_html(t, d) + teams_html(t, d) for d in sorted(t.divisions()))
            return layout(f"{t.event.name}: standings", body, nav=_nav(s), user=s.name)

    def log_page(request: Request, s: Session) -> str:
        with ctx.tournament() as t:
            rows = [
                [
                    e(x["at"]),
                    e(x["by"]),
                    e(x["action"]),
                    e(", ".join(f"{k}={v}" for k, v in x["detail"].items() if v not in (None, ""))),
                ]
                for x in reversed(t.log())
            ]
            body = '<div class="scroll">' + table(
                ["when (UTC)", "who", "what", "detail"], rows, "log"
            )
            body += "</div>"
            return layout(f"{t.event.name}: log", body, nav=_nav(s), user=s.name)

    def seats_page(request: Request, s: Session) -> str:
        with ctx.tournament() as t:
            boards = [("", "(none)")] + [(b["id"], b["id"]) for b in ctx.store.boards()]
            current = seating.seats(t)
            rows = []
            for name in sorted(t.divisions()):
                for tb in range(1, seating.tables_needed(t, name) + 1):
                    chosen = current.get((name, tb), "")
                    inner = (
                        hidden("division", name)
                        + hidden("table", tb)
                        + hidden("back", "/desk/seats")
                        + select("board", boards, chosen, f"board at table {tb}")
                    )
                    rows.append([e(name), e(tb), form("/desk/seat", s.csrf, inner, "Set")])
            auto = form(
                "/desk/seat",
                s.csrf,
                hidden("auto", "1") + hidden("back", "/desk/seats"),
                "Give every table without a board the next free board",
            )
            body = _flash(request) + auto + table(["Division", "Table", "Board"], rows, "seats")
            return layout(f"{t.event.name}: boards at tables", body, nav=_nav(s), user=s.name)

    def page(builder: Callable[[Request, Session], str]) -> Page:
        async def endpoint(request: Request, s: Session) -> Response:
            try:
                return HTMLResponse(await run_in_threadpool(builder, request, s))
            except (TournamentError, BadRequest) as exc:
                said = exc.at_desk() if isinstance(exc, TournamentError) else str(exc)
                body = f'<p class="err">{e(said)}</p>'
                status = 400 if isinstance(exc, BadRequest) else 200
                return HTMLResponse(layout("The desk", body, nav=_nav(s), user=s.name), status)

        return endpoint

    async def archive(request: Request, s: Session) -> Response:
        from ..archive import build_zip

        def build() -> tuple[bytes, str]:
            with ctx.tournament() as t:
                return build_zip(ctx.store, t), t.event.name

        data, name = await run_in_threadpool(build)
        filename = "".join(c if c.isalnum() else "-" for c in name).strip("-") or "event"
        return Response(
            data,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{filename}.zip"'},
        )

    def post(fn: Action, organiser: bool = False) -> Handler:
        return login_required(act(fn), organiser, post=True)

    # -- one table: the board's evidence, pausing it, its sheet --------------------------

    def table_page(request: Request, s: Session) -> str:
        with ctx.tournament() as t:
            title, body = desk_table.table_page(ctx, t, request.query_params.get("pairing", ""), s)
        return layout(title, _flash(request) + body, nav=_nav(s), user=s.name)

    async def sheet(request: Request, s: Session) -> Response:
        def build() -> str:
            with ctx.tournament() as t:
                return desk_table.sheet_html(ctx, t, request.query_params.get("pairing", ""))

        try:
            html = await run_in_threadpool(build)
        except (TournamentError, BadRequest) as exc:
            status = 400 if isinstance(exc, BadRequest) else 404
            return HTMLResponse(layout("The desk", f'<p class="err">{e(exc)}</p>'), status)
        # the printed sheet carries its own style sheet: allowed by its hash, nothing else
        return HTMLResponse(html, headers={"Content-Security-Policy": csp_with_styles(html)})

    def pause(t: Tournament, data: dict[str, str], s: Session) -> str:
        return desk_table.pause(ctx, t, data, s)

    async def pdn(request: Request, s: Session) -> Response:
        def build() -> tuple[str, str]:
            with ctx.tournament() as t:
                return desk_table.table_pdn(ctx, t, request.query_params.get("pairing", ""))

        try:
            text, name = await run_in_threadpool(build)
        except (TournamentError, BadRequest) as exc:
            status = 400 if isinstance(exc, BadRequest) else 404
            return HTMLResponse(layout("The desk", f'<p class="err">{e(exc)}</p>'), status)
        return Response(
            text,
            media_type="application/x-pdn; charset=utf-8",
            headers={"Content-Disposition": f'inline; filename="{name}"'},
        )

    async def printed(request: Request, s: Session) -> Response:
        """A list to print and pin up: the round's pairings, its find-your-table list, or the
        schools' ranking (``?what=``), in English or Filipino (``?lang=fil``)."""
        from controller.i18n import LANGUAGES, use
        from controller.tournament.printing import printed as build_page

        q = request.query_params
        what = q.get("what", "pairings")
        lang = q.get("lang", "en")
        if what not in ("pairings", "find-table", "teams") or lang not in LANGUAGES:
            return HTMLResponse(layout("The desk", '<p class="err">No such list.</p>'), 400)

        def build() -> str:
            with ctx.tournament() as t:
                division, rnd = choose(t, request)
                if what != "teams" and not t.pairings(division, rnd):
                    raise TournamentError(f"round {rnd} of division {division!r} is not paired")
                with use(lang):
                    return build_page(t, what, division, rnd)

        try:
            html = await run_in_threadpool(build)
        except (TournamentError, BadRequest) as exc:
            status = 400 if isinstance(exc, BadRequest) else 404
            return HTMLResponse(layout("The desk", f'<p class="err">{e(exc)}</p>'), status)
        return HTMLResponse(html, headers={"Content-Security-Policy": csp_with_styles(html)})

    return [
        Route("/desk/login", login_page, methods=["GET"]),
        Route("/desk/login", login, methods=["POST"]),
        Route("/desk/logout", login_required(logout, post=True), methods=["POST"]),
        Route("/desk", login_required(round_get)),
        Route("/desk/round.json", login_required(round_json)),
        Route("/desk/standings", login_required(page(standings_page))),
        Route("/desk/log", login_required(page(log_page))),
        Route("/desk/seats", login_required(page(seats_page), organiser=True)),
        Route("/desk/players", login_required(page(players_page), organiser=True)),
        Route("/desk/create", login_required(create, True, post=True), methods=["POST"]),
        Route("/desk/player", post(add_player, True), methods=["POST"]),
        Route("/desk/division", post(add_division, True), methods=["POST"]),
        Route("/desk/player-edit", post(edit_player, True), methods=["POST"]),
        Route("/desk/import", post(import_players, True), methods=["POST"]),
        Route("/desk/withdraw", post(withdraw, True), methods=["POST"]),
        Route("/desk/archive.zip", login_required(archive, organiser=True)),
        Route("/desk/accept", post(accept), methods=["POST"]),
        Route("/desk/uphold", post(uphold), methods=["POST"]),
        Route("/desk/start", post(start), methods=["POST"]),
        Route("/desk/accept-all", post(accept_all), methods=["POST"]),
        Route("/desk/result", post(result), methods=["POST"]),
        Route("/desk/move", post(move), methods=["POST"]),
        Route("/desk/pair", post(pair, True), methods=["POST"]),
        Route("/desk/publish", post(publish, True), methods=["POST"]),
        Route("/desk/seat", post(seat, True), methods=["POST"]),
        Route("/desk/table", login_required(page(table_page))),
        Route("/desk/sheet", login_required(sheet)),
        Route("/desk/pdn", login_required(pdn)),
        Route("/desk/print", login_required(printed)),
        Route("/desk/pause", post(pause), methods=["POST"]),
    ]


async def _form(request: Request) -> dict[str, str] | None:
    """The form's fields; None when it is over the route's limit (the edge refuses such a
    body by its length before it is read: this is the second line)."""
    body = await request.body()
    if len(body) > body_limit(request.url.path):
        return None
    parsed = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in parsed.items()}


def _flash(request: Request) -> str:
    out = ""
    if request.query_params.get("msg"):
        out += f'<p class="msg" role="status">{e(request.query_params["msg"])}</p>'
    if request.query_params.get("err"):
        out += f'<p class="err" role="alert">{e(request.query_params["err"])}</p>'
    return out


def _no_event(name: str) -> str:
    """What an arbiter sees before the event exists: who makes it, and where."""
    known = f" The hub was started for {e(name)}." if name else ""
    return (
        f"<p>No event yet.{known} The organiser creates it here (log in as the organiser: the "
        "desk asks for its name, date, system and rounds), or on the laptop with "
        "<code>damath-board hub event create</code>.</p>"
    )


def _create_form(s: Session, name: str) -> str:
    from controller.rules.damath_data import VALUE_KINDS

    inner = (
        field("name", "Event", name, size=28, required=True)
        + field("date", "Date (YYYY-MM-DD)", size=10)
        + field("venue", "Venue", size=20)
        + select("variant", [(v, v) for v in VALUE_KINDS], "integer", "variant")
        + field("time_control", "Time control", "20 min", size=10)
        + field("division", "First division", "open", size=12)
        + select("game", [(g.name, g.title) for g in GAMES.values()], DAMATH, "its game")
        + select("system", [(x, x) for x in SYSTEMS], "swiss", "system")
        + field("rounds", "Rounds", size=3)
        + select(
            "colour",
            [("draw", "draw by lot"), ("blue", "Blue"), ("red", "Red")],
            "draw",
            "pairing number 1 in round 1 plays",
        )
        + labelled(
            "Clocks start",
            select(
                "start",
                [
                    ("desk", "at the arbiter's start from the desk"),
                    ("table", "when each table is confirmed at its board"),
                ],
                "desk",
                "the clocks of a round start",
            ),
        )
        + field("team_size", "School team: best", "3", size=2)
    )
    known = f" (the hub was started for {e(name)})" if name else ""
    return f"<p>No event yet{known}. Create it:</p>" + form(
        "/desk/create", s.csrf, inner, "Create the event"
    )
