"""The event's wall for the hall's screen, no login: each division's pairings of the current
round (table, board, players, result) and the standings, large, refreshed every 15 s. Read
only: it has no form and no action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from controller.tournament import boards as seating
from controller.tournament.export import standings_rows
from controller.tournament.model import TournamentError
from controller.tournament.tournament import Tournament

from .. import rounds
from .page import OUTCOME_WORDS, e, layout, table

if TYPE_CHECKING:
    from ..service import HubContext

REFRESH = 15


def standings_html(t: Tournament, division: str) -> str:
    rows = standings_rows(t.standings(division), t.event)
    last = t.last_round(division)
    title = f"Standings: {division}" + (f" after round {last}" if last else "")
    return (
        f'<section class="standings"><h2>{e(title)}</h2>'
        + table([e(h) for h in rows[0]], [[e(c) for c in r] for r in rows[1:]], "standings")
        + "</section>"
    )


def pairings_html(t: Tournament, division: str) -> str:
    rnd = t.last_round(division)
    if not rnd:
        return f"<section><h2>{e(division)}: not paired yet</h2></section>"
    players = t.players()
    results = t.results()
    boards = seating.dispatches(t)
    rows = []
    for p in t.pairings(division, rnd):
        r = results.get(p.id)
        shown = ""
        if r is not None:
            shown = OUTCOME_WORDS[r.outcome]
            if r.blue_score is not None:
                shown += (
                    f" {rounds.score_text(r.blue_score, t.event.variant)}"
                    f" : {rounds.score_text(r.red_score, t.event.variant)}"
                )
        d = boards.get(p.id)
        red = players[p.red].name if p.red is not None else "bye"
        rows.append(
            [
                e(p.table),
                e(d.board if d else ""),
                f'<span class="b">{e(players[p.blue].name)}</span>',
                f'<span class="r">{e(red)}</span>',
                e(shown),
            ]
        )
    return (
        f'<section class="pairings"><h2>{e(division)}: round {rnd}</h2>'
        + table(["Table", "Board", "Blue", "Red", "Result"], rows, "pairings")
        + "</section>"
    )


def routes(ctx: HubContext) -> list[Route]:
    def build() -> str:
        try:
            with ctx.tournament() as t:
                parts = []
                for d in sorted(t.divisions()):
                    parts.append(
                        f'<div class="division">{pairings_html(t, d)}{standings_html(t, d)}</div>'
                    )
                return layout(t.event.name, "".join(parts), css="wall-event", refresh=REFRESH)
        except TournamentError:
            return layout(
                ctx.store.event_name or "Damath",
                "<p>No tournament yet.</p>",
                css="wall-event",
                refresh=REFRESH,
            )

    async def wall(request: Request) -> HTMLResponse:
        return HTMLResponse(await run_in_threadpool(build))

    return [Route("/event", wall)]
