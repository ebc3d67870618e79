"""One message used to break a board for good: a chip x^440 (or a 400-digit number) made every
snapshot raise OverflowError, froze the boards after it, survived a restart; x^10000000 blocked
the server for seconds. Now such a position is refused with a sentence, quickly, and a journal
holding one starts a new game and says why."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.board import BoardHost
from controller.record.journal_file import encode
from controller.sim.server import create_app

from .conftest import ManualClock
from .test_server import create, receive_reply, receive_state


def piece(value: str, square=(3, 4), side: str = "blue") -> dict:
    return {"square": list(square), "side": side, "value": value}


@pytest.mark.parametrize(
    ("variant", "value", "says"),
    [
        ("polynomial", "x^440", "power 3 at most"),
        ("polynomial", "x^10000000", "power 3 at most"),
        ("integer", "1" + "0" * 399, "characters long"),
        ("integer", "1000", "at most three digits"),
    ],
)
def test_a_position_with_a_value_outside_the_game_is_refused_quickly(
    clock: ManualClock, variant: str, value: str, says: str
) -> None:
    with TestClient(create_app(clock=clock)) as client:
        create(client, "b1", "b2")
        with client.websocket_connect("/ws/b1") as ws:
            receive_state(ws)
            position = {"variant": variant, "pieces": [piece(value), piece("6x", (4, 5), "red")]}
            began = time.perf_counter()
            ws.send_json({"type": "new_game", "variant": variant, "position": position})
            reply = receive_reply(ws)
            assert time.perf_counter() - began < 2.0  # x^10000000 took seconds before
            assert reply["type"] == "error" and says in reply["message"]
            ws.send_json({"type": "click", "square": [1, 2]})  # the game goes on untouched
            assert receive_reply(ws)["type"] == "done"
        for board in ("b1", "b2"):
            assert client.get(f"/board/{board}/scoresheet.csv").status_code == 200


def test_a_journal_holding_such_a_chip_starts_a_new_game_and_says_why(
    clock: ManualClock, tmp_path: Path
) -> None:
    path = BoardHost.of_board(tmp_path, "old").journal_path
    path.parent.mkdir(parents=True)
    position = {"variant": "integer", "profile": "official", "to_move": "blue",
                "pieces": [piece("9" * 400), piece("5", (4, 5), "red")]}  # fmt: skip
    start = {"k": "start", "v": 1, "t": 0.0, "variant": "integer", "rules": "official",
             "rule_settings": {}, "position": position, "seq": 1}  # fmt: skip
    path.write_bytes(encode(start))  # a valid checksum: written by hand, or by an old version
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as client:
        assert client.get("/board/old").status_code == 200  # a saved board: it exists
        state = client.get("/board/old/state.json").json()
        assert (
            "the journal cannot be resumed" in state["notice"]
            and "characters long" in state["notice"]
        )
        for name in ("scoresheet.csv", "scoresheet.html", "game.pdn", "position.json"):
            assert client.get(f"/board/old/{name}").status_code == 200  # these answered 500
