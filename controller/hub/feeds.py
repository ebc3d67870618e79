"""The games as a broadcaster or another program reads them: PDN and JSON, per game and per round.

Built from the store's records with the rules engine (``controller.link.gamestate``), never from
what a board claims: the PDN of a game is the text the board itself exports for it. Each game's
rebuild is kept and moved on only by the records that arrived since, so a round's live feed costs
little to serve again and again.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from controller.link.gamestate import GameState
from controller.rules import pdn_text
from controller.rules.notation import game_to_json
from controller.scoresheet.render import sheet_json

from .store import Store

FEED_VERSION = 1
FEED_TAGS = ("Event", "Round", "Board", "Game", "Blue", "Red")
"""The tags a round's feed sets on each game, first in its header."""


@dataclass
class _Built:
    state: GameState = field(default_factory=GameState)
    seq: int = 0
    moves: list[dict[str, Any]] = field(default_factory=list)
    last_received: float | None = None


class Feeds:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._built: dict[tuple[str, str], _Built] = {}
        self._lock = threading.Lock()

    def _build(self, board: str, game: str, last_seq: int) -> _Built:
        with self._lock:
            built = self._built.setdefault((board, game), _Built())
            if built.seq >= last_seq:
                return built
            for row in self.store.record_rows(board, game):
                if row["seq"] <= built.seq:
                    continue
                record = row["record"]
                info = built.state.apply(record)
                kind = record.get("k") if built.state.other is None else None
                if kind == "start":
                    built.moves = []
                elif kind == "move" and info:
                    built.moves.append(
                        {
                            "ply": len(built.moves) + 1,
                            "path": record["path"],
                            **{k: info[k] for k in ("side", "move", "takings", "score", "totals")},
                            "clocks": {k: info["clocks"][k] for k in ("game_left_ms", "move_ms")},
                            "seq": row["seq"],
                        }
                    )
                elif kind == "takeback" and built.moves and info:
                    built.moves.pop()
                built.seq = row["seq"]
                built.last_received = row["received"]
            return built

    # ------------------------------------------------------------------ one game

    def game_json(self, row: dict[str, Any]) -> dict[str, Any]:
        built = self._build(row["board_id"], row["game_id"], row["last_seq"])
        state = built.state
        asg = self.store.assignment(row["assignment_id"]) if row["assignment_id"] else None
        sheet = state.sheet()
        if state.other is not None:
            return self._other_json(row, built, asg)
        return {
            "v": FEED_VERSION,
            "kind": state.kind,
            "board": row["board_id"],
            "game": row["game_id"],
            "round": row["round"],
            "assignment": asg,
            "supersedes": row["supersedes"],
            "records": built.seq,
            "last_received": built.last_received,
            "phase": state.phase,
            "paused": state.paused,
            "variant": state.variant if state.game else None,
            "rules": state.rules or None,
            "start": state.start and _position(state),
            "to_move": state.to_move,
            "moves": built.moves,
            "totals": state.totals(),
            "clocks": state.clocks(),
            "result": state.result(),
            "problem": state.broken,
            "sheet": sheet_json(sheet) if sheet else None,
        }

    def _other_json(
        self, row: dict[str, Any], built: _Built, asg: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Another game than Damath: what it is now, and its record as the board exports it
        (``record``: Dadama's text with its throws, Dam's and English draughts' PDN, as text;
        Mathematical Chess's record, as JSON)."""
        state = built.state
        exported = state.export()
        record: Any = None
        if exported is not None:
            kind, text = exported
            record = json.loads(text) if kind == "json" else text
        summary = state.summary()
        return {
            "v": FEED_VERSION,
            "kind": state.kind,
            "board": row["board_id"],
            "game": row["game_id"],
            "round": row["round"],
            "assignment": asg,
            "supersedes": row["supersedes"],
            "records": built.seq,
            "last_received": built.last_received,
            "phase": state.phase,
            "to_move": state.to_move,
            "ply": summary["ply"],
            "position": summary["game_position"],
            "result": summary["result"],
            "problem": state.broken,
            "record": record,
        }

    def game_record(self, row: dict[str, Any]) -> tuple[str, str] | None:
        """Another game's record exactly as the board exports it, with its kind (``pdn``,
        ``json``: Mathematical Chess's); None for Damath's (``game_pdn``) or before a start."""
        state = self._build(row["board_id"], row["game_id"], row["last_seq"]).state
        return state.export() if state.other is not None else None

    def game_pdn(self, row: dict[str, Any], event: str | None = None) -> str:
        """The game's record; with ``event``, tagged for a round's feed (event, round, board,
        players); without, exactly the text the board exports."""
        built = self._build(row["board_id"], row["game_id"], row["last_seq"])
        text = built.state.pdn() or ""
        if event is None or not text:
            return text
        asg = self.store.assignment(row["assignment_id"]) if row["assignment_id"] else None
        tags = {"Event": event, "Round": str(row["round"]), "Board": row["board_id"]}
        tags["Game"] = row["game_id"]
        for side in ("blue", "red"):
            person = (asg or {}).get(side) or {}
            if isinstance(person, dict) and person.get("name"):
                tags[side.capitalize()] = str(person["name"])
        # the board's tags of the same names replaced in place (never twice); a record
        # without an Event tag (Dadama's) gets one
        return pdn_text.retag(text, tags, first=FEED_TAGS)

    # ------------------------------------------------------------------ rounds

    def round_json(self, number: int) -> dict[str, Any]:
        games = [self.game_json(row) for row in self.store.games(round_number=number)]
        return {
            "v": FEED_VERSION,
            "event": self.store.event_name,
            "round": number,
            "games": games,
        }


def _position(state: GameState) -> dict[str, Any] | None:
    return game_to_json(state.start) if state.start is not None else None
