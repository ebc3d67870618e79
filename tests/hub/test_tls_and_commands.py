"""TLS end to end (certificates made with openssl as docs/hall.md says), the organiser's
assignments reaching a board and filing its game under the round's feeds, and the commands'
answers to mistakes: one line, exit code 2, no traceback."""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from .conftest import DAMATH, Board, assert_hub_equals_journals, free_port


def make_certificates(folder) -> tuple[str, str, str]:
    def run(*args: str) -> None:
        subprocess.run(args, cwd=folder, check=True, capture_output=True)

    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-subj", "/CN=Test hall CA", "-keyout", "ca.key", "-out", "ca.pem")  # fmt: skip
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", "hub.key", "-out", "hub.csr")  # fmt: skip
    (folder / "san.txt").write_text("subjectAltName=IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "hub.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.txt", "-out", "hub.pem")  # fmt: skip
    return str(folder / "ca.pem"), str(folder / "hub.pem"), str(folder / "hub.key")


@pytest.mark.slow
def test_boards_over_tls(hub, tmp_path, sample_moves):
    ca, cert, key = make_certificates(tmp_path)
    tls_port = free_port()
    hub.extra = ["--tls-cert", cert, "--tls-key", key, "--tls-port", str(tls_port),
                 "--mqtt-bind", "0.0.0.0"]  # fmt: skip
    hub.start()
    from controller.hub.credentials import add_board

    conn = add_board(hub.folder, "s1", host="127.0.0.1", port=tls_port, ca_file=ca).path
    text = conn.read_text()
    assert "tls = true" in text and 'ca_file = "hub-ca.pem"' in text
    board = Board("s1", tmp_path / "s1", conn)
    board.start_link()
    board.open_session()
    board.play.play_moves(sample_moves[:5], speed=50)
    board.wait_acked()
    assert_hub_equals_journals(hub.folder, [board])
    board.close()
    # with TLS the plain listener serves only this machine's hub
    conf = (hub.folder / "broker" / "mosquitto.conf").read_text()
    assert f"listener {hub.mqtt_port} 127.0.0.1" in conf and f"listener {tls_port} 0.0.0.0" in conf


def post(hub, body: dict, token: str | None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(hub.url + "/api/assignments", json.dumps(body).encode(),
                                     headers, method="POST")  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.slow
def test_assignment_reaches_the_board_and_files_the_game(hub, tmp_path, sample_moves):
    hub.start()
    board = Board("r1", tmp_path / "r1", hub.add_board("r1"))
    token = (hub.folder / "hub.toml").read_text().split('organiser_token = "')[1].split('"')[0]
    body = {"board": "r1", "round": 2, "table": 5, "blue": {"name": "Ana"}, "red": {"name": "Ben"}}
    assert post(hub, body, None)[0] == 401
    assert post(hub, body, "wrong")[0] == 401
    assert post(hub, {**body, "round": "two"}, token)[0] == 400
    assert post(hub, {**body, "board": "nobody"}, token)[0] == 400
    status, assignment = post(hub, body, token)
    assert status == 201 and assignment["round"] == 2
    board.start_link()
    deadline = time.monotonic() + 60  # a bound for a hung test, not a pace
    while board.link.assignment() is None:
        assert time.monotonic() < deadline, "the board did not get its assignment"
        time.sleep(0.05)
    assert board.link.assignment()["blue"] == {"name": "Ana"}
    assert (board.folder / "link" / "assignment.json").exists()  # kept across restarts
    board.open_session()
    board.play.play_moves(sample_moves[:4], speed=50)
    board.wait_acked()
    feed = hub.json("/feeds/rounds/2.json")
    (game,) = feed["games"]
    assert game["assignment"]["id"] == assignment["id"] and len(game["moves"]) == 4
    assert [m["side"] for m in game["moves"]] == ["blue", "red", "blue", "red"]
    pdn = hub.get("/feeds/rounds/2.pdn").decode()
    assert '[Round "2"]' in pdn and '[Blue "Ana"]' in pdn and '[Board "r1"]' in pdn
    for tag in ("Event", "Round", "Board", "Blue", "Red"):  # the board's own replaced in place
        assert pdn.count(f"[{tag} ") == 1, (tag, pdn)
    assert hub.json("/feeds/rounds/0.json")["games"] == []
    # what the board reports about itself reaches the organiser's board list
    board.link.report(problems=["sensor 3,4 stuck on"], firmware="pico-1.4")

    def listed() -> dict:
        return next(b for b in hub.json("/api/boards")["boards"] if b["board"] == "r1")

    deadline = time.monotonic() + 60  # a bound for a hung test, not a pace
    while listed()["firmware"] != "pico-1.4":
        assert time.monotonic() < deadline, listed()
        time.sleep(0.1)
    shown = listed()
    assert shown["problems"] == ["sensor 3,4 stuck on"] and shown["online"]
    assert shown["software"] and shown["counters"]["stored"] >= 6
    board.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hub"], "--dir DIR is needed"),
        (["hub", "--dir", "{d}", "--broker", "http://x"], "expected mqtt://HOST:PORT"),
        (["hub", "--dir", "{d}", "--tls-cert", "x.pem"], "--tls-cert and --tls-key go together"),
        (["hub", "--dir", "{d}", "--http-port", "70000"], "a number from 1 to 65535"),
        (["hub", "board-add", "b1", "--dir", "{d}"], "--host 192.168.x.y"),
        (["hub", "board-add", "Bad Id", "--dir", "{d}", "--host", "h"], "board id 'Bad Id'"),
        (
            ["hub", "board-add", "b1", "--dir", "{d}", "--host", "h", "--ca", "none.pem"],
            "no such file",
        ),
    ],
)
def test_mistakes_get_one_line(tmp_path, args, message):
    args = [a.replace("{d}", str(tmp_path / "ev")) for a in args]
    r = subprocess.run([DAMATH, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_board_add_twice_needs_replace(tmp_path):
    base = [DAMATH, "hub", "board-add", "b1", "--dir", str(tmp_path), "--host", "10.0.0.5"]
    first = subprocess.run(base, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "b1.toml" in first.stdout
    again = subprocess.run(base, capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "--replace" in again.stderr
    old = (tmp_path / "boards" / "b1.toml").read_text()
    replaced = subprocess.run([*base, "--replace"], capture_output=True, text=True, timeout=60)
    assert replaced.returncode == 0 and (tmp_path / "boards" / "b1.toml").read_text() != old


def test_a_busy_broker_port_is_a_clear_error(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run(
            [DAMATH, "hub", "--dir", str(tmp_path), "--mqtt-port", str(port), "--mqtt-bind",
             "127.0.0.1", "--http-port", str(free_port())],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert r.returncode == 2 and "mosquitto did not start" in r.stderr, r.stderr


def test_an_existing_broker_and_a_late_spectator(tmp_path, sample_moves):
    """``--broker URL``: the hub is a client of a broker it did not start (here a Mosquitto run
    by the test with its own password file and ACL); a spectator who subscribes late gets every
    board's retained state and presence at once."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from controller.hub.broker import Broker, BrokerFiles
    from controller.hub.settings import load_or_create
    from controller.link.config import load

    from .conftest import RunningHub

    event = tmp_path / "event"
    settings = load_or_create(event)
    external = BrokerFiles(tmp_path / "external")
    external.set_password("hub", settings.password)
    broker = Broker(external, free_port(), "127.0.0.1")
    broker.start()
    try:
        hub = RunningHub(event, mqtt_port=broker.port)
        hub.extra = ["--broker", f"mqtt://127.0.0.1:{broker.port}"]
        conn = hub.add_board("x1")
        external.set_password("x1", load(conn).password)  # the broker's admin installs it
        assert external.reload()
        hub.start()
        assert not (event / "broker" / "mosquitto.pid").exists()  # no broker of its own
        board = Board("x1", tmp_path / "x1", conn)
        board.start_link()
        board.open_session()
        board.play.play_moves(sample_moves[:3], speed=50)
        board.wait_acked()
        assert_hub_equals_journals(event, [board])
        got: dict[str, dict] = {}
        # a reader of its own (docs/hall.md): the hub's user would replace the hub's
        # connection, as the broker keeps one connection per user
        (external.folder / "acl.extra").write_text(
            "user results-pc\ntopic read damath/v1/boards/+/state\n"
            "topic read damath/v1/boards/+/presence\n"
        )
        external.set_password("results-pc", "a long password here")
        assert external.reload()
        late = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="late-spectator")
        late.username_pw_set("results-pc", "a long password here")
        late.on_message = lambda c, u, m: got.__setitem__(m.topic.rsplit("/", 1)[1],
                                                           json.loads(m.payload))  # fmt: skip
        late.connect("127.0.0.1", broker.port)
        late.subscribe([("damath/v1/boards/x1/state", 1), ("damath/v1/boards/x1/presence", 1)])
        late.loop_start()
        deadline = time.monotonic() + 60  # a bound for a hung test, not a pace
        while len(got) < 2:
            assert time.monotonic() < deadline, got
            time.sleep(0.05)
        late.loop_stop()
        state = got["state"]
        assert got["presence"]["online"] is True
        assert state["ply"] == 3 and state["phase"] == "play"
        assert state["totals"] == dict(
            zip(("blue", "red"), board.play.session.totals(), strict=True)
        )
        assert len(state["position"]["pieces"]) == len(board.play.session.game.chips())
        board.close()
        hub.stop()
    finally:
        broker.stop()
