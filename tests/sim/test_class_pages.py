"""The teacher's routes: the class overview's data, the projector page, each board's kept games
and their downloads; none of them creates a board. And ``sim --set`` / ``--players``."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.cli import build_parser
from controller.sim.server import create_app

from .conftest import ManualClock
from .test_server import create, receive_reply, receive_state

SETTLE = 0.25


@pytest.fixture
def client(clock: ManualClock, tmp_path: Path):
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\n# a comment\nCara Lim\n")
    app = create_app(clock=clock, state_dir=tmp_path, defaults={"event": "Grade 8 club"})
    with TestClient(app) as c:
        yield c


def _act(ws, message: dict) -> dict:
    ws.send_json(message)
    return receive_reply(ws)


def _until(ws, test) -> dict:
    """States pushed by the board until one passes ``test`` (time passes on the ticker)."""
    for _ in range(200):
        state = receive_state(ws)
        if test(state):
            return state
    raise AssertionError("the board never reached the state")


def test_the_class_data_lists_every_board_with_its_game(
    client: TestClient, clock: ManualClock
) -> None:
    create(client, "t1", "t2")
    with client.websocket_connect("/ws/t1") as a, client.websocket_connect("/ws/t2") as b:
        receive_state(a)
        receive_state(b)
        _act(a, {"type": "info", "info": {"blue": "Ana Cruz", "red": "Ben Reyes"}})
        clock.advance(SETTLE)
        _until(a, lambda st: st["phase"] == "play")
        assert _act(a, {"type": "click", "square": [1, 2]})["type"] == "done"
        assert _act(a, {"type": "click", "square": [2, 3]})["type"] == "done"
        clock.advance(SETTLE)
        _until(a, lambda st: st["ply"] == 1)
        data = client.get("/api/class").json()
    boards = {b["board"]: b for b in data["boards"]}
    assert set(boards) == {"t1", "t2"}
    t1 = boards["t1"]
    assert (t1["blue"], t1["red"], t1["event"]) == ("Ana Cruz", "Ben Reyes", "Grade 8 club")
    assert (t1["ply"], t1["to_move"], t1["over"], t1["variant"]) == (1, "red", False, "integer")
    assert t1["clocks"]["game"].count(":") == 1 and t1["totals"] == {"blue": "0", "red": "0"}
    assert data["roster"] == ["Ana Cruz", "Ben Reyes", "Cara Lim"]


def test_the_teachers_routes_never_create_a_board(client: TestClient) -> None:
    assert client.get("/class").status_code == 200
    assert "class.js" in client.get("/class").text
    assert client.get("/board/x9/projector").status_code == 200
    assert client.get("/board/x9/games.json").json() == {"board": "x9", "games": []}
    assert client.get("/board/x9/games/game-1/game.pdn").status_code == 404
    assert client.get("/api/class").json()["boards"] == []
    assert client.get("/board/bad%20id/games.json").status_code == 404


def test_a_kept_game_is_listed_and_downloaded(client: TestClient, clock: ManualClock) -> None:
    create(client, "k1")
    with client.websocket_connect("/ws/k1") as ws:
        receive_state(ws)
        _act(ws, {"type": "info", "info": {"blue": "Cara Lim"}})
        clock.advance(SETTLE)
        _until(ws, lambda st: st["phase"] == "play")
        _act(ws, {"type": "click", "square": [1, 2]})
        _act(ws, {"type": "click", "square": [2, 3]})
        clock.advance(SETTLE)
        _until(ws, lambda st: st["ply"] == 1)
        refused = _act(ws, {"type": "new_game"})
        assert refused["type"] == "error" and "needs to be confirmed" in refused["message"]
        assert _act(ws, {"type": "new_game", "confirm": True})["type"] == "done"
    games = client.get("/board/k1/games.json").json()["games"]
    assert len(games) == 1 and games[0]["blue"] == "Cara Lim" and games[0]["moves"] == 1
    name = games[0]["name"]
    sheet = client.get(f"/board/k1/games/{name}/scoresheet.html")
    assert sheet.status_code == 200 and "Cara Lim" in sheet.text
    assert "Game in progress after 1 move" in sheet.text
    pdn = client.get(f"/board/k1/games/{name}/game.pdn")
    assert '[Blue "Cara Lim"]' in pdn.text and "attachment" in pdn.headers["content-disposition"]
    assert client.get(f"/board/k1/games/{name}/notes.txt").status_code == 404
    assert client.get("/board/k1/games/..%2Fjournal/game.pdn").status_code == 404


def test_the_display_picture_is_never_cached(client: TestClient) -> None:
    create(client, "d1")
    png = client.get("/board/d1/oled.png?k=abc")
    assert png.headers["cache-control"] == "no-store"


def test_sim_takes_settings_for_every_new_game_and_a_class_list() -> None:
    args = build_parser().parse_args(
        ["sim", "--set", "practice=true", "--set", "clocks=off", "--players", "class.txt"]
    )
    assert args.set == ["practice=true", "clocks=off"] and args.players == "class.txt"


def test_a_wrong_sim_set_is_one_clear_line(tmp_path: Path, capsys) -> None:
    from controller.cli import main

    assert main(["sim", "--no-save", "--port", "0", "--set", "capture_preview=true"]) == 2
    assert "practice help" in capsys.readouterr().err
