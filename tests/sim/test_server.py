"""The web app: pages, the live channel, several boards, downloads, and bad input answered."""

from __future__ import annotations

import socket

import pytest
from starlette.testclient import TestClient

from controller.cli import build_parser
from controller.cli.sim import address, bind
from controller.sim.server import create_app

from .conftest import ManualClock


@pytest.fixture
def client(clock: ManualClock):
    with TestClient(create_app(clock=clock, max_boards=3)) as c:
        yield c


def create(client: TestClient, *board_ids: str) -> None:
    """The arbiter creates boards (a deliberate act; opening an address never does)."""
    for board_id in board_ids:
        assert client.post(f"/board/{board_id}/create").status_code == 200


def receive_state(ws) -> dict:
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state":
            return msg["state"]


def receive_reply(ws) -> dict:
    """The answer to the last message, past any state pushed meanwhile."""
    while True:
        msg = ws.receive_json()
        if msg["type"] != "state":
            return msg


def test_pages_and_assets_are_served_by_the_app(client: TestClient) -> None:
    assert "Damath virtual board" in client.get("/").text
    assert client.get("/board/class-7_a").status_code == 404  # not created by opening it
    assert client.get("/api/boards").json() == {"boards": []}
    create(client, "class-7_a")
    page = client.get("/board/class-7_a")
    assert page.status_code == 200 and "/static/sim.js" in page.text
    for asset in ("sim.js", "sim.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert client.get("/api/boards").json() == {"boards": ["class-7_a"]}


def test_an_unknown_or_bad_board_id_gets_a_clear_page(client: TestClient) -> None:
    page = client.get("/board/no%20spaces")
    assert page.status_code == 404 and "is not a board id" in page.text
    missing = client.get("/board/never-opened/scoresheet.csv")
    assert missing.status_code == 404 and "there is no board" in missing.text
    create(client, "b1")
    assert client.get("/board/b1/notes.docx").status_code == 404


def test_too_many_boards_is_refused_politely(client: TestClient) -> None:
    for i in range(3):
        create(client, f"b{i}")
    page = client.post("/board/b3/create")
    assert page.status_code == 409 and "already runs 3 boards" in page.text


def test_the_channel_sends_facts_then_state_and_answers_actions(client: TestClient) -> None:
    create(client, "b1")
    with client.websocket_connect("/ws/b1") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and "integer" in hello["facts"]["variants"]
        state = receive_state(ws)
        assert state["board"] == "b1" and len(state["squares"]) == 32
        ws.send_json({"type": "click", "square": [1, 2]})
        assert receive_reply(ws) == {
            "type": "done",
            "message": "You lifted the blue chip -9 from (1, 2).",
        }
        assert receive_state(ws)["hand"]["label"] == "-9"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "not a JSON message"),
        ('"click"', "JSON object"),
        ('{"type": "click", "square": "b2"}', "'square' must be a square"),
        ('{"type": "click", "square": [3, 4]}', "no chip on (3, 4)"),
        ("x" * 5000, "message too long"),
    ],
)
def test_bad_messages_get_an_error_and_the_channel_stays_open(
    client: TestClient, text: str, says: str
) -> None:
    create(client, "b1")
    with client.websocket_connect("/ws/b1") as ws:
        receive_state(ws)
        ws.send_text(text)
        reply = receive_reply(ws)
        assert reply["type"] == "error" and says in reply["message"]
        ws.send_json({"type": "click", "square": [1, 2]})
        assert receive_reply(ws)["type"] == "done"


def test_a_bad_board_id_on_the_channel_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws/bad%20id") as ws:
        reply = ws.receive_json()
        assert reply["type"] == "error" and "not a board id" in reply["message"]


def test_boards_are_independent_and_pages_of_one_board_agree(client: TestClient) -> None:
    create(client, "pair1", "pair2")
    with (
        client.websocket_connect("/ws/pair1") as a,
        client.websocket_connect("/ws/pair1") as a2,
        client.websocket_connect("/ws/pair2") as b,
    ):
        for ws in (a, a2, b):
            receive_state(ws)
        a.send_json({"type": "click", "square": [1, 2]})
        assert receive_reply(a)["type"] == "done"
        assert receive_state(a)["hand"] is not None
        # the other page of the same board: states pushed before the click (the clock's) may
        # come first, so it is read up to a few states on
        hands = [receive_state(a2)["hand"]]
        while hands[-1] is None and len(hands) < 10:
            hands.append(receive_state(a2)["hand"])
        assert hands[-1] is not None, hands
    assert client.get("/board/pair2/state.json").json()["hand"] is None


def test_downloads_and_the_scoresheet_display(client: TestClient) -> None:
    create(client, "d1")
    csv = client.get("/board/d1/scoresheet.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert "attachment" in csv.headers["content-disposition"]
    assert csv.text.startswith("player,kind,entry,score,total,square")
    assert "<html" in client.get("/board/d1/scoresheet.html").text.lower()
    assert "[Result" in client.get("/board/d1/game.pdn").text
    png = client.get("/board/d1/oled.png")
    assert png.headers["content-type"] == "image/png" and png.content[:4] == b"\x89PNG"


def test_sim_is_a_subcommand_with_host_and_port() -> None:
    args = build_parser().parse_args(["sim", "--port", "0"])
    assert (args.host, args.port) == ("127.0.0.1", 0)


def test_a_busy_port_moves_to_the_next_free_one_and_says_so() -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        sock, note = bind("127.0.0.1", port)
        try:
            assert sock.getsockname()[1] != port
            assert note is not None and f"port {port} is busy" in note
        finally:
            sock.close()
    finally:
        busy.close()


def test_the_address_to_open() -> None:
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert address("0.0.0.0", 8001) == "http://127.0.0.1:8001/"
    with pytest.raises(ValueError, match="from 0 to 65535"):
        bind("127.0.0.1", 70000)
