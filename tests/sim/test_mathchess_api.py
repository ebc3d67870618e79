"""A Mathematical Chess board in the simulator is an ordinary board (``/board/<id>``, its game
chosen by ``sim --set game=mathchess`` or the new-game dialog): its page's messages go over the
board's channel like any other game's; anything malformed gets a clear error and changes
nothing; the game resumes from the board's journal after a restart, a new game keeps the last
one, the record and the scoresheet download, and the old address leads to the board."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.sim.server import create_app

from .test_server import create, receive_reply, receive_state


@pytest.fixture
def client(clock, tmp_path: Path):
    app = create_app(clock=clock, state_dir=tmp_path, defaults={"game": "mathchess"})
    with TestClient(app) as c:
        create(c, "m1")
        yield c


def act(client: TestClient, message: object) -> tuple[dict, dict]:
    """One message on the board's channel: the reply, then the board's state after it."""
    with client.websocket_connect("/ws/m1") as ws:
        receive_state(ws)
        ws.send_json(message)
        reply = receive_reply(ws)
    return reply, client.get("/board/m1/state.json").json()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "says"),
    [
        ([1, 2], "JSON object"),
        ({"type": "fly"}, "'fly' is not an action of a Mathematical Chess board"),
        ({"type": "click", "point": [1]}, "'point' must be a square"),
        ({"type": "click", "point": [True, 2]}, "'point' must be a square"),
        ({"type": "click", "point": [9, 0]}, "(9,0) is off the board"),
        ({"type": "name", "piece": ""}, "'piece' names the piece"),
        ({"type": "new_game", "game": "mathchess", "level": 11}, "level"),
        ({"type": "new_game", "game": "mathchess", "position": {"pieces": "all"}}, "pieces"),
    ],
)
def test_a_bad_message_is_refused_clearly_and_changes_nothing(client, body, says) -> None:
    before = client.get("/board/m1/state.json").json()
    reply, after = act(client, body)
    assert reply["type"] == "error" and says in reply["message"], reply
    for key in ("points", "sheet", "to_move", "phase", "level"):
        assert after[key] == before[key], key


def test_the_state_is_the_mathchess_renderers(client) -> None:
    state = client.get("/board/m1/state.json").json()
    assert (state["game"], state["renderer"], state["size"]) == ("mathchess", "mathchess", 9)
    assert len(state["points"]) == 81 and state["phase"] == "prepare"
    assert state["display"][0].startswith("White to play")  # the board's display, as on wood


def test_a_wrong_turn_button_is_said_with_its_rule(client) -> None:
    _reply, state = act(client, {"type": "done"})
    assert state["said"]["rule"] == "C-12" and state["phase"] == "prepare"
    _reply, state = act(client, {"type": "name", "piece": "+"})
    assert state["said"]["rule"] == "C-12"  # nothing put down yet


def test_the_game_is_resumed_from_its_journal_after_a_restart(clock, tmp_path: Path) -> None:
    app = create_app(clock=clock, state_dir=tmp_path, defaults={"game": "mathchess"})
    with TestClient(app) as c:
        create(c, "m1")
        act(c, {"type": "click", "point": [4, 1]})
        _reply, state = act(c, {"type": "name", "piece": "×"})
        assert state["to_move"] == "black"
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as c:  # no --set: still it
        state = c.get("/board/m1/state.json").json()
        assert state["game"] == "mathchess"
        assert state["to_move"] == "black" and state["problems"] == []
        here = next(p for p in state["points"] if p["at"] == [4, 1])
        assert here["piece"]["symbol"] == "×" and here["piece"]["side"] == "white"
    journal = tmp_path / "boards" / "m1" / "journal.jsonl"
    journal.write_bytes(journal.read_bytes() + b"00000000 {garbage\n")
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as c:
        state = c.get("/board/m1/state.json").json()
        assert state["to_move"] == "black" and state["problems"]  # said, and nothing lost


def test_a_new_game_keeps_the_game_on_the_board(client, tmp_path: Path) -> None:
    act(client, {"type": "click", "point": [4, 1]})
    act(client, {"type": "name", "piece": "+"})
    reply, state = act(client, {"type": "new_game", "game": "mathchess", "level": 3})
    assert reply["type"] == "error" and "confirm" in reply["message"]  # a game is on
    reply, state = act(
        client, {"type": "new_game", "game": "mathchess", "level": 3, "confirm": True}
    )
    assert reply["type"] == "done"
    assert state["level"] == 3 and state["sheet"]["turns"] == [] and state["problems"] == []
    (kept,) = (tmp_path / "boards" / "m1" / "games").glob("game-*.jsonl")
    assert '"place":"+"' in kept.read_text()


def test_the_record_and_the_scoresheet_download_and_the_record_replays(client) -> None:
    from controller.rules.mathchess import game_from_record

    act(client, {"type": "click", "point": [4, 1]})
    act(client, {"type": "name", "piece": "+"})
    record = client.get("/board/m1/record.json")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert record.json()["turns"] == [{"place": "+", "at": [4, 1]}]
    assert len(game_from_record(record.text).actions) == 1  # the record replays
    sheet = client.get("/board/m1/scoresheet.txt")
    assert sheet.text.splitlines()[0] == "  1. white +(4,1)"
    missing = client.get("/board/m1/game.pdn")
    assert missing.status_code == 404 and "has no pdn" in missing.text
    assert client.get("/board/m1/other.txt").status_code == 404


def test_the_old_address_leads_to_the_board(client) -> None:
    moved = client.get("/mathchess/m1", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/board/m1"
    assert client.get("/mathchess/a..b").status_code == 404
