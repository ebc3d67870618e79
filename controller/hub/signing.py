"""What the boards' own records say of a table: the assignment confirmed (and by whom), the
finished game's scoresheet signed by Blue and Red, the disputes raised with the sensor changes
of the move they are about. The desk shows these; a result both players signed, with no
dispute, becomes the pairing's result without the arbiter (``record_signed``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.tournament import boards as seating
from controller.tournament.tournament import Tournament

from .board_results import board_result
from .store import Store

SIDE_WORDS = ("blue", "red")
# the record kinds read here, as the wire carries them (docs/mqtt.md; the board's RecordKind)
CONFIRM, SIGN, DISPUTE, GO = "confirm", "sign", "dispute", "go"
TABLE = "table"
"""The other games' record of the same acts: ``{"k": "table", "act": …}`` (record/table.py)."""
ANEW = ("end", "takeback", "start")
"""Records after which a scoresheet is signed again (a new ending, or none yet)."""


@dataclass
class TableSigning:
    confirmed_by: list[str] = field(default_factory=list)
    """Who confirmed the assignment at the board: ``arbiter``, ``blue``, ``red``."""
    signed: list[str] = field(default_factory=list)
    """Who signed the last finished game's scoresheet (since its end)."""
    disputes: list[dict[str, Any]] = field(default_factory=list)
    """Each dispute record with its ``game`` and ``seq``."""
    game: str | None = None
    """The last game played under the assignment."""
    started_by: str | None = None
    """Who started the last game's clocks after the round's hold: desk, table, arbiter."""

    @property
    def confirmed(self) -> bool:
        return "arbiter" in self.confirmed_by or {"blue", "red"} <= set(self.confirmed_by)

    @property
    def both_signed(self) -> bool:
        return set(SIDE_WORDS) <= set(self.signed)

    def json(self) -> dict[str, Any]:
        return {
            "confirmed": self.confirmed,
            "confirmed_by": self.confirmed_by,
            "signed": self.signed,
            "disputes": len(self.disputes),
            "started_by": self.started_by,
        }


def table_signing(
    store: Store, board: str, assignment: str, games: list[dict[str, Any]] | None = None
) -> TableSigning:
    """Read from the records of every game ``board`` played under ``assignment`` (``games``:
    the store's rows to look among, when the caller has them already)."""
    out = TableSigning()
    for g in store.games(board=board) if games is None else games:
        if g["assignment_id"] != assignment or g["board_id"] != board:
            continue
        out.game = g["game_id"]
        signed: list[str] = []
        out.started_by = None
        kinds = (CONFIRM, SIGN, DISPUTE, GO, TABLE, *ANEW)
        for row in store.record_rows(board, g["game_id"], kinds):
            rec = row["record"]
            kind = rec.get("k")
            if kind == TABLE:  # another game's: its act is the kind Damath's records name
                kind = rec.get("act")
            if kind == CONFIRM and rec.get("asg") == assignment:
                if rec.get("by") not in out.confirmed_by:
                    out.confirmed_by.append(rec["by"])
            elif kind in ANEW:
                signed = []  # a new ending (or none) is signed anew
            elif kind == SIGN:
                word = SIDE_WORDS[rec["side"]]
                if word not in signed:
                    signed.append(word)
            elif kind == DISPUTE:
                out.disputes.append({**rec, "game": g["game_id"], "seq": row["seq"]})
            elif kind == GO:
                out.started_by = str(rec.get("by"))
        out.signed = signed
    return out


def record_signed(store: Store, t: Tournament, division: str | None, rnd: int) -> int:
    """Every pairing of the round whose board game both players signed, without a dispute and
    without a result yet, gets the board's result; how many."""
    results = t.results()
    sent = seating.dispatches(t)
    done = 0
    for p in t.pairings(t.division(division).name, rnd):
        dispatch = sent.get(p.id)
        if dispatch is None or p.id in results:
            continue
        found = board_result(store, dispatch.board, dispatch.assignment)
        if found is None:
            continue
        signing = table_signing(store, dispatch.board, dispatch.assignment)
        if signing.both_signed and not signing.disputes and signing.game == found.game:
            t.record_result(
                p.id,
                found.result(),
                by=f"Blue and Red signed at board {found.board} (game {found.game})",
                reason="",
            )
            done += 1
    return done
