"""The checks on what a board says that need no store: its state and presence messages, a
record's game against the game's first record and its rules, what a first record says it
supersedes, and where the board's own reading of a record differs from the hub's. A check
that fails raises ``Rejected`` with the reason the organiser's list shows."""

from __future__ import annotations

from typing import Any

from controller.link.gamestate import GameState
from controller.link.protocol import (
    GAME_ID,
    MAX_PAYLOAD,
    PRESENCE,
    VERSION,
    Envelope,
    Rejected,
    is_version,
    load_json,
)
from controller.tournament.games import GAMES as GAME_NAMES

from .model import BoardMeta


def read_status(board: str, leaf: str, payload: bytes, known: bool) -> dict[str, Any] | None:
    """A state or presence message as an object; None when a retained one is cleared."""
    if len(payload) > MAX_PAYLOAD:
        raise Rejected("oversized", f"{len(payload)} bytes (at most {MAX_PAYLOAD})")
    if not known:
        raise Rejected("unknown-board", f"no board {board!r} in this hub")
    data = load_json(payload) if payload else None
    if data is None:
        return None
    if not isinstance(data, dict) or not is_version(data.get("v"), VERSION):
        raise Rejected("schema", f"a {leaf} message must be a version {VERSION} object")
    return data


def presence(meta: BoardMeta, data: dict[str, Any], at: float) -> dict[str, Any]:
    """The board's presence taken into ``meta``; the fields its row gets."""
    online = data.get("online")
    if not isinstance(online, bool):
        raise Rejected("schema", "'online' must be true or false")
    meta.online = online
    if online:
        meta.last_contact = at
    fields: dict[str, Any] = {"online": int(online)}
    if isinstance(data.get("software"), str):
        meta.software = data["software"][:40]
        fields["software"] = meta.software
    if online and data.get("plays") in GAME_NAMES:  # the game it is set to play
        fields["plays"] = data["plays"]
    return fields


def state(meta: BoardMeta, board: str, data: dict[str, Any], at: float) -> dict[str, Any]:
    """The board's state (its problems, software, firmware) taken into ``meta``; the fields
    its row gets."""
    if data.get("board") != board:
        raise Rejected("topic", f"state of {data.get('board')!r} on {board!r}'s topic")
    problems = data.get("problems") or []
    if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
        raise Rejected("schema", "'problems' must be a list of sentences")
    meta.problems = [p[:200] for p in problems[:10]]
    for name in ("software", "firmware"):
        value = data.get(name)
        if isinstance(value, str):
            setattr(meta, name, value[:40])
    meta.last_contact = at
    return {"software": meta.software, "firmware": meta.firmware, "problems": meta.problems,
            "state": data}  # fmt: skip


def status_fields(
    meta: BoardMeta, board: str, leaf: str, data: dict[str, Any], at: float
) -> dict[str, Any]:
    """A presence or a state message into ``meta``: the fields of the board's row."""
    if leaf == PRESENCE:
        return presence(meta, data, at)
    return state(meta, board, data, at)


def refused_by_rules(env: Envelope, state: GameState, broken_before: str | None) -> Rejected | None:
    """Why a record re-applied to its game (``state``, after it) is refused: a record of
    another game than the game's first record, or one its game's rules refuse."""
    if state.kind != env.game_kind:
        return Rejected(
            "schema",
            f"game {env.game} record {env.seq}: a record of {env.game_kind}, "
            f"in a game of {state.kind}",
        )
    if state.broken is not None and broken_before is None:
        return Rejected("rules", f"game {env.game} ({state.kind}): {state.broken}")
    return None


def supersedes(env: Envelope) -> str | None:
    """The game a board's first record says this one continues (a repaired journal)."""
    value = env.info.get("supersedes") if env.seq == 1 else None
    return value if isinstance(value, str) and GAME_ID.match(value) else None


def disagreement(env: Envelope, info: dict[str, Any]) -> str | None:
    """Where the board's own reading of a record differs from the hub's (never expected)."""
    for name in ("move", "score", "totals", "result"):
        if name in env.info and name in info and env.info[name] != info[name]:
            return (
                f"record {env.seq}: the board says {name} {env.info[name]!r}, "
                f"the hub computes {info[name]!r}"
            )
    return None
