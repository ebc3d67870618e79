"""What the pages show of a board: its card on the wall (online, problems, its current game's
summary) and its detail when a page shows it large (the sheet, the moves, the game's record).
Read from what the intake keeps; a game is rebuilt only when its summary is out of date."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from controller.link.gamestate import GameState
from controller.scoresheet.render import sheet_json

from .model import BoardMeta, GameCache


def current(games: Iterable[GameCache], board: str) -> GameCache | None:
    """The board's newest game (by when the hub first saw it)."""
    mine = [g for g in games if g.board == board]
    return max(mine, key=lambda g: (g.first_seen, g.game)) if mine else None


def held_lines(board: str, meta: BoardMeta, now: float | None = None) -> list[str]:
    """The line that says the board is held at the broker, while it is."""
    if meta.held_until is None or meta.held_until < (time.time() if now is None else now):
        return []
    stamp = time.strftime("%H:%M", time.localtime(meta.held_until))
    return [f"{board} flooded the hub: the broker holds its credential until {stamp}"]


def summary(g: GameCache, state_of: Callable[[GameCache], GameState]) -> dict[str, Any]:
    """The game's summary: the store's after a restart (no game rebuilt to show the wall),
    the one last computed while it is current, else computed now."""
    if g.state is None and g.stored_summary:
        return g.stored_summary
    if g.summary is not None and g.summary_seq == g.last_seq:
        return dict(g.summary)
    out = state_of(g).summary()
    out["problem"] = g.problem or out.get("problem")
    return out


def card(
    board: str,
    meta: BoardMeta,
    g: GameCache | None,
    state_of: Callable[[GameCache], GameState],
    assignment: dict[str, Any] | None,
    played: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``assignment``: the table the board holds now; ``played``: the one its shown game was
    played for when that is another (round 1's finished game on a board already sent round 2:
    the walls label the game with its own round, table and players)."""
    return {
        "board": board,
        "online": meta.online,
        "last_contact": meta.last_contact,
        "software": meta.software,
        "firmware": meta.firmware,
        "problems": meta.problems + held_lines(board, meta) + meta.refused,
        "assignment": assignment,
        "played": played,
        "game": g.game if g else None,
        "seq": g.last_seq if g else 0,
        "as_of": g.as_of if g else None,
        "summary": summary(g, state_of) if g is not None else None,
    }


def detail(board: str, g: GameCache, state: GameState) -> dict[str, Any]:
    sheet = state.sheet()
    moves = [
        {"ply": n, "side": "blue" if side == 0 else "red", "move": str(m)}
        for n, (side, m) in enumerate(state.game.played(), start=1)
    ] if state.game else []  # fmt: skip
    exported = state.export() if state.other is not None else None
    return {
        "board": board,
        "game": g.game,
        "kind": state.kind,
        "sheet": sheet_json(sheet) if sheet else None,
        "moves": moves,
        "record": exported[1] if exported is not None else None,
    }
