"""The board's link to the hub without a broker, where mutation testing found slips the first
tests let through (bench/mutation.sh link-publisher): the MQTT session it asks paho for, what it
subscribes to and says on connecting, how it reads the hub's acknowledgements, assignments,
commands and presence, what it publishes (records within the window, again after an outage or a
silence, the retained state) and how it says goodbye. paho is replaced by a stand-in that
records what the link asks of it, and the link's clock by the test's: a worker pass is what
the link's own thread does at each poll (``step``)."""

from __future__ import annotations

import json
import logging
import threading
import time as real_time
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from controller.link import publisher as publisher_module
from controller.link.config import LinkConfig
from controller.link.follower import Follower
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.protocol import (
    HUB_PRESENCE,
    ack_payload,
    board_topic,
    canonical,
    parse_envelope,
    presence_payload,
)
from controller.link.publisher import CONNECT_ERRORS, Link, software_version
from controller.record.journal_file import encode, read

KEY = bytes(range(32))
CONFIG = LinkConfig("[fd00::1]", 8883, True, "ca.pem", "b1", "user-b1", "pw", KEY)
RECORDS = board_topic("b1", "records")
STATE = board_topic("b1", "state")
PRESENCE = board_topic("b1", "presence")
OK = ReasonCode(PacketTypes.CONNACK, "Success")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("source")
    board = PlaybackBoard(folder, sync=False)
    board.play_moves(sample_game_moves()[1][:6])
    board.close()
    return read(folder / "journal.jsonl").records


def write(path, recs) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(encode(r) for r in recs))


@dataclass
class Info:
    rc: int = mqtt.MQTT_ERR_SUCCESS
    waited: float | None = None

    def wait_for_publish(self, timeout: float | None = None) -> None:
        self.waited = timeout


@dataclass
class FakeClient:
    published: list[tuple[str, bytes, int, bool]] = field(default_factory=list)
    subscribed: list[Any] = field(default_factory=list)
    calls: list[tuple] = field(default_factory=list)
    infos: list[Info] = field(default_factory=list)
    refuse_after: int | None = None
    """Publishes accepted before paho says no (its queue full)."""

    def publish(self, topic, payload=None, qos=0, retain=False):
        self.published.append((topic, payload, qos, retain))
        ok = self.refuse_after is None or len(self.published) <= self.refuse_after
        self.infos.append(Info(mqtt.MQTT_ERR_SUCCESS if ok else mqtt.MQTT_ERR_QUEUE_SIZE))
        return self.infos[-1]

    def subscribe(self, topics, qos=0):
        self.subscribed.append(topics)

    def connect_async(self, host, port, keepalive=60):
        self.calls.append(("connect_async", host, port, keepalive))

    def loop_start(self):
        self.calls.append(("loop_start",))

    def loop_stop(self):
        self.calls.append(("loop_stop",))

    def disconnect(self):
        self.calls.append(("disconnect",))

    def records(self) -> list[int]:
        return [json.loads(p)["seq"] for t, p, _, _ in self.published if t == RECORDS]

    def states(self) -> list[dict]:
        return [json.loads(p) for t, p, _, _ in self.published if t == STATE]


class Clock:
    """The link's ``time``: monotonic seconds the test moves, a fixed wall time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return 1_700_000_000.25

    def sleep(self, seconds: float) -> None:
        self.now = round(self.now + seconds, 6)  # no drift: twenty 0.05 s make one second


@dataclass
class Message:
    topic: str
    payload: bytes


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(publisher_module, "time", c)
    return c


@pytest.fixture
def made(monkeypatch):
    """Every new_client call: its arguments and the stand-in returned."""
    calls: list[dict] = []

    def new_client(client_id, username, password, **kw):
        calls.append({"client_id": client_id, "username": username, "password": password, **kw})
        return FakeClient()

    monkeypatch.setattr(publisher_module, "new_client", new_client)
    return calls


def link_in(folder, made, **kw) -> tuple[Link, FakeClient, dict]:
    link = Link(CONFIG, folder, **kw)
    return link, link.client, made[-1]["handlers"]


def step(link: Link) -> None:
    """One pass of the link's worker (``Link._run``)."""
    with link._lock:
        link._publish(link.follower.scan())


def connect(link: Link, client: FakeClient, handlers: dict) -> None:
    handlers["on_connect"](client, None, None, OK, None)


def hub_says(handlers, client, topic, payload) -> None:
    handlers["on_message"](client, None, Message(topic, payload))


# ---------------------------------------------------------------------------- the session


def test_the_session_the_board_asks_of_paho(tmp_path, made, clock):
    link, client, _ = link_in(tmp_path, made, window=7)
    asked = dict(made[-1])
    assert set(asked.pop("handlers")) == {"on_connect", "on_disconnect", "on_message"}
    assert asked == {
        "client_id": "board-b1",
        "username": "user-b1",
        "password": "pw",
        "will": (PRESENCE, presence_payload(False, 0.0, reason="lost")),
        "clean_session": True,
        "tls": True,
        "ca_file": "ca.pem",
        "reconnect": (1, 8),
        "inflight": 7,
    }
    Link(CONFIG, tmp_path / "other", client_id="bench-7")
    assert made[-1]["client_id"] == "bench-7"
    assert link.start() is link
    assert client.calls == [("connect_async", "fd00::1", 8883, 10), ("loop_start",)]
    assert link.start() is link and len(client.calls) == 2  # started once
    link.stop(timeout=0.5)


def test_a_started_link_connects_with_its_keepalive(tmp_path, made, clock):
    link, client, _ = link_in(tmp_path, made, keepalive=3)
    link.start()
    link.stop(timeout=0.2)
    assert client.calls[0] == ("connect_async", "fd00::1", 8883, 3)


def test_on_connecting_it_subscribes_and_says_it_is_online(tmp_path, made, clock):
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    assert client.subscribed == [
        [
            (board_topic("b1", "ack"), 1),
            (board_topic("b1", "assignment"), 1),
            (board_topic("b1", "command"), 1),
            (board_topic("b1", "resend"), 1),  # the hub's --rebuild asks for every game
            (HUB_PRESENCE, 1),
        ]
    ]
    presence = presence_payload(True, 1_700_000_000.25, software=software_version())
    assert client.published == [(PRESENCE, presence, 1, True)]
    status = link.status()
    assert (status.connected, status.last_error, status.hub_online) == (True, "", None)


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("Bad user name or password", CONNECT_ERRORS[134]),
        ("Not authorized", CONNECT_ERRORS[135]),
        ("Server unavailable", "refused: Server unavailable"),
    ],
)
def test_a_refused_connection_says_why(tmp_path, made, clock, code, error):
    link, client, handlers = link_in(tmp_path, made)
    handlers["on_connect"](client, None, None, ReasonCode(PacketTypes.CONNACK, code), None)
    assert client.subscribed == [] and client.published == []
    assert link.status().last_error == error and not link.status().connected


def test_the_mqtt_3_refusals_of_a_login_say_so_too():
    assert CONNECT_ERRORS[4] == CONNECT_ERRORS[5] == CONNECT_ERRORS[134] == CONNECT_ERRORS[135]
    assert "credential" in CONNECT_ERRORS[4]


def test_a_lost_connection_is_said_once_and_a_refusal_is_not_overwritten(tmp_path, made, clock):
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    lost = ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")
    handlers["on_disconnect"](client, None, None, lost, None)
    assert not link.status().connected
    assert link.status().last_error == "disconnected (Unspecified error)"
    refused = ReasonCode(PacketTypes.CONNACK, "Not authorized")
    handlers["on_connect"](client, None, None, refused, None)
    handlers["on_disconnect"](client, None, None, lost, None)
    assert link.status().last_error == CONNECT_ERRORS[135]


def test_a_lost_connection_is_said_while_the_worker_holds_the_links_lock(tmp_path, made, clock):
    """paho calls ``on_disconnect`` holding its outgoing-message lock (a reconnection's resend
    that fails at once: the broker killed again), while the worker may hold the link's lock and
    wait in ``client.publish`` for paho's: the callback must never wait for the link's lock, or
    both freeze for ever (found by the hub-kill test: a board's link stopped for good)."""
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    lost = ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")
    callback = threading.Thread(
        target=handlers["on_disconnect"], args=(client, None, None, lost, None), daemon=True
    )
    with link._lock:  # the worker, inside client.publish
        callback.start()
        callback.join(30)  # a bound for the test; it returns at once
        assert not callback.is_alive(), "on_disconnect waited for the link's lock"
    assert not link.status().connected
    assert link.status().last_error == "disconnected (Unspecified error)"


# ---------------------------------------------------------------------------- what it publishes


def test_records_go_within_the_window_and_the_rest_as_the_hub_acknowledges(
    tmp_path, made, clock, records
):
    write(tmp_path / "journal.jsonl", records)
    link, client, handlers = link_in(tmp_path, made, window=3)
    step(link)
    assert client.records() == []  # not connected: nothing
    connect(link, client, handlers)
    step(link)
    assert client.records() == [1, 2, 3]
    assert all(
        (qos, retain) == (1, False) for t, _, qos, retain in client.published if t == RECORDS
    )
    game = link.follower.scan()[0].tracked.id
    env = parse_envelope(next(p for t, p, _, _ in client.published if t == RECORDS), "b1")
    assert env.game == game and env.record == records[0]
    step(link)
    assert client.records() == [1, 2, 3]  # waiting for the hub
    assert link.status().unacked == len(records)
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, 2))
    step(link)
    assert client.records() == [1, 2, 3, 4, 5]
    assert link.status().unacked == len(records) - 2
    assert link.status().games == 1


def test_a_publish_paho_refuses_is_tried_again_later(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records)
    link, client, handlers = link_in(tmp_path, made, window=8)
    connect(link, client, handlers)
    client.refuse_after = 3  # the presence and two records
    step(link)
    assert client.records() == [1, 2, 3]  # the third refused: nothing after it
    client.refuse_after = None
    handlers["on_connect"](client, None, None, OK, None)  # a reconnection rewinds
    step(link)
    assert client.records()[3:] == list(range(1, 9))


def test_a_silent_hub_gets_the_records_again_later_and_later(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:4])
    link, client, handlers = link_in(tmp_path, made, resend_seconds=5.0)
    connect(link, client, handlers)
    step(link)
    assert client.records() == [1, 2, 3, 4]
    clock.now += 5.0
    step(link)
    assert client.records() == [1, 2, 3, 4]  # not yet: 5 s is the limit, not past it
    clock.now += 0.5
    step(link)
    assert client.records() == [1, 2, 3, 4] * 2
    clock.now += 6.0
    step(link)
    assert len(client.records()) == 8  # the wait doubled: 10 s now
    clock.now += 5.0
    step(link)
    assert len(client.records()) == 12
    # an acknowledgement: the wait is back to 5 s, and only what is left goes
    game = link.follower.scan()[0].tracked.id
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, 2))
    clock.now += 5.5
    step(link)
    assert client.records()[12:] == [3, 4]


def test_the_wait_for_a_silent_hub_stops_doubling_at_a_minute(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:2])
    link, client, handlers = link_in(tmp_path, made, resend_seconds=40.0)
    connect(link, client, handlers)
    step(link)
    for wait in (40, 60, 60):
        clock.now += wait - 0.5
        step(link)
        before = len(client.records())
        clock.now += 1.0
        step(link)
        assert len(client.records()) == before + 2, wait


def test_a_hub_said_offline_is_not_sent_to_again_until_it_is_back(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:3])
    link, client, handlers = link_in(tmp_path, made, resend_seconds=5.0)
    connect(link, client, handlers)
    hub_says(handlers, client, HUB_PRESENCE, b'{"v": 1, "online": false}')
    assert link.status().hub_online is False
    step(link)
    assert client.records() == [1, 2, 3]
    clock.now += 30
    step(link)
    assert client.records() == [1, 2, 3]  # an offline hub: no resend on silence
    hub_says(handlers, client, HUB_PRESENCE, b'{"v": 1, "online": true}')
    assert link.status().hub_online is True
    step(link)
    assert client.records() == [1, 2, 3] * 2  # back: everything not acknowledged
    hub_says(handlers, client, HUB_PRESENCE, b'{"v": 1, "online": true}')
    step(link)
    assert client.records() == [1, 2, 3] * 2  # still online: nothing to do
    hub_says(handlers, client, HUB_PRESENCE, b"[1]")
    assert link.status().hub_online is False


def test_the_retained_state_says_what_the_board_shows(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records)
    link, client, handlers = link_in(tmp_path, made, firmware="pico-1.0")
    connect(link, client, handlers)
    link.report(problems=["sensor 3,4 stuck on"])
    step(link)
    (state,) = client.states()
    live = link.follower.live_game()
    assert {k: state[k] for k in ("v", "board", "game", "seq", "software", "firmware")} == {
        "v": 1,
        "board": "b1",
        "game": live.tracked.id,
        "seq": len(records),
        "software": software_version(),
        "firmware": "pico-1.0",
    }
    assert state["problems"] == ["sensor 3,4 stuck on"] and state["assignment"] is None
    assert {k: state[k] for k in live.state.summary()} == json.loads(
        canonical(live.state.summary())
    )
    assert [p[2:] for p in client.published if p[0] == STATE] == [(1, True)]
    step(link)
    assert len(client.states()) == 1  # unchanged: not again
    link.report(firmware="pico-1.1")
    step(link)
    assert client.states()[-1]["firmware"] == "pico-1.1"
    assert client.states()[-1]["problems"] == ["sensor 3,4 stuck on"]  # kept
    handlers["on_connect"](client, None, None, OK, None)  # a new session: said again
    step(link)
    assert len(client.states()) == 3


def test_the_state_of_a_board_without_a_game(tmp_path, made, clock):
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    (state,) = client.states()
    assert (state["game"], state["seq"], state["problems"]) == (None, 0, [])
    assert "phase" not in state


def test_the_state_carries_the_last_five_problems_of_the_link(tmp_path, made, clock):
    folder = tmp_path
    state_file = folder / "link" / "state.json"
    state_file.parent.mkdir(parents=True)
    state_file.write_text("{")  # unreadable: one problem
    link, client, handlers = link_in(folder, made)
    link.follower.problems += [f"p{n}" for n in range(6)]
    link.report(problems=["mine"])
    connect(link, client, handlers)
    step(link)
    assert client.states()[-1]["problems"] == ["mine", "p1", "p2", "p3", "p4", "p5"]


def test_a_state_paho_refuses_is_sent_again(tmp_path, made, clock):
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    client.refuse_after = 1  # the presence only
    step(link)
    client.refuse_after = None
    step(link)
    assert len(client.states()) == 2


# ---------------------------------------------------------------------------- what the hub says


def test_acknowledgements_conflicts_and_garbage_from_the_hub(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:4])
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    game = link.follower.scan()[0].tracked.id
    hub_says(handlers, client, board_topic("b1", "ack"), b"not json")
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload("other-game", 2))
    assert link.status().unacked == 4
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, 4))
    assert link.status().unacked == 0 and link.status().games == 1
    conflict = canonical({"v": 1, "game": game, "seq": 4, "conflict": 3})
    hub_says(handlers, client, board_topic("b1", "ack"), conflict)
    (forked,) = link.follower.scan()
    assert forked.tracked.supersedes == game
    assert "the hub holds records the journal no longer has" in link.status().problems[-1]


def test_an_ack_with_a_conflict_of_zero_is_an_ordinary_ack(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:4])
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    game = link.follower.scan()[0].tracked.id
    hub_says(
        handlers,
        client,
        board_topic("b1", "ack"),
        canonical({"v": 1, "game": game, "seq": 3, "conflict": None}),
    )
    assert link.status().unacked == 1 and link.status().problems == []


def test_an_assignment_is_kept_across_restarts_and_cleared_by_the_hub(tmp_path, made, clock):
    link, client, handlers = link_in(tmp_path, made)
    assert link.assignment() is None
    payload = {"v": 1, "id": "asg-1", "round": 2, "table": 5}
    hub_says(handlers, client, board_topic("b1", "assignment"), json.dumps(payload).encode())
    assert link.assignment() == payload
    link.assignment()["round"] = 99  # a copy
    assert link.assignment() == payload
    path = tmp_path / "link" / "assignment.json"
    assert json.loads(path.read_text()) == payload
    assert not path.with_name("assignment.json.tmp").exists()
    again, _, _ = link_in(tmp_path, made)
    assert again.assignment() == payload
    assert again.follower.assignment() == "asg-1"  # its next records carry it
    hub_says(handlers, client, board_topic("b1", "assignment"), b'{"v": 2, "id": "asg-2"}')
    hub_says(handlers, client, board_topic("b1", "assignment"), b"[1]")
    assert link.assignment() == payload  # not a version 1 object: ignored
    hub_says(handlers, client, board_topic("b1", "assignment"), b"")
    assert link.assignment() is None and not path.exists()
    hub_says(handlers, client, board_topic("b1", "assignment"), b"")  # cleared twice: fine
    assert link.assignment() is None


def test_an_assignment_with_an_id_a_record_cannot_carry_is_not_put_on_records(
    tmp_path, made, clock
):
    link, client, handlers = link_in(tmp_path, made)
    bad = {"v": 1, "id": "not an id", "round": 1}
    hub_says(handlers, client, board_topic("b1", "assignment"), json.dumps(bad).encode())
    assert link.assignment() == bad and link.follower.assignment() is None
    (tmp_path / "link" / "assignment.json").write_text("[1]")
    assert link_in(tmp_path, made)[0].assignment() is None


def test_a_command_is_obeyed_once_even_after_a_restart(tmp_path, made, clock):
    link, client, handlers = link_in(tmp_path, made)
    command = {"v": 1, "id": "c1-ab", "cmd": "pause", "by": "desk"}
    hub_says(handlers, client, board_topic("b1", "command"), json.dumps(command).encode())
    assert link.command() == command
    link.command()["cmd"] = "resume"  # a copy
    assert link.command() == command
    link.obeyed("c1-ab")
    assert link.command() is None
    assert (tmp_path / "link" / "command-done").read_text() == "c1-ab"
    again, client2, handlers2 = link_in(tmp_path, made)
    hub_says(handlers2, client2, board_topic("b1", "command"), json.dumps(command).encode())
    assert again.command() is None  # retained, handed over again: not obeyed twice
    hub_says(handlers2, client2, board_topic("b1", "command"), b"garbage")
    assert again.command() is None


# ---------------------------------------------------------------------------- the worker, goodbye


def test_the_worker_publishes_what_is_journaled_and_the_link_says_goodbye(
    tmp_path, made, records, monkeypatch
):
    write(tmp_path / "journal.jsonl", records[:3])
    link, client, handlers = link_in(tmp_path, made, poll_seconds=0.01)
    link.start()
    try:
        connect(link, client, handlers)
        link.nudge()
        deadline = real_time.monotonic() + 60  # a bound for a hung worker, not a pace
        while client.records() != [1, 2, 3]:
            assert real_time.monotonic() < deadline, client.published
            real_time.sleep(0.01)
        # the worker saves the follower's state (at most once a second)
        assert json.loads((tmp_path / "link" / "state.json").read_text())["games"]
        game = link.follower.games[0].id
    finally:
        acker = {"n": 0}

        def publish(topic, payload=None, qos=0, retain=False):
            info = FakeClient.publish(client, topic, payload, qos, retain)
            if topic == RECORDS:  # the hub acknowledges what the goodbye sends
                seq = json.loads(payload)["seq"]
                hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, seq))
                acker["n"] += 1
            return info

        monkeypatch.setattr(client, "publish", publish)
        with open(tmp_path / "journal.jsonl", "ab") as f:
            f.write(b"".join(encode(r) for r in records[3:5]))
        link.stop(timeout=5.0)
    assert client.records()[-2:] == [4, 5] and acker["n"] >= 2
    goodbye = [p for p in client.published if p[0] == PRESENCE][-1]
    assert json.loads(goodbye[1])["online"] is False and goodbye[2:] == (1, True)
    assert client.infos[-1].waited == 2.0
    assert client.calls[-2:] == [("disconnect",), ("loop_stop",)]
    saved = json.loads((tmp_path / "link" / "state.json").read_text())
    assert saved["games"][0]["acked"] == 5
    link.stop()  # stopped already: nothing more
    assert client.calls[-2:] == [("disconnect",), ("loop_stop",)]


def test_a_link_that_never_connected_stops_without_a_goodbye(tmp_path, made):
    link, client, _ = link_in(tmp_path, made, poll_seconds=0.01)
    link.start()
    link.stop(timeout=0.5)
    assert client.published == [] and client.calls[-2:] == [("disconnect",), ("loop_stop",)]


def test_a_worker_pass_that_fails_is_reported_and_the_worker_goes_on(tmp_path, made, records):
    write(tmp_path / "journal.jsonl", records[:2])
    link, client, handlers = link_in(tmp_path, made, poll_seconds=0.01)
    scan = link.follower.scan
    failures = {"n": 0}

    def failing():
        if failures["n"] < 2:
            failures["n"] += 1
            raise OSError("disk gone")
        return scan()

    link.follower.scan = failing
    connect(link, client, handlers)
    link.start()
    try:
        deadline = real_time.monotonic() + 60
        while client.records() != [1, 2]:
            assert real_time.monotonic() < deadline, client.published
            real_time.sleep(0.01)
    finally:
        link.stop(timeout=0.5)
    assert link.status().last_error == "link: disk gone"


# -------------------------------------------------------------------- after the first after-run


def test_what_the_board_logs_for_its_operator(tmp_path, made, clock, caplog, records):
    caplog.set_level(logging.WARNING, logger="damath-board.link")
    link, client, handlers = link_in(tmp_path, made)
    refused = ReasonCode(PacketTypes.CONNACK, "Not authorized")
    handlers["on_connect"](client, None, None, refused, None)
    hub_says(handlers, client, HUB_PRESENCE, b"{not json")  # nothing the hub sends: one line

    def broken(payload: bytes) -> None:
        raise RuntimeError("a slip in the link's own code")

    link._on_ack = broken  # type: ignore[method-assign]
    hub_says(handlers, client, board_topic("b1", "ack"), b'{"v": 1}')  # logged with its trace
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", f"hub mqtts://[fd00::1]:8883: {CONNECT_ERRORS[135]}"),
        ("WARNING", f"link: ignored a malformed message on {HUB_PRESENCE}"),
        ("ERROR", f"link: cannot handle a message on {board_topic('b1', 'ack')}"),
    ]
    assert caplog.records[1].exc_info is None and caplog.records[2].exc_info is not None


def test_a_failing_worker_pass_is_logged(tmp_path, made, caplog, records):
    caplog.set_level(logging.ERROR, logger="damath-board.link")
    link, _, _ = link_in(tmp_path, made, poll_seconds=0.01)
    scan = link.follower.scan
    failed = []

    def failing():
        if not failed:
            failed.append(1)
            raise OSError("disk gone")
        return scan()

    link.follower.scan = failing
    link.start()
    try:
        deadline = real_time.monotonic() + 60
        while not caplog.records:
            assert real_time.monotonic() < deadline
            real_time.sleep(0.01)
    finally:
        link.stop(timeout=0.2)
    assert caplog.records[0].getMessage() == "link worker" and caplog.records[0].exc_info


def test_the_software_version_is_the_installed_package_s(monkeypatch):
    from importlib import metadata

    assert software_version() == metadata.version("damath-board")

    def missing(name):
        assert name == "damath-board"
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(publisher_module.metadata, "version", missing)
    assert software_version() == "unknown"


def test_a_new_link_has_no_error_and_no_command(tmp_path, made):
    link, _, _ = link_in(tmp_path, made)
    status = link.status()
    assert (status.connected, status.hub_online, status.unacked, status.last_error) == (
        False, None, 0, "",
    )  # fmt: skip
    assert link.command() is None


def test_the_link_thread_never_keeps_the_board_from_exiting(tmp_path, made):
    link, _, _ = link_in(tmp_path, made, poll_seconds=0.01)
    link.start()
    try:
        (thread,) = [t for t in threading.enumerate() if t.name == "damath-link"]
        assert thread.daemon
    finally:
        link.stop(timeout=0.2)
    assert not [t for t in threading.enumerate() if t.name == "damath-link"]


def ticks(n: int) -> list[dict]:
    return [{"k": "tick", "t": float(i), "seq": i + 1} for i in range(n)]


def test_by_default_64_records_go_before_the_hub_must_answer(tmp_path, made, clock):
    write(tmp_path / "journal.jsonl", ticks(70))
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    assert client.records() == list(range(1, 65))


def test_by_default_the_hub_has_five_seconds_to_answer(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:2])
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    clock.now += 5.0
    step(link)
    assert client.records() == [1, 2]
    clock.now += 0.1
    step(link)
    assert client.records() == [1, 2, 1, 2]


def test_goodbye_waits_for_the_hubs_answer_as_long_as_it_was_told(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:3])
    link, client, handlers = link_in(tmp_path, made)
    link._run = lambda: None  # no worker: what goes, goes in the goodbye
    link.start()
    connect(link, client, handlers)
    before = clock.now
    link.stop(timeout=1.0)  # the hub never answers
    assert clock.now - before == pytest.approx(1.0, abs=0.01)
    assert client.records() == [1, 2, 3]
    assert json.loads([p for p in client.published if p[0] == PRESENCE][-1][1])["online"] is False


def test_goodbye_stops_waiting_once_the_hub_has_everything(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:3])
    link, client, handlers = link_in(tmp_path, made)
    link._run = lambda: None
    link.start()
    connect(link, client, handlers)
    game = link.follower.scan()[0].tracked.id
    publish = client.publish

    def answered(topic, payload=None, qos=0, retain=False):
        info = publish(topic, payload, qos, retain)
        if topic == RECORDS:
            seq = json.loads(payload)["seq"]
            hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, seq))
        return info

    client.publish = answered
    before = clock.now
    link.stop(timeout=5.0)
    assert clock.now == before and client.records() == [1, 2, 3]


def test_goodbye_goes_on_when_the_network_fails_under_it(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:2])
    link, client, handlers = link_in(tmp_path, made)
    link._run = lambda: None
    link.start()
    connect(link, client, handlers)
    step(link)

    def broken(*args, **kw):
        raise OSError("network unreachable")

    client.publish = broken
    client.disconnect = broken
    link.stop(timeout=0.2)
    assert client.calls[-1] == ("loop_stop",)
    assert json.loads((tmp_path / "link" / "state.json").read_text())["games"]


def test_a_new_session_sends_again_what_the_hub_has_not_acknowledged(
    tmp_path, made, clock, records
):
    write(tmp_path / "journal.jsonl", records[:3])
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    handlers["on_disconnect"](
        client, None, None, ReasonCode(PacketTypes.DISCONNECT, "Success"), None
    )
    connect(link, client, handlers)  # at once: no time has passed
    step(link)
    assert client.records() == [1, 2, 3, 1, 2, 3]


def test_a_hub_back_online_gets_at_once_what_it_has_not_acknowledged(
    tmp_path, made, clock, records
):
    write(tmp_path / "journal.jsonl", records[:3])
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    hub_says(handlers, client, HUB_PRESENCE, b'{"v": 1, "online": true}')
    step(link)
    hub_says(handlers, client, HUB_PRESENCE, b'{"v": 1, "online": false}')
    hub_says(handlers, client, HUB_PRESENCE, b'{"v": 1, "online": true}')
    step(link)
    assert client.records() == [1, 2, 3, 1, 2, 3]


def test_what_the_hub_acknowledged_before_the_first_pass_is_not_sent(
    tmp_path, made, clock, records, caplog
):
    caplog.set_level(logging.WARNING, logger="damath-board.link")
    write(tmp_path / "journal.jsonl", records[:5])
    link, client, handlers = link_in(tmp_path, made)
    game = link.follower.scan()[0].tracked.id
    connect(link, client, handlers)
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, 3))  # stored before
    step(link)
    assert client.records() == [4, 5]
    step(link)
    assert client.records() == [4, 5]
    assert caplog.records == []  # the early acknowledgement was handled, not an error


def test_an_idle_link_that_had_everything_acknowledged_keeps_its_five_seconds(
    tmp_path, made, clock, records
):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:2])
    link, client, handlers = link_in(tmp_path, made, resend_seconds=5.0)
    connect(link, client, handlers)
    step(link)
    game = link.follower.scan()[0].tracked.id
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(game, 2))
    for _ in range(3):  # a long quiet: nothing to send, nothing owed
        clock.now += 6.0
        step(link)
    with open(journal, "ab") as f:
        f.write(encode(records[2]))
    step(link)
    assert client.records() == [1, 2, 3]
    step(link)  # a new flight: its wait starts now, not at the last acknowledgement
    assert client.records() == [1, 2, 3]
    clock.now += 5.5
    step(link)
    assert client.records() == [1, 2, 3, 3]


def test_a_new_game_is_sent_from_its_first_record(tmp_path, made, clock, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:2])
    link, client, handlers = link_in(tmp_path, made)
    connect(link, client, handlers)
    step(link)
    first = link.follower.scan()[0].tracked.id
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(first, 2))
    (tmp_path / "games").mkdir()
    journal.rename(tmp_path / "games" / "one.jsonl")  # archived; the next game begins
    write(journal, [{**records[0], "t": 5000.0}, *records[1:3]])
    step(link)
    sent = [json.loads(p) for t, p, _, _ in client.published if t == RECORDS]
    assert [(e["game"] == first, e["seq"]) for e in sent] == [
        (True, 1), (True, 2), (False, 1), (False, 2), (False, 3),
    ]  # fmt: skip


def test_without_a_nudge_the_link_looks_five_times_a_second(tmp_path, made):
    assert Link(CONFIG, tmp_path).poll_seconds == 0.2


def test_a_host_name_is_used_as_written_brackets_of_an_ipv6_address_aside(tmp_path, made, clock):
    xhost = LinkConfig("Xhub.localX", 1883, False, "", "b1", "u", "p", KEY)
    link = Link(xhost, tmp_path)
    link._run = lambda: None
    link.start()
    link.stop(timeout=0.1)
    assert link.client.calls[0] == ("connect_async", "Xhub.localX", 1883, 10)


def test_by_default_goodbye_waits_five_seconds_for_the_hub(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:2])
    link, client, handlers = link_in(tmp_path, made)
    link._run = lambda: None
    link.start()
    connect(link, client, handlers)
    before = clock.now
    link.stop()
    assert clock.now - before == 5.0


def test_the_worker_saves_its_state_at_most_once_a_second(tmp_path, made, clock, records):
    write(tmp_path / "journal.jsonl", records[:2])
    Follower(tmp_path, "b1", KEY).scan()  # the game's id is on the disk already
    link, _, _ = link_in(tmp_path, made, poll_seconds=0.005)
    saves: list[float] = []
    passes: list[int] = []
    save, scan = link.follower.save, link.follower.scan
    link.follower.save = lambda: (saves.append(clock.now), save())[1]
    link.follower.scan = lambda: (passes.append(1), scan())[1]

    def passes_go_by(n: int) -> None:
        target = len(passes) + n
        deadline = real_time.monotonic() + 60  # a bound for a hung worker, not a pace
        while len(passes) < target:
            assert real_time.monotonic() < deadline
            real_time.sleep(0.005)

    link.start()
    try:
        passes_go_by(5)
        assert saves == [1000.0]  # the first pass saves; the clock has not moved since
        clock.now += 1.0  # a second later: one more
        passes_go_by(5)
        assert saves == [1000.0, 1001.0]
        clock.now += 1.5
        passes_go_by(5)
        assert saves == [1000.0, 1001.0, 1002.5]
    finally:
        link.stop(timeout=0.1)


def test_a_new_game_after_a_long_quiet_is_not_sent_twice_at_once(tmp_path, made, clock, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:2])
    link, client, handlers = link_in(tmp_path, made, resend_seconds=5.0)
    connect(link, client, handlers)
    step(link)
    first = link.follower.scan()[0].tracked.id
    hub_says(handlers, client, board_topic("b1", "ack"), ack_payload(first, 2))
    step(link)
    clock.now += 100.0  # quiet
    (tmp_path / "games").mkdir()
    journal.rename(tmp_path / "games" / "one.jsonl")
    write(journal, [{**records[0], "t": 5000.0}, *records[1:3]])
    step(link)
    step(link)  # its records wait for the hub's answer: not sent again at once
    sent = [json.loads(p) for t, p, _, _ in client.published if t == RECORDS]
    assert [(e["game"] == first, e["seq"]) for e in sent] == [
        (True, 1), (True, 2), (False, 1), (False, 2), (False, 3),
    ]  # fmt: skip
    clock.now += 5.5  # the hub's five seconds are over (the quiet did not lengthen them)
    step(link)
    assert client.records()[-3:] == [1, 2, 3] and len(client.records()) == 8
