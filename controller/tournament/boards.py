"""Which board stands at which table, and which board each pairing was sent to.

A *seat* is the organiser's plan of the hall (table 7 of the secondary division is board b07);
a *dispatch* is a pairing actually sent to a board, with the hub's assignment id that the board
puts on every record of the game, so the game comes back tied to its pairing. A board that
breaks gets the pairing moved: a new dispatch with a reason, the old one kept (inactive) and
logged. Only data and rules here; the hub sends the assignments (``controller.hub.rounds``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .model import Dispatch, Pairing, TournamentError
from .tournament import Tournament


def seats(t: Tournament) -> dict[tuple[str, int], str]:
    """``(division, table) → board``."""
    return t.store.seats()


def set_seat(
    t: Tournament,
    division: str,
    table: int,
    board: str | None,
    by: str = "organiser",
    swap: bool = False,
) -> tuple[str, int] | None:
    """Put ``board`` at a table (None: the table has no board). A board that stands at another
    table is refused unless ``swap``: then the two tables exchange their boards (the other gets
    this table's, or none). Returns the other table when the boards swapped."""
    d = t.division(division)
    if table < 1:
        raise TournamentError(f"table {table}: tables are numbered from 1")
    current = seats(t)
    taken = {b: key for key, b in current.items()}
    other = taken.get(board) if board is not None else None
    if other == (d.name, table):
        other = None
    if other is not None and not swap:
        raise TournamentError(
            f"board {board} already stands at table {other[1]} of division {other[0]!r}",
            cli="--swap exchanges the two tables' boards",
        )
    with t.store.transaction():
        if other is not None:
            mine = current.get((d.name, table))
            t.store.set_seat(other[0], other[1], None)
            t.store.set_seat(d.name, table, board)
            t.store.set_seat(other[0], other[1], mine)
            t.store.log(
                by, "seat-swap", division=d.name, table=table, board=board,
                other_division=other[0], other_table=other[1], other_board=mine,
            )  # fmt: skip
        else:
            t.store.set_seat(d.name, table, board)
            t.store.log(by, "seat", division=d.name, table=table, board=board)
    return other


def tables_needed(t: Tournament, division: str) -> int:
    """Tables a round of the division can need: one per two players still in it."""
    players = [p for p in t.players(division).values() if p.withdrawn_after is None]
    return max(1, len(players) // 2)


def auto_seats(
    t: Tournament, boards: Mapping[str, str | None] | Iterable[str], by: str = "organiser"
) -> dict[tuple[str, int], str]:
    """Every division's tables get the free boards in order (division by division, table 1
    first), each a board of the division's game: ``boards`` maps a board to the game it says
    it plays, None while it has not said (such a board fills what is left, in order; a plain
    list of boards: none has said). A table that already has a board keeps it. Refused,
    nothing seated, when a game has too few."""
    plays = dict(boards) if isinstance(boards, Mapping) else dict.fromkeys(boards)
    current = seats(t)
    free = [b for b in sorted(plays) if b not in current.values()]
    wanted = [
        (name, table)
        for name in sorted(t.divisions())
        for table in range(1, tables_needed(t, name) + 1)
        if (name, table) not in current
    ]
    plan: dict[tuple[str, int], str] = {}
    for known in (True, False):  # a board of the table's game first, then one not yet known
        for name, table in wanted:
            game = t.division(name).game
            fits = [b for b in free if (plays[b] == game if known else plays[b] is None)]
            if (name, table) not in plan and fits:
                plan[(name, table)] = fits[0]
                free.remove(fits[0])
    short: dict[str, int] = {}
    for name, table in wanted:
        if (name, table) not in plan:
            game = t.division(name).game
            short[game] = short.get(game, 0) + 1
    if short:
        needs = ", ".join(f"{n} more {game} board(s)" for game, n in sorted(short.items()))
        raise TournamentError(f"{needs} are needed: add them with `hub board-add`")
    with t.store.transaction():
        for (division, table), board in plan.items():
            t.store.set_seat(division, table, board)
        t.store.log(by, "seats-auto", seats={f"{d} {tb}": b for (d, tb), b in plan.items()})
    return seats(t)


def dispatches(t: Tournament) -> dict[int, Dispatch]:
    """The board each pairing is played on now (its latest dispatch), by pairing id."""
    return {d.pairing: d for d in t.store.dispatches() if d.active}


def history(t: Tournament, pairing: int) -> list[Dispatch]:
    return [d for d in t.store.dispatches() if d.pairing == pairing]


def by_assignment(t: Tournament, assignment: str) -> Dispatch | None:
    for d in t.store.dispatches():
        if d.assignment == assignment:
            return d
    return None


def board_for(t: Tournament, p: Pairing) -> str | None:
    """Where the pairing is played: the board an arbiter moved it to, else its table's seat
    (so a seat the organiser changes after sending a round takes the game with it)."""
    sent = dispatches(t).get(p.id)
    if sent is not None and sent.reason:
        return sent.board
    return seats(t).get((p.division, p.table))


def record_dispatch(
    t: Tournament, p: Pairing, board: str, assignment: str, by: str, reason: str = ""
) -> Dispatch:
    """Note that ``p`` was sent to ``board``. Sending it to another board than before is a
    move, and a move needs a reason (it is logged with the old board)."""
    before = dispatches(t).get(p.id)
    moved = before is not None and before.board != board
    if before is not None and moved and not reason.strip():
        raise TournamentError(
            f"round {p.round}, table {p.table} is on board {before.board}: moving it needs a reason"
        )
    with t.store.transaction():
        t.store.add_dispatch(p.id, board, assignment, by, reason.strip())
        t.store.log(
            by,
            "board-move" if moved else "board-send",
            pairing=p.id,
            division=p.division,
            round=p.round,
            table=p.table,
            board=board,
            before=before.board if before else None,
            assignment=assignment,
            reason=reason.strip(),
        )
    return dispatches(t)[p.id]
