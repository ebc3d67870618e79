"""One table at the arbiter's desk: what its board says (confirmation, signatures, disputes
with the sensor changes of the disputed move, the whole journal), pausing the board from the
desk, and the table's scoresheet to print again. ``desk`` routes here, behind its login."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from controller.tournament import boards as seating
from controller.tournament.model import Pairing, TournamentError
from controller.tournament.tournament import Tournament

from .. import sheets
from ..accounts import Session
from ..signing import SIDE_WORDS, TableSigning, table_signing
from .page import BadRequest, e, form, hidden, table, whole

if TYPE_CHECKING:
    from ..context import HubContext

SQUARE_FILES = "abcdefghijkl"  # up to Dam's 12 × 12


def square_name(sq: list[int]) -> str:
    """``[2, 3]`` as the board's own coordinates, and in the a1 style arbiters read."""
    return f"{SQUARE_FILES[sq[0]]}{sq[1] + 1} ({sq[0]},{sq[1]})"


def pairing(t: Tournament, raw: str) -> Pairing:
    pid = whole(raw)
    if pid is None:
        raise BadRequest(f"which game? (pairing {raw!r} is not a pairing's number)")
    found = [p for p in t.pairings() if p.id == pid]
    if not found:
        raise TournamentError(f"no pairing {raw}")
    return found[0]


def where(ctx: HubContext, t: Tournament, p: Pairing) -> tuple[str, str, TableSigning]:
    """The board and assignment the pairing was sent to, and what the board's records say."""
    dispatch = seating.dispatches(t).get(p.id)
    if dispatch is None:
        raise TournamentError(f"round {p.round}, table {p.table} was never sent to a board")
    signing = table_signing(ctx.store, dispatch.board, dispatch.assignment)
    return dispatch.board, dispatch.assignment, signing


def played_move(ply: object) -> str:
    """The move of the game's ``ply``-th turn (1: Blue's first) as players count moves:
    ``Blue's move 3``; a dispute before any move: ``before the first move``."""
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 1:
        return "before the first move"
    side = "Blue" if ply % 2 else "Red"
    return f"{side}'s move {(ply + 1) // 2}"


HELD = {"round": "the round to be sent", "desk": "the desk's start", "table": "the confirmation"}


def _kind_line(rec: dict[str, Any]) -> str:
    kind = str(rec.get("k"))
    if kind == "move":
        path = "-".join(f"{x},{y}" for x, y in rec.get("path", []))
        ply = rec.get("ply")
        return f"{played_move(ply + 1)}: {path}" if isinstance(ply, int) else path
    if kind == "hold":
        return f"the clocks wait for {HELD.get(str(rec.get('until')), rec.get('until'))}"
    if kind == "go":
        return f"the clocks started by {rec.get('by')}"
    if kind == "end":
        return f"{rec.get('reason')}" + (f", side {rec['side']}" if "side" in rec else "")
    if kind in ("sign", "dispute"):
        return SIDE_WORDS[rec["side"]].capitalize() + (
            f", about {played_move(rec['ply'])}" if kind == "dispute" else ""
        )
    if kind == "confirm":
        return f"by {rec.get('by')}"
    if kind in ("pause", "resume"):
        return f"by {rec.get('by', 'the board')}"
    return ""


def _seconds(t: object) -> str:
    return f"{t:.3f}" if isinstance(t, int | float) and not isinstance(t, bool) else ""


def _dispute_html(d: dict[str, Any]) -> str:
    start = d.get("t", 0.0)
    sensed = d.get("sensed") or []
    rows = [
        [
            e(f"{ev[0]:.3f}"),
            e(f"{ev[0] - start:+.3f} s"),
            e("lifted" if ev[1] == "lift" else "placed"),
            e(square_name(ev[2])),
        ]
        for ev in sensed
    ]
    who = SIDE_WORDS[d["side"]].capitalize()
    head = (
        f'<h3 class="dispute">{e(who)} disputes {e(played_move(d.get("ply")))} '
        f"(game {e(d.get('game'))}, record {e(d.get('seq'))}, board time {e(_seconds(start))})</h3>"
    )
    if not rows:
        return head + "<p>No sensor change was recorded before the dispute.</p>"
    return head + table(["Board time", "Before the dispute", "Sensor", "Square"], rows, "sensed")


def table_page(ctx: HubContext, t: Tournament, raw: str, s: Session) -> tuple[str, str]:
    """The page's title and body."""
    p = pairing(t, raw)
    board, asg, signing = where(ctx, t, p)
    players = t.players()
    red = players[p.red].name if p.red is not None else "(bye)"
    title = f"Round {p.round}, table {p.table}: {players[p.blue].name} vs {red}"
    back = f"/desk/table?{urlencode({'pairing': p.id})}"
    base = hidden("pairing", p.id) + hidden("back", back)
    confirmed = (
        f"confirmed by {', '.join(signing.confirmed_by)}"
        if signing.confirmed
        else (
            "not confirmed" + (f" (only {signing.confirmed_by[0]})" if signing.confirmed_by else "")
        )
    )
    signed = ", ".join(w.capitalize() for w in signing.signed) or "nobody yet"
    body = (
        f'<section class="head"><div>Board <a href="/board/{e(board)}">{e(board)}</a>, '
        f"assignment {e(asg)}</div><div>Table {e(confirmed)}</div>"
        f'<div>Scoresheet signed by: <b class="signed">{e(signed)}</b></div>'
        '<div class="actions">'
        + form("/desk/pause", s.csrf, base + hidden("cmd", "pause"), "Pause the board")
        + form("/desk/pause", s.csrf, base + hidden("cmd", "resume"), "Resume the board")
        + f'<a href="/desk/sheet?{e(urlencode({"pairing": p.id}))}">Print the scoresheet</a>'
        + "</div></section>"
    )
    body += "<h2>Disputes</h2>"
    body += "".join(_dispute_html(d) for d in signing.disputes) or "<p>None raised.</p>"
    if signing.game is not None:
        rows = ctx.store.record_rows(board, signing.game)
        body += f"<h2>The board's journal (game {e(signing.game)})</h2>"
        body += table(
            ["#", "Kind", "Board time", "What"],
            [
                [
                    e(r["seq"]),
                    e(r["record"].get("k")),
                    e(_seconds(r["record"].get("t"))),
                    e(_kind_line(r["record"])),
                ]
                for r in rows
            ],
            "journal",
        )
    return title, body


def sheet_html(ctx: HubContext, t: Tournament, raw: str) -> str:
    """The table's scoresheet as the board recorded it, with the tournament's event and the
    result recorded for it (or a typed page without a board game)."""
    return sheets.table_sheet(ctx.store, t, pairing(t, raw))


def table_pdn(ctx: HubContext, t: Tournament, raw: str) -> tuple[str, str]:
    """The table's game record as the archive has it (the recorded result in force) and a
    file name for it."""
    p = pairing(t, raw)
    found = sheets.counted(ctx.store, t, p)
    dispatch = seating.dispatches(t).get(p.id)
    if dispatch is None:
        raise TournamentError(f"round {p.round}, table {p.table} was never sent to a board")
    rows = [
        g
        for g in ctx.store.games(board=dispatch.board)
        if g["assignment_id"] == dispatch.assignment
    ]
    chosen = [g for g in rows if found is not None and g["game_id"] == found.game] or rows[-1:]
    if not chosen:
        raise TournamentError(f"board {dispatch.board} has no game for this table yet")
    row = chosen[0]
    text = sheets.tagged_pdn(ctx.feeds, ctx.store, row, t, p)
    return text, f"round-{p.round}_table-{p.table}_{row['game_id']}.pdn"


def pause(ctx: HubContext, t: Tournament, data: dict[str, str], s: Session) -> str:
    cmd = data.get("cmd", "")
    if cmd not in ("pause", "resume"):
        raise TournamentError("pause or resume?")
    p = pairing(t, data.get("pairing", ""))  # every game's board takes them (games/desk.py)
    board, _asg, _signing = where(ctx, t, p)
    by = f"{s.role} {s.name}"
    try:
        ident = ctx.ingest.publish_command(board, cmd, by)
    except RuntimeError as exc:
        raise TournamentError(str(exc)) from None
    t.store.log(by, f"board-{cmd}", board=board, pairing=p.id, command=ident)
    return f"board {board}: {cmd} sent"
