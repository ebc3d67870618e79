"""The organiser's event at the desk: creating it, its divisions, its players (added,
imported from a list, edited, withdrawn) and the page that shows them."""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from controller.rules.damath_data import VALUE_KINDS
from controller.tournament.games import DAMATH, GAMES, tournament_game
from controller.tournament.model import SYSTEMS, Division, Event, Player, TournamentError
from controller.tournament.tournament import Tournament

from ..accounts import Session
from ..context import HubContext
from .desk_frame import Desk, by, desk_page, flash
from .page import e, field, form, hidden, labelled, select, table, whole

Form = dict[str, str]
COLUMNS = ["No", "Name", "School", "Grade", "Division", "Rating"]


def new_event(ctx: HubContext, data: Form, s: Session) -> str:
    """The event and its first division from the desk's form; the first colour drawn by lot
    unless the organiser chose it."""
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
    Tournament.create(ctx.folder, event, division, by=by(s)).close()
    return (
        f"event {event.name!r} created; pairing number 1 plays "
        f"{colour.capitalize()} in round 1" + (" (drawn by lot)" if drawn else "")
    )


async def create(desk: Desk, request: Request, s: Session) -> Response:
    """The event created; then on to its players (or back to the form with the fix)."""
    try:
        message, key = await run_in_threadpool(new_event, desk.ctx, request.state.form, s), "msg"
    except TournamentError as exc:
        message, key = exc.at_desk(), "err"
    except ValueError as exc:
        message, key = str(exc), "err"
    target = "/desk/players" if key == "msg" else "/desk"
    return RedirectResponse(f"{target}?{urlencode({key: message})}", 303)


def _rating(raw: str, what: str) -> int | None:
    rating = whole(raw.strip(), 9999)
    if raw.strip() and rating is None:
        raise TournamentError(f"rating {raw.strip()!r}: a whole number up to 9999{what}")
    return rating


def add_player(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    rating = _rating(data.get("rating", ""), "")
    division = data.get("division") or sorted(t.divisions())[0]
    p = t.add_player(
        data.get("name", ""), data.get("school", ""), division,
        rating, by=by(s), grade=data.get("grade", ""),
    )  # fmt: skip
    return f"{p.name} added (number {p.id})"


def edit_player(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    player = whole(data.get("player", ""))
    if player is None:
        raise TournamentError("which player?")
    rating = _rating(data.get("rating", ""), ", or empty")
    p = t.edit_player(
        player, by=by(s), reason=data.get("reason", ""),
        name=data.get("name", ""), school=data.get("school", ""),
        grade=data.get("grade", ""), rating=rating,
    )  # fmt: skip
    return f"player {p.id} is now {p.name}" + "".join(f", {x}" for x in (p.school, p.grade) if x)


def add_division(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    """A division run side by side, with its game (docs/tournament.md, "A division's
    game"): another game's event on the same day is a division of the same event."""
    rounds_raw = data.get("rounds", "").strip()
    rounds = whole(rounds_raw, 99)
    if rounds_raw and rounds is None:
        raise TournamentError(f"rounds {rounds_raw!r}: a whole number up to 99")
    d = t.set_division(
        data.get("name", ""), data.get("system", "swiss"), rounds or 0,
        by=by(s), game=data.get("game") or None,
    )  # fmt: skip
    return f"division {d.name}: {GAMES[d.game].title}, {d.system}" + (
        f", {d.rounds} rounds" if d.rounds else ""
    )


def import_players(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    added = t.import_players(data.get("csv", ""), by=by(s))
    return f"{len(added)} player(s) added"


def withdraw(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    player = whole(data.get("player", ""))
    if player is None:
        raise TournamentError("which player?")
    p = t.withdraw(player, by=by(s), reason=data.get("reason", ""))
    return f"{p.name} withdrawn: not paired after round {p.withdrawn_after}"


def _player_row(p: Player, s: Session, back: str) -> list[str]:
    status = "" if p.withdrawn_after is None else f"withdrawn after {p.withdrawn_after}"
    action = "<details><summary>Edit…</summary>" + form(
        "/desk/player-edit", s.csrf,
        hidden("player", p.id) + back
        + field("name", "Name", p.name, size=16, required=True)
        + field("school", "School", p.school, size=12)
        + field("grade", "Grade", p.grade, size=7)
        + field("rating", "Rating", "" if p.rating is None else str(p.rating), size=5)
        + field("reason", "Reason", size=12),
        "Save",
    ) + "</details>"  # fmt: skip
    if p.withdrawn_after is None:
        action += "<details><summary>Withdraw…</summary>" + form(
            "/desk/withdraw", s.csrf,
            hidden("player", p.id) + back + field("reason", "Reason", size=14),
            "Withdraw",
        ) + "</details>"  # fmt: skip
    return [e(p.id), e(p.name), e(p.school), e(p.grade), e(p.division),
            e(p.rating or ""), e(status), action]  # fmt: skip


def players_page(ctx: HubContext, request: Request, s: Session) -> str:
    with ctx.tournament() as t:
        divisions = sorted(t.divisions())
        back = hidden("back", "/desk/players")
        rows = [_player_row(p, s, back) for p in t.players().values()]
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
            flash(request)
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
        return desk_page(f"{t.event.name}: players", body, s)


def no_event(name: str) -> str:
    """What an arbiter sees before the event exists: who makes it, and where."""
    known = f" The hub was started for {e(name)}." if name else ""
    return (
        f"<p>No event yet.{known} The organiser creates it here (log in as the organiser: the "
        "desk asks for its name, date, system and rounds), or on the laptop with "
        "<code>damath-board hub event create</code>.</p>"
    )


def create_form(s: Session, name: str) -> str:
    """The organiser's form for a new event and its first division."""
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
