"""The tournament on the hub: a round's pairings sent to the boards, their games tied back.

Publishing a round gives every table's board its assignment (the players, their colours, the
round, the table) over the boards' retained ``assignment`` topic; the board puts the
assignment's id on every record of the game it plays next, so a finished game arrives tied to
its pairing with no typing. What the board scored is read again from its signed records by the
hub's own rules engine (exact scores: fractions, a + b√2), shown to the arbiter, and becomes the
pairing's result when the arbiter accepts it. A board that fails gets its pairing moved (a
reason, logged), and a game played on paper is recorded by hand with a reason.

Functions take the hub's store (and the context when they publish) and an open ``Tournament``:
the web desk and the command line call the same ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.rules.values import Sqrt2
from controller.tournament import boards as seating
from controller.tournament.damath_scores import text
from controller.tournament.games import DAMATH, tournament_game
from controller.tournament.model import (
    GameResult,
    Pairing,
    ResultRecord,
    TournamentError,
)
from controller.tournament.tournament import Tournament

from .board_results import BoardResult, board_result
from .signing import table_signing
from .store import Store

if TYPE_CHECKING:
    from .context import HubContext


def _person(t: Tournament, player: int | None) -> dict[str, str]:
    if player is None:
        return {}
    p = t.players()[player]
    person = {"name": p.name, "school": p.school, "grade": p.grade, "fed_id": p.fed_id}
    return {k: v for k, v in person.items() if v}


def assignment_for(t: Tournament, p: Pairing) -> dict[str, Any]:
    """What the board is told of its table: the players, the round, and the event's name,
    date and start rule (the board's sheet and record carry them; its clocks wait for the
    start the rule names)."""
    game = t.division(p.division).game
    out: dict[str, Any] = {
        "game": game,
        "round": p.round,
        "table": p.table,
        "blue": _person(t, p.blue),
        "red": _person(t, p.red),
        "start": t.event.start,
        "event": t.event.name,
    }
    if tournament_game(game).in_variant:  # the event's variant and rules
        out["variant"] = t.event.variant
        out["rules"] = t.event.profile
    if t.event.date:
        out["date"] = t.event.date
    return out


def restore_assignments(store: Store, t: Tournament) -> int:
    """After the store was lost: every assignment the tournament sent put back in it, as
    history (none is current, none is sent again), so the games the boards send again are
    filed under their rounds and tied to their pairings. Returns how many."""
    import json
    import time

    n = 0
    now = time.time()
    with store.transaction() as db:
        for p in t.pairings():
            for d in seating.history(t, p.id):
                if store.assignment(d.assignment) is not None or store.board_key(d.board) is None:
                    continue
                payload = {"v": 1, "id": d.assignment, **assignment_for(t, p)}
                db.execute(
                    "INSERT INTO assignments (id, board_id, round_id, payload, created, cleared) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (d.assignment, d.board, store.round_id(db, p.round), json.dumps(payload),
                     now, now),
                )  # fmt: skip
                n += 1
    return n


def board_plays(store: Store) -> dict[str, str | None]:
    """Every board in service and the game it says it plays (its presence's ``plays``), None
    while it has not said: the hub sends a board no table of another game."""
    return {b["id"]: b.get("plays") for b in store.boards()}


def publish_round(
    ctx: HubContext, t: Tournament, division: str | None, rnd: int, by: str
) -> list[tuple[Pairing, str]]:
    """Send every game of the round without a result to its board (the one it was sent to
    before, else its table's seat); a game already sent to that board is not sent again.
    Every table needs a board first: nothing is sent until all have one. Boards that held an
    earlier round of the division and play nothing now have their assignment cleared.
    Returns what was sent now."""
    d = t.division(division)
    pairs = [p for p in t.pairings(d.name, rnd) if not p.is_bye]
    if not pairs:
        raise TournamentError(f"round {rnd} of division {d.name!r} is not paired yet")
    plays = board_plays(ctx.store)
    results = t.results()
    plan: list[tuple[Pairing, str]] = []
    missing, unknown, other = [], [], []
    for p in pairs:
        if p.id in results:
            continue
        board = seating.board_for(t, p)
        if board is None:
            missing.append(str(p.table))
        elif board not in plays:
            unknown.append(f"{p.table} ({board})")
        elif plays[board] not in (None, d.game):
            other.append(f"{p.table} (board {board} plays {plays[board]})")
        else:
            plan.append((p, board))
    if missing:
        raise TournamentError(
            f"round {rnd}: table(s) {', '.join(missing)} have no board; "
            "seat them first (`hub seat`, or the desk's Boards page)"
        )
    if unknown:
        raise TournamentError(f"round {rnd}: table(s) {', '.join(unknown)}: no such board here")
    if other:  # the board would refuse it: nothing sent, the desk says which and why
        raise TournamentError(
            f"round {rnd}: table(s) {', '.join(other)}: division {d.name} plays {d.game}; "
            f"seat a {d.game} board"
        )
    boards = [b for _, b in plan]
    twice = sorted({b for b in boards if boards.count(b) > 1})
    if twice:
        raise TournamentError(f"round {rnd}: board(s) {', '.join(twice)} seated at two tables")
    sent = seating.dispatches(t)
    now: list[tuple[Pairing, str]] = []
    ctx.backups.round(rnd)  # the store as it is before the round: docs/hall.md
    for p, board in plan:
        before = sent.get(p.id)
        if before is not None and before.board == board:
            continue  # sent already: a new id would untie a game that has begun
        payload = ctx.assign(board, assignment_for(t, p))
        reason = "" if before is None else "the table's board changed"
        seating.record_dispatch(t, p, board, payload["id"], by, reason)
        now.append((p, board))
        if before is not None and before.board not in boards:
            ctx.unassign(before.board)  # the board that left the table stops showing it
    earlier = {p.id for p in t.pairings(d.name) if p.round < rnd}
    stale = {d.assignment for pid, d in sent.items() if pid in earlier}
    for board, held in ctx.store.current_assignments().items():
        if board not in boards and held.get("id") in stale:
            ctx.unassign(board)  # it would show last round's pairing all this round
    return now


def start_round(
    ctx: HubContext, t: Tournament, division: str | None, rnd: int, by: str
) -> list[tuple[Pairing, str]]:
    """The arbiter's start for the whole round: every table sent to a board and without a
    result is told to start (its clocks may run from now: docs/tournament.md, "When the clocks
    start"). Refused while a table of the round has not been sent. Logged with the time;
    returns the tables told."""
    d = t.division(division)
    pairs = [p for p in t.pairings(d.name, rnd) if not p.is_bye]
    if not pairs:
        raise TournamentError(f"round {rnd} of division {d.name!r} is not paired yet")
    sent = seating.dispatches(t)
    results = t.results()
    unsent = [str(p.table) for p in pairs if p.id not in sent and p.id not in results]
    if unsent:
        raise TournamentError(
            f"round {rnd}: table(s) {', '.join(unsent)} are not on their boards yet: send the "
            "round to the boards first"
        )
    told: list[tuple[Pairing, str]] = []
    for p in pairs:
        if p.id in results:
            continue
        dispatch = sent[p.id]
        try:
            ctx.ingest.publish_command(dispatch.board, "start", by, asg=dispatch.assignment)
        except RuntimeError as exc:
            raise TournamentError(str(exc)) from None
        told.append((p, dispatch.board))
    t.store.log(by, "round-start", division=d.name, round=rnd, tables=len(told))
    return told


def round_started(t: Tournament, division: str, rnd: int) -> str | None:
    """When the arbiter started the round from the desk (UTC, as logged), or None."""
    for entry in reversed(t.log()):
        d = entry["detail"]
        if entry["action"] == "round-start" and (d.get("division"), d.get("round")) == (
            division,
            rnd,
        ):
            return str(entry["at"])
    return None


def current_tables(t: Tournament) -> list[dict[str, Any]]:
    """Each division's current round (its last paired), table by table, with the board it is
    played on (sent), else its table's seat: what the spectator wall shows."""
    sent = seating.dispatches(t)
    seats = seating.seats(t)
    out = []
    for name in sorted(t.divisions()):
        rnd = t.last_round(name)
        for p in t.pairings(name, rnd) if rnd else []:
            if p.is_bye:
                continue
            d = sent.get(p.id)
            board = d.board if d is not None else seats.get((p.division, p.table))
            if board:
                out.append({"division": name, "round": rnd, "table": p.table, "board": board})
    return out


def move_pairing(
    ctx: HubContext, t: Tournament, pairing_id: int, board: str, by: str, reason: str
) -> str:
    """The pairing's board failed: send the pairing to ``board`` instead (a reason needed) and
    clear the old board's assignment. Returns the new assignment's id."""
    p = _pairing(t, pairing_id)
    if p.is_bye:
        raise TournamentError("a bye is not played on a board")
    if not reason.strip():
        raise TournamentError("moving a game to another board needs a reason")
    if pairing_id in t.results():
        raise TournamentError(f"round {p.round}, table {p.table} has a result already")
    plays = board_plays(ctx.store)
    if board not in plays:
        raise TournamentError(f"no board {board!r} in this hub")
    game = t.division(p.division).game
    if plays[board] not in (None, game):
        raise TournamentError(f"board {board} plays {plays[board]}, not {game}: not sent")
    sent = seating.dispatches(t)
    before = sent.get(p.id)
    if before is not None and before.board == board:
        raise TournamentError(f"round {p.round}, table {p.table} is on board {board} already")
    results = t.results()
    for other, d in sent.items():
        if d.board == board and other != p.id and other not in results:
            q = _pairing(t, other)
            raise TournamentError(
                f"board {board} plays round {q.round}, table {q.table} of division "
                f"{q.division!r} (no result yet)"
            )
    payload = ctx.assign(board, assignment_for(t, p))
    seating.record_dispatch(t, p, board, payload["id"], by, reason)
    if before is not None:
        ctx.unassign(before.board)
    return str(payload["id"])


def _pairing(t: Tournament, pairing_id: int) -> Pairing:
    for p in t.pairings():
        if p.id == pairing_id:
            return p
    raise TournamentError(f"no pairing {pairing_id}")


def pending(store: Store, t: Tournament, division: str | None, rnd: int) -> dict[int, BoardResult]:
    """The boards' finished games of a round, by pairing, whether accepted yet or not."""
    d = t.division(division)
    sent = seating.dispatches(t)
    out: dict[int, BoardResult] = {}
    for p in t.pairings(d.name, rnd):
        dispatch = sent.get(p.id)
        if dispatch is None:
            continue
        found = board_result(store, dispatch.board, dispatch.assignment)
        if found is not None:
            out[p.id] = found
    return out


def accept(store: Store, t: Tournament, pairing_id: int, by: str) -> GameResult:
    """The arbiter accepts what the board recorded: it becomes the pairing's result."""
    p = _pairing(t, pairing_id)
    dispatch = seating.dispatches(t).get(p.id)
    if dispatch is None:
        raise TournamentError(f"round {p.round}, table {p.table} was never sent to a board")
    found = board_result(store, dispatch.board, dispatch.assignment)
    if found is None:
        raise TournamentError(
            f"round {p.round}, table {p.table}: board {dispatch.board} has not finished the game"
        )
    before = t.results().get(p.id)
    if before == found.result():
        raise TournamentError("this is already the recorded result")
    reason = "" if before is None else "the board's result accepted over the earlier one"
    return t.record_result(
        p.id, found.result(), by=f"{by} (board {found.board}, game {found.game})", reason=reason
    )


def uphold(store: Store, t: Tournament, pairing_id: int, by: str, note: str = "") -> GameResult:
    """The arbiter's ruling on a disputed table: the board's result stands (no score typed
    again). Logged as the ruling, with the arbiter's note."""
    p = _pairing(t, pairing_id)
    dispatch = seating.dispatches(t).get(p.id)
    if dispatch is None:
        raise TournamentError(f"round {p.round}, table {p.table} was never sent to a board")
    if not table_signing(store, dispatch.board, dispatch.assignment).disputes:
        raise TournamentError(
            f"round {p.round}, table {p.table} has no dispute: accept its result instead"
        )
    found = board_result(store, dispatch.board, dispatch.assignment)
    if found is None:
        raise TournamentError(
            f"round {p.round}, table {p.table}: the board's game has not ended; rule when it "
            "ends, or record the result by hand"
        )
    if t.results().get(p.id) == found.result():
        raise TournamentError("this is already the recorded result")
    reason = "dispute ruled: the board's result stands" + (
        f" ({note.strip()})" if note.strip() else ""
    )
    result = t.record_result(
        p.id, found.result(), by=f"{by} (board {found.board}, game {found.game})", reason=reason
    )
    t.store.log(by, "dispute-ruling", pairing=p.id, round=p.round, table=p.table,
                ruling="upheld", note=note.strip())  # fmt: skip
    return result


def accept_round(store: Store, t: Tournament, division: str | None, rnd: int, by: str) -> int:
    """Accept every board result of the round that has no result yet and no dispute (the
    arbiter rules on each of those, ``accept`` one by one); how many."""
    results = t.results()
    sent = seating.dispatches(t)
    done = 0
    for pid, found in pending(store, t, division, rnd).items():
        if table_signing(store, found.board, sent[pid].assignment).disputes:
            continue
        if pid not in results:
            accept(store, t, pid, by)
            done += 1
    return done


def score_text(score: Sqrt2 | None, variant: str) -> str:
    return "" if score is None else text(score, variant)


def round_view(
    store: Store,
    t: Tournament,
    division: str | None,
    rnd: int,
    cards: dict[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Everything the arbiter's desk shows per table of a round, as plain data."""
    d = t.division(division)
    players = t.players()
    sent = seating.dispatches(t)
    seats = seating.seats(t)
    states = {b["id"]: b for b in store.boards()}
    records: dict[int, ResultRecord] = {r.pairing: r for r in t.result_records()}
    proposals = pending(store, t, d.name, rnd)
    round_games = store.games(round_number=rnd)
    started = {g["assignment_id"] for g in round_games}
    variant = t.event_for(d.name).variant
    rows = []
    for p in t.pairings(d.name, rnd):
        dispatch = sent.get(p.id)
        board = dispatch.board if dispatch else seats.get((p.division, p.table))
        info = states.get(board or "", {})
        state = info.get("state") or {}
        card = (cards or {}).get(board or "") or {}
        summary = card.get("summary") or {}
        proposal = proposals.get(p.id)
        record = records.get(p.id)
        # the game the board plays now (its live game's summary): Damath's names a variant
        # or, before it has one, the game it says it plays (its presence)
        board_game = (
            summary.get("game") or (DAMATH if summary.get("variant") else None) or info.get("plays")
        )
        signing = (
            table_signing(store, dispatch.board, dispatch.assignment, round_games)
            if dispatch
            else None
        )
        if p.is_bye:
            status = "bye"
        elif record is not None and proposal is not None and record.result != proposal.result():
            status = "differs"
        elif record is not None:
            status = "accepted" if record.result.source == "board" else "recorded"
        elif signing is not None and signing.disputes:
            status = "disputed"
        elif proposal is not None:
            status = "signed" if signing is not None and signing.both_signed else "to-accept"
        elif dispatch is None and board_game not in (None, d.game):
            status = "wrong-game"  # not sent: its board plays another game
        elif dispatch is None:
            status = "not-sent"
        elif board_game not in (None, d.game) and dispatch.assignment not in started:
            status = "other-game"  # the board refuses the table (docs/tournament.md)
        elif signing is not None and signing.started_by and not summary.get("ply"):
            status = "started"  # the clocks run: no move yet
        elif signing is not None and signing.confirmed and not summary.get("ply"):
            status = "confirmed"  # at the board, by its arbiter or both players
        elif dispatch.assignment in started and summary.get("ply"):
            status = "playing"
        elif dispatch.assignment in started or state.get("assignment") == dispatch.assignment:
            status = "received"  # the board shows it: nobody has confirmed it yet
        else:
            status = "sent"
        rows.append(
            {
                "pairing": p.id,
                "table": p.table,
                "blue": players[p.blue].name,
                "red": players[p.red].name if p.red is not None else None,
                "board": board,
                "assignment": dispatch.assignment if dispatch else None,
                "moved": bool(dispatch and dispatch.reason),
                "online": bool(card.get("online", info.get("online"))),
                "phase": summary.get("phase"),
                "ply": summary.get("ply"),
                "to_move": summary.get("to_move"),
                # another game's own colours, the first mover's first (it sits in Blue's place)
                "colours": (summary.get("picture") or {}).get("colours"),
                "paused": bool(summary.get("paused")),
                "totals": summary.get("totals"),
                # the board's game keeps clocks (None: not known, no game on it yet)
                "clocks": summary.get("clocks") is not None if summary else None,
                "scores": tournament_game(d.game).has_scores,  # a result carries scores
                "status": status,
                "board_game": board_game,
                "signing": None if signing is None else signing.json(),
                "board_result": None
                if proposal is None
                else {
                    "outcome": proposal.outcome,
                    "blue": score_text(proposal.blue_score, variant),
                    "red": score_text(proposal.red_score, variant),
                    "reason": proposal.text,
                    "game": proposal.game,
                    "games": proposal.games,
                },
                "result": None
                if record is None
                else {
                    "outcome": record.result.outcome,
                    "blue": score_text(record.result.blue_score, variant),
                    "red": score_text(record.result.red_score, variant),
                    "source": record.result.source,
                    "by": record.by,
                    "at": record.at,
                    "reason": record.reason,
                },
            }
        )
    return rows
