"""Who may do what on the simulator (docs/security.md): pages from other sites and other host
names are refused, opening an address never creates a board, players move chips and answer the
board's questions while everything else needs the arbiter's PIN, which is stored hashed and
cannot be guessed quickly; every response carries the security headers."""

from __future__ import annotations

import argparse
import json
import re
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.cli.sim import arbiter_access
from controller.games import GAMES
from controller.sim import access as acc
from controller.sim.access import (
    ACTIONS,
    ARBITER,
    COOKIE,
    LOOPBACK_NAMES,
    PLAYER,
    Access,
    action_of,
    check_pin,
    hash_pin,
    read_pin_file,
    write_pin_file,
)
from controller.sim.engine import SimBoard
from controller.sim.server import create_app
from drivers.buttons import BUTTON_NAMES as BUTTONS

from .conftest import ManualClock, RunningServer

PIN = "4821"
STATIC = Path(__file__).resolve().parents[2] / "controller" / "sim" / "static"


def replies(ws):
    """The next answer to a message (past any state pushed meanwhile)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] not in ("state", "hello"):
            return msg


def ready(ws):
    while ws.receive_json()["type"] != "state":
        pass


@pytest.fixture
def locked(clock: ManualClock):
    """A simulator with an arbiter's PIN, and one board the arbiter created."""
    app = create_app(clock=clock, access=Access(hash_pin(PIN)))
    with TestClient(app) as client:
        unlock(client)  # the cookie stays in the client, as in a browser
        assert client.post("/board/b1/create").status_code == 200
        client.cookies.clear()
        yield client


def unlock(client: TestClient, pin: str = PIN) -> str:
    r = client.post("/api/unlock", json={"pin": pin})
    assert r.status_code == 200, r.text
    return r.cookies[COOKIE]


# ---------------------------------------------------------------------- where requests come from


def test_a_page_of_another_site_cannot_open_the_channel_or_post(clock: ManualClock) -> None:
    with TestClient(create_app(clock=clock)) as client:
        client.post("/board/b1/create")
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect("/ws/b1", headers={"origin": "http://evil.example"}),
        ):
            pass
        assert info.value.code == 1008
        for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
            r = client.post("/board/b2/create", headers={"origin": origin})
            assert r.status_code == 403 and "other sites" in r.text
        assert client.get("/api/boards").json() == {"boards": ["b1"]}
        # the simulator's own pages, and scripts without an Origin, are served
        with client.websocket_connect("/ws/b1", headers={"origin": "http://testserver"}) as ws:
            ready(ws)
        with client.websocket_connect("/ws/b1") as ws:
            ready(ws)


def test_on_127_0_0_1_only_its_own_host_names_are_answered(clock: ManualClock) -> None:
    """A site whose DNS points at 127.0.0.1 (DNS rebinding) sends its own name as Host."""
    app = create_app(clock=clock, allowed_hosts=LOOPBACK_NAMES)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/").status_code == 200
        assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
        assert client.get("/", headers={"host": "[::1]:8000"}).status_code == 200
        r = client.get("/", headers={"host": "rebound.evil.example:8000"})
        assert r.status_code == 403 and "host name" in r.text
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/b1", headers={"host": "rebound.evil.example"}),
        ):
            pass


def test_opening_addresses_never_creates_boards(clock: ManualClock) -> None:
    with TestClient(create_app(clock=clock, max_boards=64)) as client:
        for i in range(100):  # 64 used to lock everyone out of new boards
            assert client.get(f"/board/b{i}").status_code == 404
        with client.websocket_connect("/ws/b1") as ws:
            reply = ws.receive_json()
            assert reply["need"] == "create" and "no board 'b1' yet" in reply["message"]
        assert client.get("/api/boards").json() == {"boards": []}
        page = client.get("/board/b1")
        assert "Create board b1" in page.text and "name='pin'" not in page.text  # no PIN set
        assert client.post("/board/b1/create").url.path == "/board/b1"


# ---------------------------------------------------------------------- players and the arbiter


@pytest.mark.slow
@pytest.mark.parametrize(
    "message",
    [
        {"type": "button", "name": "takeback"},
        {"type": "button", "name": "pause"},
        {"type": "button", "name": "pause", "hold": True},
        {"type": "button", "name": "new_game"},
        {"type": "new_game", "variant": "fraction", "profile": "official"},
        {"type": "new_game", "position": {"pieces": []}},
        {"type": "button", "name": "next"},  # in setup: the variant
        {"type": "new_game", "confirm": True},
        {"type": "info", "info": {"blue": "Ana"}},  # the players' names and the event
        {"type": "play", "play": {"capture_preview": True}},  # a practice help
        {"type": "teleport"},  # anything unknown needs the arbiter
    ],
)
def test_a_player_cannot_do_the_arbiters_part(locked: TestClient, message) -> None:
    with locked.websocket_connect("/ws/b1") as ws:
        ready(ws)
        ws.send_json(message)
        reply = replies(ws)
        assert reply["type"] == "error" and reply["need"] == ARBITER
        assert "is for the arbiter: enter the arbiter's PIN" in reply["message"]
        assert reply["retry"] == message  # the page sends it again once unlocked
    assert locked.get("/board/b1/state.json").json()["variant"] == "integer"


def test_a_player_moves_chips_and_the_arbiter_unlocks_the_rest(locked: TestClient) -> None:
    with locked.websocket_connect("/ws/b1") as ws:
        ready(ws)
        ws.send_json({"type": "click", "square": [1, 2]})
        assert replies(ws)["type"] == "done"
        ws.send_json({"type": "arrange"})
        assert replies(ws)["type"] == "done"
    wrong = locked.post("/api/unlock", json={"pin": "1234"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "that is not the arbiter's PIN"
    token = unlock(locked)
    assert locked.get("/api/access").json() == {
        "role": ARBITER,
        "pin": True,
    }
    headers = {"cookie": f"{COOKIE}={token}"}
    with locked.websocket_connect("/ws/b1", headers=headers) as ws:
        ready(ws)
        ws.send_json({"type": "new_game", "variant": "fraction", "profile": "official"})
        assert replies(ws)["type"] == "done"
    assert locked.get("/board/b1/state.json").json()["variant"] == "fraction"
    locked.post("/api/lock")
    locked.cookies.set(COOKIE, token)  # the old token, kept by someone: no longer worth anything
    assert locked.get("/api/access").json()["role"] == PLAYER


def test_creating_a_board_needs_the_pin_when_one_is_set(locked: TestClient) -> None:
    page = locked.get("/board/b2")
    assert page.status_code == 404 and "name='pin'" in page.text
    refused = locked.post("/board/b2/create", data={"pin": "0000"})
    assert refused.status_code == 403 and "not the arbiter's PIN" in refused.text
    made = locked.post("/board/b2/create", data={"pin": PIN}, follow_redirects=False)
    assert made.status_code == 303 and COOKIE in made.cookies  # this browser is unlocked
    assert locked.get("/api/boards").json() == {"boards": ["b1", "b2"]}


def test_guessing_the_pin_is_slowed_down(clock: ManualClock) -> None:
    now = [0.0]
    access = Access(hash_pin(PIN), clock=lambda: now[0])
    for _ in range(acc.FREE_TRIES):
        with pytest.raises(acc.AccessError, match="not the arbiter's PIN"):
            access.unlock("0000", "10.0.0.9")
    with pytest.raises(acc.AccessError, match="too many wrong PINs: wait 30 s"):
        access.unlock(PIN, "10.0.0.9")  # even the right one, for now
    assert access.unlock(PIN, "10.0.0.10")  # another machine is not held up
    now[0] += 31
    with pytest.raises(acc.AccessError, match="not the arbiter's PIN"):
        access.unlock("0001", "10.0.0.9")
    with pytest.raises(acc.AccessError, match="wait 60 s"):  # doubled
        access.unlock(PIN, "10.0.0.9")
    now[0] += 61
    token = access.unlock(PIN, "10.0.0.9")
    assert access.role(token) == ARBITER and access.role("forged") == PLAYER
    now[0] += acc.TOKEN_SECONDS + 1
    assert access.role(token) == PLAYER  # tokens expire


def test_the_pin_is_kept_only_as_a_salted_hash_readable_by_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "sim-pin"
    write_pin_file(path, PIN)
    stored = read_pin_file(path)
    assert stored is not None and PIN not in path.read_text()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert check_pin(PIN, stored) and not check_pin("4822", stored)
    assert hash_pin(PIN) != hash_pin(PIN)  # salted
    with pytest.raises(ValueError, match="4 to 64"):
        write_pin_file(path, "12")
    path.write_text("4821\n")
    with pytest.raises(ValueError, match="not a PIN file"):
        read_pin_file(path)


def _args(**kw) -> argparse.Namespace:
    return argparse.Namespace(**{"set_pin": False, "pin_file": None, **kw})


def test_the_default_pin_policy(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DAMATH_SIM_PIN", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    access, note = arbiter_access(_args(), "127.0.0.1")
    assert access.open and note is None  # this machine only: everyone is the arbiter
    access, note = arbiter_access(_args(), "0.0.0.0")
    assert not access.open  # the school network: never without a PIN
    printed = re.search(r"PIN for this run: (\d{6})", note or "")
    assert printed and check_pin(printed.group(1), access.pin_hash or "")
    write_pin_file(tmp_path / "damath-board" / "sim-pin", "9137")
    access, note = arbiter_access(_args(), "127.0.0.1")
    assert check_pin("9137", access.pin_hash or "") and "--set-pin" in (note or "")
    monkeypatch.setenv("DAMATH_SIM_PIN", "5566")
    access, _ = arbiter_access(_args(), "0.0.0.0")
    assert check_pin("5566", access.pin_hash or "")


def test_every_message_and_button_of_the_page_is_in_the_table() -> None:
    """The action table is the one place an action is classified: nothing the page or the
    engine knows falls through to the default."""
    kinds = {"new_game"}  # every message type a board of any game acts on
    for game in GAMES:
        kinds |= set(SimBoard("t", ManualClock(), defaults={"game": game}).table.types)
    assert {"touch", "takeback", "info", "play", "name", "done"} <= kinds
    for kind in kinds - {"button"}:  # buttons: each one below
        assert action_of({"type": kind}) in ACTIONS, kind
    html = (STATIC / "board.html").read_text()
    on_page = re.findall(r'data-button="(\w+)"(?: data-hold="(1)")?', html)
    page_only = {"hint"}  # the page's Hint (a game against the computer): no board button
    assert on_page and {name for name, _ in on_page} <= set(BUTTONS) | page_only
    for name, hold in {*on_page, *((name, "") for name in BUTTONS)}:  # a hold not on the page
        # (takeback held, say) needs the arbiter: an unknown action is closed by default
        message = {"type": "button", "name": name, "hold": hold == "1"}
        for phase in ("setup", "play", "over"):
            for menu in (False, True):
                assert action_of(message, phase, menu) in ACTIONS, (name, phase, menu)
    assert action_of({"type": "button", "name": "next"}, "play") == "button.next.choice"
    assert ACTIONS["button.next.choice"] == PLAYER  # players choose how a taking went
    assert action_of({"type": "button", "name": "confirm"}, "play", True) == "button.menu"


def wait_for(client: TestClient, board_id: str, test) -> None:
    """Until the board's state passes ``test`` (the server's ticker lets time pass)."""
    deadline = time.monotonic() + 20
    while not test(client.get(f"/board/{board_id}/state.json").json()):
        assert time.monotonic() < deadline, "the board never reached that state"
        time.sleep(0.02)


def test_a_players_own_takeback_needs_practice_and_the_teachers_leave(clock: ManualClock) -> None:
    """The player's takeback is the players' (no PIN), but the board itself allows it only in
    practice with ``takeback=players``; in any other game it is refused with the reason."""
    practice = {"practice": True, "takeback": "players"}
    app = create_app(clock=clock, access=Access(hash_pin(PIN)), defaults=practice)
    with TestClient(app) as client:
        unlock(client)
        assert client.post("/board/p1/create").status_code == 200
        client.cookies.clear()
        with client.websocket_connect("/ws/p1") as ws:
            ready(ws)
            ws.send_json({"type": "arrange"})
            assert replies(ws)["type"] == "done"
            clock.advance(1.0)
            wait_for(client, "p1", lambda st: st["phase"] == "play")
            for square in ([1, 2], [2, 3]):
                ws.send_json({"type": "click", "square": square})
                assert replies(ws)["type"] == "done"
            clock.advance(1.0)
            wait_for(client, "p1", lambda st: st["ply"] == 1)
            ws.send_json({"type": "takeback"})
            reply = replies(ws)
            assert reply["type"] == "done" and "need" not in reply, reply
            # helps are the arbiter's: a player cannot turn the players' takeback off
            ws.send_json({"type": "play", "play": {"takeback": "arbiter"}})
            assert replies(ws)["need"] == ARBITER


def test_a_players_takeback_outside_practice_is_refused_by_the_board(locked: TestClient) -> None:
    with locked.websocket_connect("/ws/b1") as ws:
        ready(ws)
        ws.send_json({"type": "takeback"})
        reply = replies(ws)
    assert reply["type"] == "error" and "need" not in reply  # not a PIN question: never allowed
    assert "arbiter" in reply["message"]


# ---------------------------------------------------------------------- the response headers


def test_pages_carry_the_security_headers_and_no_server_name(sim_server: RunningServer) -> None:
    paths = ["/", "/board/nope", "/static/sim.js", "/api/boards", "/favicon.ico"]
    paths += ["/class", "/api/class", "/static/class.js", "/board/nope/projector"]
    paths += ["/board/nope/games.json", "/board/nope/games/game-1/game.pdn"]
    for path in paths:
        try:
            response = urllib.request.urlopen(sim_server.url + path, timeout=10)
        except urllib.error.HTTPError as exc:
            response = exc
        headers = {k.lower(): v for k, v in response.headers.items()}
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert "server" not in headers, headers.get("server")


def test_no_page_has_an_inline_script() -> None:
    for page in STATIC.glob("*.html"):
        assert not re.search(r"<script(?![^>]*\bsrc=)", page.read_text()), page.name


def test_the_access_script_is_loaded_before_the_page_script() -> None:
    html = (STATIC / "board.html").read_text()
    assert html.index("/static/access.js") < html.index("/static/sim.js")


def test_unlock_json_and_form_bodies_are_read_small(clock: ManualClock) -> None:
    with TestClient(create_app(clock=clock, access=Access(hash_pin(PIN)))) as client:
        huge = client.post("/api/unlock", content=b'{"pin": "' + b"1" * 100_000 + b'"}',
                           headers={"content-type": "application/json"})  # fmt: skip
        assert huge.status_code == 413  # the edge: refused by its length, never read
        assert huge.text == "the body is too large (at most 16384 bytes here)\n"
        big = client.post("/api/unlock", content=b'{"pin": "' + b"1" * 10_000 + b'"}',
                          headers={"content-type": "application/json"})  # fmt: skip
        assert big.status_code == 403  # the route reads 4 KiB at most: no PIN in it
        deep = client.post("/api/unlock", content=("[" * 10_000).encode(),
                           headers={"content-type": "application/json"})  # fmt: skip
        assert deep.status_code == 403
        assert json.loads(deep.text)["error"] == "that is not the arbiter's PIN"


def test_the_index_form_opens_a_board_without_its_script(clock: ManualClock) -> None:
    """GET /board/?id=NAME (the index's form, script off) goes to that board's page; a name
    that breaks the board-id rule is refused with the rule, and nothing is created."""
    with TestClient(create_app(clock=clock)) as client:
        sent = client.get("/board/?id=b7", follow_redirects=False)
        assert sent.status_code == 303 and sent.headers["location"] == "/board/b7"
        assert "Create board b7" in client.get("/board/?id=b7").text
        bad = client.get("/board/?id=%3Cscript%3E")
        assert bad.status_code == 400 and "<script>" not in bad.text
        assert client.get("/api/boards").json() == {"boards": []}


def test_a_pins_hash_runs_off_the_event_loop(clock: ManualClock, monkeypatch) -> None:
    """Issue 39, item 11: the PIN's hash ran on the event loop every page shares (150 wrong PINs
    from 30 addresses stalled the other pages 1.7 s); it runs in a worker thread, for the
    unlock and for a board's creation alike, and a right PIN still unlocks."""
    import asyncio

    on_loop: list[bool] = []
    real = acc.check_pin

    def watched(pin: str, stored: str) -> bool:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return real(pin, stored)

    monkeypatch.setattr(acc, "check_pin", watched)
    app = create_app(clock=clock, access=Access(hash_pin(PIN)))
    with TestClient(app) as client:
        assert client.post("/api/unlock", json={"pin": "0000"}).status_code == 403
        unlock(client)
        client.cookies.clear()
        assert client.post("/board/b2/create", data={"pin": PIN}).status_code in (200, 303)
    assert on_loop == [False, False, False]


def test_the_unlocked_sessions_are_kept_as_digests_readable_by_their_owner(tmp_path: Path) -> None:
    access = Access.with_pin(PIN, tmp_path)
    token = access.unlock(PIN, "10.0.0.9")
    kept = tmp_path / "arbiter-sessions.json"
    assert token not in kept.read_text() and oct(kept.stat().st_mode & 0o777) == "0o600"
    again = Access.with_pin(PIN, tmp_path)  # a restart, the same PIN: the same hash
    assert again.pin_hash == access.pin_hash and again.role(token) == ARBITER
    again.lock(token)
    assert Access.with_pin(PIN, tmp_path).role(token) == PLAYER  # locked stays locked
    kept.write_text("{not json")
    assert Access.with_pin(PIN, tmp_path).role(token) == PLAYER  # damaged: none, no traceback
