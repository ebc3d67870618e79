"""The Mathematical Chess board's messages from a page: anything malformed or forged gets a clear
400 or 404 and changes nothing; a journal left by an earlier run is resumed."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.sim.server import create_app

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def client(clock, tmp_path: Path):
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as c:
        yield c


def post(client: TestClient, body: object, board: str = "m1"):
    return client.post(f"/api/mathchess/{board}", json=body, headers=ORIGIN)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ([1, 2], "expected an object with op"),
        ({"op": "fly"}, "unknown op 'fly'"),
        ({"op": "click", "point": [1]}, "a point is [x, y]"),
        ({"op": "click", "point": [True, 2]}, "a point is [x, y]"),
        ({"op": "click", "point": [9, 0]}, "(9,0) is off the board"),
        ({"op": "new", "level": 11}, "a level is a whole number from 1 to 10"),
        ({"op": "new", "position": {"game": "mathchess", "pieces": "all"}}, "pieces"),
        ({"op": "new", "position": "{"}, "not valid JSON"),
    ],
)
def test_a_bad_message_is_refused_clearly_and_changes_nothing(client, body, says) -> None:
    before = client.get("/api/mathchess/m1").json()
    answer = post(client, body)
    assert answer.status_code == 400 and says in answer.json()["error"]
    assert client.get("/api/mathchess/m1").json() == before


def test_a_message_that_is_not_json_or_too_long(client) -> None:
    bad = client.post("/api/mathchess/m1", content=b"{nope", headers=ORIGIN)
    assert bad.status_code == 400 and "error" in bad.json()
    long = client.post("/api/mathchess/m1", content=b" " * 70000, headers=ORIGIN)
    assert long.status_code == 400 and long.json()["error"] == "the message is too long"


def test_a_wrong_board_name_is_not_found(client) -> None:
    assert client.get("/api/mathchess/no%20such").status_code == 404
    assert client.get("/mathchess/a..b").status_code == 404


def test_a_post_from_another_site_is_refused(client) -> None:
    answer = client.post(
        "/api/mathchess/m1", json={"op": "done"}, headers={"Origin": "http://evil.example"}
    )
    assert answer.status_code == 403


def test_a_wrong_turn_button_is_said_with_its_rule(client) -> None:
    state = post(client, {"op": "done"}).json()
    assert state["said"]["rule"] == "C-12" and state["phase"] == "prepare"
    state = post(client, {"op": "name", "piece": "+"}).json()
    assert state["said"]["rule"] == "C-12"  # nothing put down yet


def test_the_game_is_resumed_from_its_journal_after_a_restart(clock, tmp_path: Path) -> None:
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as c:
        post(c, {"op": "click", "point": [4, 1]})
        state = post(c, {"op": "name", "piece": "×"}).json()
        assert state["to_move"] == "black"
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as c:
        state = c.get("/api/mathchess/m1").json()
        assert state["to_move"] == "black" and state["problems"] == []
        here = next(p for p in state["points"] if p["at"] == [4, 1])
        assert here["piece"]["symbol"] == "×" and here["piece"]["side"] == "white"
    journal = tmp_path / "mathchess" / "m1" / "journal.jsonl"
    journal.write_bytes(journal.read_bytes() + b"00000000 {garbage\n")
    with TestClient(create_app(clock=clock, state_dir=tmp_path)) as c:
        state = c.get("/api/mathchess/m1").json()
        assert state["to_move"] == "black" and state["problems"]  # said, and nothing lost


def test_a_new_game_keeps_the_game_on_the_board(client, tmp_path: Path) -> None:
    post(client, {"op": "click", "point": [4, 1]})
    post(client, {"op": "name", "piece": "+"})
    state = post(client, {"op": "new", "level": 3}).json()
    assert state["level"] == 3 and state["sheet"]["turns"] == [] and state["problems"] == []
    (kept,) = (tmp_path / "mathchess" / "m1" / "games").glob("game-*.jsonl")
    assert '"place":"+"' in kept.read_text()


def test_the_record_and_the_scoresheet_download_and_the_record_replays(client) -> None:
    from controller.rules.mathchess import game_from_record

    post(client, {"op": "click", "point": [4, 1]})
    post(client, {"op": "name", "piece": "+"})
    record = client.get("/mathchess/m1/record.json")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert game_from_record(record.text).actions == [
        a for a in game_from_record(record.text).actions
    ]
    assert record.json()["turns"] == [{"place": "+", "at": [4, 1]}]
    sheet = client.get("/mathchess/m1/scoresheet.txt")
    assert sheet.text.splitlines()[0] == "  1. white +(4,1)"
    assert client.get("/mathchess/m1/other.txt").status_code == 404
