"""The event's wall for the hall's screen, no login: each division's pairings of the current
round (table, board, players, result), the standings with the results so far (its title says
how far: "after round 2", or "round 3 under way: 4 of 8 results"), what each tie-break column
means, and the schools' ranking; large, refreshed every 15 s. Read only: no form, no action.
Its words follow the hub's language, or ``?lang=fil`` for a hall that reads Filipino."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from controller.i18n import LANGUAGES, N_, _, language, use
from controller.tournament import boards as seating
from controller.tournament.damath_scores import text as score_text
from controller.tournament.export import points_text, value_text
from controller.tournament.games import GAMES
from controller.tournament.model import TournamentError
from controller.tournament.standings import SHORT
from controller.tournament.teams import team_standings
from controller.tournament.tournament import Tournament

from .page import e, layout, table

if TYPE_CHECKING:
    from ..context import HubContext

REFRESH = 15

RESULT_WORDS = {
    "blue": N_("Blue wins"),
    "red": N_("Red wins"),
    "draw": N_("Draw"),
    "blue-forfeit": N_("Blue wins by forfeit"),
    "red-forfeit": N_("Red wins by forfeit"),
    "double-forfeit": N_("Both forfeit"),
    "bye": N_("Bye"),
}
TIEBREAK_WORDS = {
    "score-diff": N_("Damath score difference: points scored minus points conceded, every game"),
    "score-total": N_("total Damath score, every game"),
    "buchholz": N_("Buchholz: the opponents' points"),
    "buchholz-cut1": N_("Buchholz cut 1: the opponents' points, the lowest left out"),
    "sonneborn-berger": N_(
        "Sonneborn-Berger: the points of the opponents beaten, half of those drawn"
    ),
    "direct": N_("direct encounter: the games among the players still tied"),
    "wins": N_("games won at the board"),
    "red-games": N_("games played with Red"),
}
"""What each tie-break column means, in a spectator's words (the short names head the table)."""


def standings_title(t: Tournament, division: str) -> str:
    """What is true of the standings now: complete after a round, or a round under way."""
    now = t.progress(division)
    if now.under_way is not None:
        return _("Standings so far: round {round} under way, {done} of {all} results in").format(
            round=now.under_way, done=now.done, all=now.total
        )
    if not now.complete:
        return _("Standings: no round paired yet")
    return _("Standings after round {round}").format(round=now.complete)


def division_heading(t: Tournament, division: str) -> str:
    """``Division open``; where the event's divisions play more than one game, each names its
    game (they share the hall's screen): ``Division chess · Mathematical Chess``."""
    heading = _("Division {name}").format(name=division)
    if len({d.game for d in t.divisions().values()}) < 2:
        return heading
    return f"{heading} · {_(GAMES[t.division(division).game].title)}"


def standings_html(t: Tournament, division: str) -> str:
    table_ = t.standings(division)
    ev = t.event_for(division)  # the division's game: its tie-breaks, its scores' writing
    order = ev.tiebreaks
    head = [_("Rank"), _("No"), _("Name"), _("School"), _("Points")] + [SHORT[x] for x in order]
    rows = []
    for s in table_:
        rank = f"{s.rank}=" if s.shared else str(s.rank)
        name = s.player.name + (
            " " + _("(withdrawn)") if s.player.withdrawn_after is not None else ""
        )
        rows.append(
            [rank, str(s.player.id), name, s.player.school, points_text(s.points)]
            + [value_text(s.tiebreaks.get(x, ""), ev.variant) for x in order]
        )
    legend = " · ".join(f"<b>{e(SHORT[x])}</b>: {e(_(TIEBREAK_WORDS[x]))}" for x in order)
    points = t.event.points
    scoring = _("Points: win {win}, draw {draw}, loss {loss}, bye {bye}.").format(
        win=points_text(points.win), draw=points_text(points.draw),
        loss=points_text(points.loss), bye=points_text(points.bye),
    )  # fmt: skip
    heading = division_heading(t, division)
    ties = _("Ties are split in this order:")
    return (
        f'<section class="standings"><h2>{e(heading)} · '
        f"{e(standings_title(t, division))}</h2>"
        + '<div class="scroll">'
        + table([e(h) for h in head], [[e(c) for c in r] for r in rows], "standings")
        + "</div>"
        + f'<p class="legend">{e(scoring)} {e(ties)} {legend}.</p>'
        + "</section>"
    )


def teams_html(t: Tournament, division: str) -> str:
    """The schools' ranking of the division (none when the event has no team ranking)."""
    teams = team_standings(t.standings(division), t.event.team_size)
    if not teams:
        return ""
    rows = []
    for team in teams:
        rows.append(
            [
                e(f"{team.rank}=" if team.shared else str(team.rank)),
                e(team.school),
                e(points_text(team.points)),
                e(score_text(team.score_diff, t.event_for(division).variant)),
                e(
                    ", ".join(
                        f"{s.player.name}\u00a0({points_text(s.points)})" for s in team.counted
                    )
                ),
            ]
        )
    title = _("Schools: the best {n} players of each").format(n=t.event.team_size)
    head = [_("Rank"), _("School"), _("Points"), _("Diff"), _("Players counted")]
    note = _(
        "Ties: the counted players' Damath score difference (Diff), then the best individual rank."
    )
    heading = division_heading(t, division)
    return (
        f'<section class="teams"><h2>{e(heading)} · '
        f"{e(title)}</h2>"
        + '<div class="scroll">'
        + table([e(h) for h in head], rows, "teams")
        + f'</div><p class="legend">{e(note)}</p></section>'
    )


def pairings_html(t: Tournament, division: str) -> str:
    rnd = t.last_round(division)
    if not rnd:
        said = _("Division {name}: not paired yet").format(name=division)
        return f'<section class="pairings"><h2>{e(said)}</h2></section>'
    players = t.players()
    results = t.results()
    boards = seating.dispatches(t)
    rows = []
    variant = t.event_for(division).variant
    for p in t.pairings(division, rnd):
        r = results.get(p.id)
        shown = ""
        if r is not None:
            shown = _(RESULT_WORDS[r.outcome])
            if r.blue_score is not None and r.red_score is not None:
                shown += (  # the scores kept together on a line
                    f" {score_text(r.blue_score, variant)}"
                    f"\u00a0:\u00a0{score_text(r.red_score, variant)}"
                )
        d = boards.get(p.id)
        red = players[p.red].name if p.red is not None else _("bye")
        rows.append(
            [
                e(p.table),
                e(d.board if d else ""),
                f'<span class="b">{e(players[p.blue].name)}</span>',
                f'<span class="r">{e(red)}</span>',
                e(shown),
            ]
        )
    head = [_("Table"), _("Board"), _("Blue (moves first)"), _("Red"), _("Result")]
    title = _("{division} · round {round}").format(
        division=division_heading(t, division), round=rnd
    )
    return (
        f'<section class="pairings"><h2>{e(title)}</h2>'
        + '<div class="scroll">'
        + table([e(h) for h in head], rows, "pairings")
        + "</div></section>"
    )


def routes(ctx: HubContext) -> list[Route]:
    def build(lang: str | None) -> str:
        with use(lang):
            try:
                with ctx.tournament() as t:
                    parts = []
                    for d in sorted(t.divisions()):
                        parts.append(
                            f'<div class="division">{pairings_html(t, d)}'
                            f"{standings_html(t, d)}{teams_html(t, d)}</div>"
                        )
                    return layout(
                        t.event.name, "".join(parts), css="wall-event", refresh=REFRESH,
                        lang=language(),
                    )  # fmt: skip
            except TournamentError:
                none_yet = _("No tournament yet.")
                return layout(
                    ctx.store.event_name or "Damath",
                    f"<p>{e(none_yet)}</p>",
                    css="wall-event",
                    refresh=REFRESH,
                    lang=language(),
                )

    async def wall(request: Request) -> HTMLResponse:
        lang = request.query_params.get("lang")
        return HTMLResponse(await run_in_threadpool(build, lang if lang in LANGUAGES else None))

    return [Route("/event", wall)]
