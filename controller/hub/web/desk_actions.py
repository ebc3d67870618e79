"""What an arbiter or the organiser does to a round from the desk (each a POST with its
CSRF token): accept a board's result, rule a dispute, start a round, record a result by hand,
move a game to another board, pair, publish, seat a board (pausing a table is
``desk_table.pause``).

Each is a plain function of the hub, the open tournament, the form's fields and the person,
returning the sentence the desk shows; a refusal is a ``TournamentError`` naming the fix.
Every change goes through ``rounds`` and ``Tournament``, which log who and when.
"""

from __future__ import annotations

from controller.tournament import boards as seating
from controller.tournament.games import DAMATH, parse_game_score
from controller.tournament.model import OUTCOMES, GameResult, TournamentError
from controller.tournament.tournament import Tournament

from .. import rounds
from ..accounts import Session
from ..context import HubContext
from .desk_frame import by
from .page import OUTCOME_WORDS, whole

Form = dict[str, str]


def pairing_of(data: Form) -> int:
    pid = whole(data.get("pairing", ""))
    if pid is None:
        raise TournamentError("which game? (no pairing given)")
    return pid


def round_of(data: Form) -> int:
    rnd = whole(data.get("round", ""))
    if rnd is None:
        raise TournamentError("which round? (a whole number)")
    return rnd


def accept(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    r = rounds.accept(ctx.store, t, pairing_of(data), by(s))
    return f"accepted: {OUTCOME_WORDS[r.outcome]}"


def uphold(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    r = rounds.uphold(ctx.store, t, pairing_of(data), by(s), data.get("note", ""))
    return f"the dispute is ruled: the board's result stands ({OUTCOME_WORDS[r.outcome]})"


def start(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    told = rounds.start_round(ctx, t, data.get("division"), round_of(data), by(s))
    return f"round started: {len(told)} board(s) told to start their clocks"


def accept_all(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    n = rounds.accept_round(ctx.store, t, data.get("division"), round_of(data), by(s))
    return f"{n} result(s) accepted"


def result(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    """A result recorded by hand (or the arbiter's decision, or a ruling that corrects the
    board's): a game sent to a board needs its reason."""
    outcome = data.get("outcome", "")
    if outcome not in OUTCOMES:
        raise TournamentError("choose a result")
    blue, red = data.get("blue", "").strip(), data.get("red", "").strip()
    pid = pairing_of(data)
    game = next((t.division(p.division).game for p in t.pairings() if p.id == pid), DAMATH)
    scores = (
        (parse_game_score(game, blue), parse_game_score(game, red)) if blue or red else (None, None)
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
        pid, GameResult(outcome, scores[0], scores[1], source=source), by=by(s), reason=reason
    )
    if data.get("ruling"):
        t.store.log(by(s), "dispute-ruling", pairing=pid, ruling="corrected",
                    outcome=outcome, reason=reason)  # fmt: skip
    return f"recorded: {OUTCOME_WORDS[outcome]}"


def move(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    board = data.get("board", "")
    rounds.move_pairing(ctx, t, pairing_of(data), board, by(s), data.get("reason", ""))
    return f"sent to board {board}"


def pair(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    division = data.get("division") or None
    rnd = t.last_round(t.division(division).name) + 1
    t.pair(rnd, division=division, by=by(s))
    return f"round {rnd} paired: check it, then send it to the boards"


def publish(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    plan = rounds.publish_round(ctx, t, data.get("division"), round_of(data), by(s))
    return f"round sent to {len(plan)} board(s)"


def seat(ctx: HubContext, t: Tournament, data: Form, s: Session) -> str:
    if data.get("auto"):
        seating.auto_seats(t, rounds.board_plays(ctx.store), by(s))
        return "every table has a board"
    table = whole(data.get("table", ""))
    if table is None:
        raise TournamentError("which table?")
    board = data.get("board") or None
    # a board chosen from another table changes places with this table's (no unseating first)
    other = seating.set_seat(t, data.get("division", ""), table, board, by(s), swap=True)
    said = f"table {table}: board {board or 'none'}"
    if other is not None:
        left = seating.seats(t).get(other)
        said += f"; board {left} moved to table {other[1]}" if left else f"; table {other[1]}: none"
        if other[0] != data.get("division"):
            said += f" of division {other[0]}"
    return said
