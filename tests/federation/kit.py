"""Submissions made by hand for the verification's tests: real games (the bundled sample game
played by simulated hands through a board's own session, its journal read back), signed as a
board's link signs them, in the submission format a hub writes (``federation.bundle``)."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.federation import bundle
from controller.link.gamestate import GameState
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.protocol import GENESIS, Envelope, seal
from controller.record.journal_file import read as read_journal

MOVES = sample_game_moves()[1]
MENU = {"stop": 1, "blue-resigns": 2, "red-resigns": 3, "blue-no-show": 4, "red-no-show": 5}
# what each kind of game gives (worked out by hand from the sample game's sheet, as in
# tests/hub/eventkit.py): moves, ending, outcome, Blue's and Red's grand totals
GAMES = {
    "blue": (6, "red-resigns", "blue", "-5", "6"),
    "draw": (2, "stop", "draw", "-6", "-6"),
    "red": (10, "stop", "red", "-6", "16"),
}


def journal(folder: Path, kind: str) -> list[dict[str, Any]]:
    """The journal records of a game of ``kind`` played on a board of its own."""
    count, ending, *_ = GAMES[kind]
    board = PlaybackBoard(folder, sync=False)
    board.play_moves(MOVES[:count])
    s, t = board.session, board.t
    s.press(t + 0.1, "pause", "hold")
    for _ in range(MENU[ending]):
        s.press(t + 0.15, "next")
    s.press(t + 0.2, "confirm")
    board.t = t + 0.3
    board._after_step()
    assert s.phase == "over"
    board.close()
    return read_journal(folder / "journal.jsonl").records


def envelopes(board: str, game: str, key: bytes, records: list[dict[str, Any]]) -> list[Envelope]:
    """The records as the board's link signs them (with what each meant, as it says)."""
    state, prev, out = GameState(), GENESIS, []
    for seq, record in enumerate(records, start=1):
        info = state.apply(record)
        env = seal(board, game, seq, prev, record, key, info, "a-000000000001")
        out.append(env)
        prev = env.hash
    return out


def lines(envs: list[Envelope]) -> bytes:
    return b"".join(e.payload() + b"\n" for e in envs)


@dataclass
class Event:
    """An event of two players and one game (Blue P1 against Red P2), and its submission."""

    event_id: str = "test-cup"
    sign_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    board_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    fed_ids: tuple[str, str] = ("1000009", "1000017")
    records: list[dict[str, Any]] = field(default_factory=list)
    envs: list[Envelope] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    extra_results: list[dict[str, Any]] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        """The federation's event row (what ``verify`` is given)."""
        return {"id": self.event_id, "sign_key": self.sign_key.hex(), "date": "2026-12-05"}

    def manifest(self) -> dict[str, Any]:
        return {
            "v": 1,
            "event": {
                "id": self.event_id,
                "name": "Test Cup",
                "date": "2026-12-05",
                "variant": "integer",
                "rules": "official",
            },
            "players": [
                {
                    "id": 1,
                    "name": "Ana",
                    "school": "Rizal ES",
                    "division": "open",
                    "fed_id": self.fed_ids[0],
                },
                {
                    "id": 2,
                    "name": "Ben",
                    "school": "Rizal ES",
                    "division": "open",
                    "fed_id": self.fed_ids[1],
                },
            ],
            "pairings": [
                {"id": 1, "division": "open", "round": 1, "table": 1, "blue": 1, "red": 2}
            ],
            "results": [self.result, *self.extra_results],
            "games": [{"board": "b01", "game": "g1", "pairing": 1, "pdn": None}],
            "boards": {"b01": self.board_key.hex()},
        }

    def members(self, records: bytes | None = None) -> dict[str, bytes]:
        return {
            bundle.MANIFEST: json.dumps(self.manifest()).encode(),
            bundle.records_name("b01", "g1"): lines(self.envs) if records is None else records,
        }

    def submission(self, records: bytes | None = None, key: bytes | None = None) -> bytes:
        return bundle.write(self.event_id, key or self.sign_key, self.members(records))


def event_of(folder: Path, kind: str = "blue") -> Event:
    """An event whose one game is a finished game of ``kind``, its result the board's."""
    ev = Event()
    ev.records = journal(folder, kind)
    ev.envs = envelopes("b01", "g1", ev.board_key, ev.records)
    _, _, outcome, blue, red = GAMES[kind]
    ev.result = {
        "pairing": 1,
        "outcome": outcome,
        "blue_score": blue,
        "red_score": red,
        "source": "board",
        "at": "2026-12-05T10:00:00+00:00",
        "by": "arbiter",
        "reason": "",
    }
    return ev


def registry(known: dict[str, str]):
    """A registry of ``{fed_id: name}`` as ``verify`` reads it."""

    def lookup(ids):
        return {i: {"fed_id": i, "name": known[i]} for i in ids if i in known}

    return lookup
