"""The hub's intake through what it takes in and what it gives out, where mutation testing found
slips the first tests let through (bench/mutation.sh ingest): records in, stored games, counters,
refusals and acknowledgements out; the broker's own refusals; a page asking for a board large;
a batch that fails half-way; a hub that restarts on its store; the MQTT session it keeps with
the broker (through a stand-in client that records what the hub asks of paho). No broker and no
threads but the hub's own worker; the clock is the test's."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from controller.hub.ingest import BrokerAddress, Ingest, Outcome, transport
from controller.hub.live import Live
from controller.hub.store import Store
from controller.link.follower import Follower
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.protocol import (
    GENESIS,
    HUB_PRESENCE,
    ack_payload,
    board_topic,
    canonical,
    presence_payload,
    seal,
)

KEY = bytes(range(32))
RECORDS = board_topic("b1", "records")
STATE = board_topic("b1", "state")
PRESENCE = board_topic("b1", "presence")
MOVES = sample_game_moves()[1]


def _envelopes(folder, moves: int, stop: bool = False):
    board = PlaybackBoard(folder, sync=False)
    board.play_moves(MOVES[:moves])
    if stop:
        board.stop_game()
    board.close()
    (game,) = Follower(folder, "b1", KEY).scan()
    return game.envelopes


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A real game's sealed records: start, ready, 6 moves, the arbiter's stop."""
    return _envelopes(tmp_path_factory.mktemp("board"), 6, stop=True)


def resealed(envelopes, game_id="g-2", asg=None, info=None, board="b1"):
    """The same records as another game (or board), chained and signed again; ``asg`` and
    ``info`` (seq -> changes to the board's own reading) per record."""
    out, prev = [], GENESIS
    for e in envelopes:
        changes = (info or {}).get(e.seq, {})
        env = seal(
            board, game_id, e.seq, prev, e.record, KEY,
            info={**e.info, **changes}, asg=(asg or {}).get(e.seq),
        )  # fmt: skip
        out.append(env)
        prev = env.hash
    return out


@dataclass
class Info:
    rc: int = 0
    waited: float | None = None

    def wait_for_publish(self, timeout: float | None = None) -> None:
        self.waited = timeout


@dataclass
class FakeClient:
    """What the hub asks of paho's client, recorded."""

    published: list[tuple[str, bytes, int, bool]] = field(default_factory=list)
    subscribed: list[Any] = field(default_factory=list)
    calls: list[tuple] = field(default_factory=list)
    infos: list[Info] = field(default_factory=list)

    def publish(self, topic, payload=None, qos=0, retain=False):
        self.published.append((topic, payload, qos, retain))
        self.infos.append(Info())
        return self.infos[-1]

    def subscribe(self, topics, qos=0):
        self.subscribed.append((topics, qos))

    def connect_async(self, host, port, keepalive=60):
        self.calls.append(("connect_async", host, port, keepalive))

    def loop_start(self):
        self.calls.append(("loop_start",))

    def loop_stop(self):
        self.calls.append(("loop_stop",))

    def disconnect(self):
        self.calls.append(("disconnect",))

    def max_queued_messages_set(self, n):
        self.calls.append(("max_queued_messages_set", n))


class Wall(Live):
    """The spectators' side: every update pushed, and a page showing b1 large."""

    def __init__(self) -> None:
        super().__init__()
        self.updates: list[tuple[dict, dict | None]] = []

    def wants_detail(self, board: str) -> bool:
        return board == "b1"

    def update(self, card, detail=None):
        self.updates.append((card, detail))
        super().update(card, detail)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "hub.sqlite")
    s.add_board("b1", KEY.hex())
    yield s
    s.close()


@pytest.fixture
def hub(store):
    ingest = Ingest(store, Wall(), None, clock=lambda: 100.0)
    ingest.transport.client = FakeClient()
    return ingest


def send(hub: Ingest, *payloads: bytes, topic: str = RECORDS, at: float = 1.0) -> list[Outcome]:
    return hub.process([("mqtt", topic, p, at) for p in payloads])


def results(outcomes: list[Outcome]) -> list[str]:
    return [o.result for o in outcomes]


def rejects(hub: Ingest) -> list[tuple]:
    return [
        (r["board_id"], r["topic"], r["reason"], r["detail"], r["size"], r["sample"])
        for r in reversed(hub.store.rejects())
    ]


# ---------------------------------------------------------------------------- records


def test_records_are_counted_acknowledged_and_dated(hub, game):
    out = send(hub, *(e.payload() for e in game[:3]), at=7.5)
    assert results(out) == ["stored"] * 3
    assert hub.processed == 3 and hub.connected is False
    # one acknowledgement per game and batch, of the last record stored
    assert hub.client.published == [
        (board_topic("b1", "ack"), ack_payload(game[0].game, 3), 1, False)
    ]
    assert hub.store.counters()["b1"] == {"received": 3, "stored": 3}
    card = hub.card("b1")
    assert (card["game"], card["seq"], card["as_of"], card["last_contact"]) == (
        game[0].game,
        3,
        7.5,
        7.5,
    )
    assert hub.store.boards()[0]["last_contact"] == 7.5
    row = hub.store.game("b1", game[0].game)
    assert (row["first_seen"], row["last_seen"], row["last_seq"]) == (7.5, 7.5, 3)
    out = send(hub, game[1].payload(), game[4].payload(), at=8.0)
    assert [(o.result, o.detail) for o in out] == [
        ("duplicate", ""),
        ("out-of-order", "record 5 before 4"),
    ]
    assert hub.store.counters()["b1"] == {
        "received": 5,
        "stored": 3,
        "duplicate": 1,
        "out-of-order": 1,
    }
    assert hub.client.published[-1] == (
        board_topic("b1", "ack"),
        ack_payload(game[0].game, 3),
        1,
        False,
    )
    assert hub.processed == 5


def test_a_broken_chain_a_conflict_and_an_unknown_board_say_which_record(hub, game):
    send(hub, game[0].payload(), game[1].payload())
    g = game[0].game
    unchained = seal("b1", g, 3, "1" * 64, game[2].record, KEY, info=game[2].info)
    other = seal("b1", g, 2, game[0].hash, {"k": "tick", "t": 5.0}, KEY)
    stranger = seal("b9", g, 1, GENESIS, game[0].record, KEY)
    out = send(hub, unchained.payload(), other.payload())
    out += send(hub, stranger.payload(), topic=board_topic("b9", "records"))
    assert [(o.result, o.detail) for o in out] == [
        ("chain", f"game {g} record 3 does not follow 2"),
        ("conflict", f"game {g} record 2: another record is stored"),
        ("unknown-board", "no board 'b9' in this hub (hub board-add)"),
    ]
    # the board is told which record conflicts, with the last one stored
    assert hub.client.published[-1] == (
        board_topic("b1", "ack"),
        canonical({"v": 1, "game": g, "seq": 2, "conflict": 2}),
        1,
        False,
    )
    assert [r[:4] for r in rejects(hub)] == [
        ("b1", RECORDS, "chain", f"game {g} record 3 does not follow 2"),
        ("b1", RECORDS, "conflict", f"game {g} record 2: another record is stored"),
        (None, board_topic("b9", "records"), "unknown-board",
         "no board 'b9' in this hub (hub board-add)"),
    ]  # fmt: skip
    assert rejects(hub)[0][4] == len(unchained.payload())
    assert rejects(hub)[0][5] == unchained.payload()[:200].decode()


def test_topics_a_board_does_not_publish_are_refused_and_reported(hub):
    out = send(hub, b"{}", topic="somewhere/else")
    out += send(hub, b"{}", topic=board_topic("b1", "ack"))
    out += send(hub, b"{}", topic=board_topic("b9", "state"))
    assert [(o.result, o.detail) for o in out] == [
        ("topic", "not a board topic"),
        ("topic", "'ack' is not a topic a board publishes"),
        ("unknown-board", "no board 'b9' in this hub"),
    ]
    assert [r[:4] for r in rejects(hub)] == [
        (None, "somewhere/else", "topic", "not a board topic"),
        ("b1", board_topic("b1", "ack"), "topic", "'ack' is not a topic a board publishes"),
        (None, board_topic("b9", "state"), "unknown-board", "no board 'b9' in this hub"),
    ]
    # a refusal about a known board shows on its card at once; a stranger has no card
    assert [card["board"] for card, _ in hub.live.updates] == ["b1"]


def test_the_boards_own_reading_is_checked_and_the_first_difference_kept(hub, game):
    g = game[0].game
    wrong = {3: {"move": "(0,0)-(1,1)"}, 4: {"score": "99"}}
    envs = resealed(game, g, info=wrong)
    assert results(send(hub, *(e.payload() for e in envs))) == ["stored"] * len(envs)
    expected = (
        f"record 3: the board says move '(0,0)-(1,1)', the hub computes {game[2].info['move']!r}"
    )
    assert hub.card("b1")["summary"]["problem"] == expected
    assert hub.store.game("b1", g)["summary"]["problem"] == expected


@pytest.mark.parametrize(
    ("seq", "name", "value"),
    [
        (3, "move", "x"),
        (3, "score", "99"),
        (4, "totals", {"blue": "9", "red": "0"}),
        (9, "result", {}),
    ],
)
def test_each_reading_the_board_sends_is_compared(hub, game, seq, name, value):
    envs = resealed(game, info={seq: {name: value}})
    send(hub, *(e.payload() for e in envs))
    assert game[seq - 1].record["k"] == ("end" if name == "result" else "move")
    hub_value = game[seq - 1].info[name]
    assert hub.card("b1")["summary"]["problem"] == (
        f"record {seq}: the board says {name} {value!r}, the hub computes {hub_value!r}"
    )


def test_a_continued_game_names_the_game_it_supersedes_only_on_its_first_record(hub, game):
    first = resealed(game[:2], "g-old")
    send(hub, *(e.payload() for e in first))
    again = resealed(game[:2], "g-new", info={1: {"supersedes": "g-old"}, 2: {"supersedes": "x"}})
    bad = resealed(game[:1], "g-bad", info={1: {"supersedes": "not an id!"}})
    send(hub, *(e.payload() for e in again + bad))
    assert hub.store.game("b1", "g-new")["supersedes"] == "g-old"
    assert hub.store.game("b1", "g-bad")["supersedes"] is None


def test_a_game_takes_the_assignment_it_holds_at_its_first_move(hub, store, game):
    with store.transaction() as db:
        round_two, round_three = store.round_id(db, 2), store.round_id(db, 3)
    store.add_assignment("asg-2", "b1", round_two, {"v": 1, "id": "asg-2", "round": 2})
    store.add_assignment("asg-3", "b1", round_three, {"v": 1, "id": "asg-3", "round": 3})
    # the board got round 3's assignment between its set-up and its first move: retagged
    early = resealed(game, "g-early", asg={1: "asg-2", 2: "asg-3", 3: "asg-3"})
    # a game under way keeps its assignment when a newer one arrives
    late = resealed(game, "g-late", asg={1: "asg-2", 3: "asg-2", 4: "asg-3"})
    send(hub, *(e.payload() for e in early + late))
    rows = {g["game_id"]: (g["assignment_id"], g["round"]) for g in store.games()}
    assert rows == {"g-early": ("asg-3", 3), "g-late": ("asg-2", 2)}
    assert hub.card("b1")["assignment"] == {"v": 1, "id": "asg-3", "round": 3}


def test_the_wall_shows_the_newest_game_of_a_board(hub, game):
    send(hub, *(e.payload() for e in resealed(game[:3], "g-a")), at=1.0)
    send(hub, *(e.payload() for e in resealed(game[:2], "g-b")), at=2.0)
    assert (hub.card("b1")["game"], hub.card("b1")["seq"]) == ("g-b", 2)
    assert hub.card("b9") == {
        "board": "b9", "online": False, "last_contact": None, "software": None,
        "firmware": None, "problems": [], "assignment": None, "game": None, "seq": 0,
        "as_of": None, "summary": None, "played": None,
    }  # fmt: skip


def test_the_detail_of_a_board_is_its_moves_as_played(hub, game):
    assert hub.detail("b1") is None
    send(hub, *(e.payload() for e in game))
    detail = hub.detail("b1")
    assert (detail["board"], detail["game"]) == ("b1", game[0].game)
    sides = ["blue", "red"] * 3
    assert detail["moves"] == [
        {"ply": n, "side": sides[n - 1], "move": str(m)} for n, m in enumerate(MOVES[:6], start=1)
    ]
    assert detail["sheet"] is not None
    # the page showing b1 large got it with every change; no other board is detailed
    assert hub.live.updates[-1][1] == detail
    assert hub._detail("b9") is None


# ---------------------------------------------------------------------------- states and presence


def test_a_boards_state_and_presence_as_the_organiser_sees_them(hub):
    state = {"v": 1, "board": "b1", "software": "s" * 50, "firmware": "f" * 50,
             "problems": [f"p{n}" + "x" * 300 for n in range(12)]}  # fmt: skip
    assert results(send(hub, json.dumps(state).encode(), topic=STATE, at=3.0)) == ["state"]
    card = hub.card("b1")
    assert card["software"] == "s" * 40 and card["firmware"] == "f" * 40
    assert card["problems"] == [f"p{n}" + "x" * 198 for n in range(10)]
    assert card["last_contact"] == 3.0 and card["online"] is False
    (row,) = hub.store.boards()
    assert (row["software"], row["firmware"], row["problems"]) == (
        "s" * 40,
        "f" * 40,
        card["problems"],
    )
    assert row["state"] == state and row["last_contact"] == 3.0
    online = b'{"v": 1, "online": true, "software": "' + b"w" * 50 + b'"}'
    assert results(send(hub, online, topic=PRESENCE, at=4.0)) == ["presence"]
    card = hub.card("b1")
    assert (card["online"], card["last_contact"], card["software"]) == (True, 4.0, "w" * 40)
    (row,) = hub.store.boards()
    assert (row["online"], row["software"], row["last_contact"]) == (1, "w" * 40, 4.0)
    # gone: the last contact stays the last time it was heard
    assert results(send(hub, b'{"v": 1, "online": false}', topic=PRESENCE, at=9.0)) == ["presence"]
    card = hub.card("b1")
    assert (card["online"], card["last_contact"]) == (False, 4.0)
    assert hub.store.boards()[0]["online"] == 0
    # a retained message cleared
    assert [(o.result, o.detail) for o in send(hub, b"", topic=STATE)] == [("state", "")]


def test_a_presence_first_heard_offline_dates_the_board_by_its_message(hub):
    send(hub, b'{"v": 1, "online": false}', topic=PRESENCE, at=6.0)
    assert hub.store.boards()[0]["last_contact"] == 6.0 and hub.card("b1")["last_contact"] is None


@pytest.mark.parametrize(
    ("topic", "payload", "reason", "detail"),
    [
        (STATE, b"x" * 40_000, "oversized", "40000 bytes (at most 32768)"),
        (STATE, b"{nope", "malformed", "not JSON"),
        (STATE, b"[1]", "schema", "a state message must be a version 1 object"),
        (PRESENCE, b'{"v": 2, "online": true}', "schema",
         "a presence message must be a version 1 object"),
        (PRESENCE, b'{"v": 1}', "schema", "'online' must be true or false"),
        (STATE, b'{"v": 1, "board": "b2"}', "topic", "state of 'b2' on 'b1''s topic"),
        (STATE, b'{"v": 1, "board": "b1", "problems": "x"}', "schema",
         "'problems' must be a list of sentences"),
        (STATE, b'{"v": 1, "board": "b1", "problems": [1]}', "schema",
         "'problems' must be a list of sentences"),
    ],
)  # fmt: skip
def test_state_and_presence_refused_say_why(hub, topic, payload, reason, detail):
    assert [(o.result, o.detail) for o in send(hub, payload, topic=topic)] == [(reason, detail)]
    assert rejects(hub)[0][:4] == ("b1", topic, reason, detail)


# ------------------------------------------------------------- the broker's refusals, pages


def test_the_brokers_refusals_are_reported_on_the_boards_card(hub):
    hub.refusal("login", "b1", "bad password")
    hub.refusal("publish", "b1", "denied publish to damath/v1/boards/b2/records")
    hub.refusal("login", "stranger", "unknown user")
    for n in range(5):
        hub.refusal("publish", "b1", f"denied {n}")
    batch = [hub.queue.get_nowait() for _ in range(8)]
    assert [item[:2] for item in batch[:3]] == [
        ("refusal", "login\nb1"),
        ("refusal", "publish\nb1"),
        ("refusal", "login\nstranger"),
    ]
    out = hub.process(batch)
    assert [(o.result, o.detail) for o in out[:3]] == [
        ("login", "bad password"),
        ("topic", "denied publish to damath/v1/boards/b2/records"),
        ("login", "unknown user"),
    ]
    assert rejects(hub)[:3] == [
        ("b1", "(broker)", "login", "bad password", 0, ""),
        ("b1", "(broker)", "topic", "denied publish to damath/v1/boards/b2/records", 0, ""),
        (None, "(broker)", "login", "unknown user", 0, ""),
    ]
    # the five latest, newest first
    assert hub.card("b1")["problems"] == [f"denied {n}" for n in (4, 3, 2, 1, 0)]
    assert hub.store.counters()["b1"] == {"rejected:login": 1, "rejected:topic": 6}
    assert hub.store.counters()[""] == {"rejected:login": 1}
    assert [card["board"] for card, _ in hub.live.updates] == ["b1"]


def test_a_page_asking_for_a_board_large_gets_its_detail(hub, game):
    send(hub, *(e.payload() for e in game[:4]))
    hub.live.updates.clear()
    hub.show("b1")
    item = hub.queue.get_nowait()
    assert item == ("show", "b1", b"", 100.0)
    out = hub.process([item, ("mqtt", RECORDS, game[4].payload(), 2.0)])
    assert results(out) == ["show", "stored"]
    ((card, detail),) = hub.live.updates  # once for the batch
    assert card == hub.card("b1") and detail == hub.detail("b1")


# ---------------------------------------------------------------------------- failures, restarts


def test_a_batch_that_fails_is_handled_message_by_message(hub, game, monkeypatch):
    insert = hub.store.insert_record

    def failing(db, env, at):
        if env.seq == 2 and not failing.done:
            failing.done = True
            raise RuntimeError("disk on fire")
        insert(db, env, at)

    failing.done = False
    monkeypatch.setattr(hub.store, "insert_record", failing)
    out = send(hub, *(e.payload() for e in game[:3]))
    assert [(o.result, o.detail) for o in out] == [
        ("stored", "new"),  # the batch rolled back: the game is opened again, alone
        ("stored", ""),  # now alone, it goes in
        ("stored", ""),
    ]
    assert hub.store.records("b1", game[0].game) == [e.record for e in game[:3]]
    assert rejects(hub) == []


def test_a_message_that_fails_alone_is_refused_as_internal_and_the_rest_goes_on(
    hub, game, monkeypatch
):
    insert = hub.store.insert_record

    def failing(db, env, at):
        if env.seq == 2:
            raise RuntimeError("disk on fire")
        insert(db, env, at)

    monkeypatch.setattr(hub.store, "insert_record", failing)
    out = send(hub, *(e.payload() for e in game[:3]), at=4.0)
    assert [(o.result, o.detail) for o in out] == [
        ("stored", "new"),  # the game's first record, handled alone: the game opened
        ("internal", "disk on fire"),
        ("out-of-order", "record 3 before 2"),
    ]
    assert rejects(hub) == [
        (
            "b1",
            RECORDS,
            "internal",
            "disk on fire",
            len(game[1].payload()),
            game[1].payload()[:200].decode(),
        )
    ]
    assert hub.store.rejects()[0]["at"] == 4.0
    assert hub.processed == 2  # handled alone: the first and the third (not the failure)
    # the cache was read again from the store: record 2 is what the hub waits for
    monkeypatch.setattr(hub.store, "insert_record", insert)
    assert results(send(hub, game[1].payload(), game[2].payload())) == ["stored", "stored"]


def test_a_hub_restarted_on_its_store_shows_and_continues_what_it_had(store, game):
    first = Ingest(store, Live(), None, clock=lambda: 100.0)
    send(first, *(e.payload() for e in game[:5]), at=2.0)
    state = {"v": 1, "board": "b1", "software": "9.9", "firmware": "fw-2", "problems": ["loose"]}
    send(first, json.dumps(state).encode(), topic=STATE, at=3.0)
    send(first, b'{"v": 1, "online": true}', topic=PRESENCE, at=3.5)
    before = first.card("b1")
    again = Ingest(store, Live(), None)
    after = again.card("b1")
    assert after == {**before, "online": False}  # online again when it says so
    assert after["summary"] == before["summary"] and after["summary"]["ply"] == 3
    cache = again.games[("b1", game[0].game)]
    assert (cache.first_seen, cache.as_of, cache.last_seq, cache.head) == (
        2.0,
        2.0,
        5,
        game[4].hash,
    )
    out = send(again, game[3].payload(), game[4].payload(), game[5].payload())
    assert results(out) == ["duplicate", "duplicate", "stored"]
    assert again.card("b1")["summary"]["ply"] == 4


# ---------------------------------------------------------------------------- the MQTT session


def test_the_hubs_session_with_the_broker(store, monkeypatch):
    asked: dict[str, Any] = {}
    fake = FakeClient()

    def new_client(client_id, username, password, **kw):
        asked.update(client_id=client_id, username=username, password=password, **kw)
        return fake

    monkeypatch.setattr(transport, "new_client", new_client)
    address = BrokerAddress("broker.local", 8883, "hub", "secret", tls=True, ca_file="ca.pem")
    hub = Ingest(store, Live(), address, clock=lambda: 5.0)
    assert hub.client is fake
    handlers = asked.pop("handlers")
    assert asked == {
        "client_id": "damath-hub", "username": "hub", "password": "secret",
        "will": (HUB_PRESENCE, presence_payload(False, 0.0)),
        "clean_session": False,  # the broker keeps what arrives while the hub is down
        "tls": True, "ca_file": "ca.pem", "reconnect": (0.5, 4), "inflight": 200,
    }  # fmt: skip
    assert fake.calls == [("max_queued_messages_set", 0)]
    assert set(handlers) == {"on_connect", "on_disconnect", "on_message"}
    Ingest(store, Live(), address, client_id="hub-2")
    assert asked["client_id"] == "hub-2"
    assert Ingest(store, Live(), None).client is None


def connected_hub(store, monkeypatch, clock=lambda: 5.0):
    captured: dict[str, Any] = {}
    fake = FakeClient()

    def new_client(client_id, username, password, **kw):
        captured.update(kw["handlers"])
        return fake

    monkeypatch.setattr(transport, "new_client", new_client)
    hub = Ingest(store, Live(), BrokerAddress("broker.local", 1883, "hub", "pw"), clock=clock)
    return hub, fake, captured


def test_on_connecting_the_hub_subscribes_says_it_is_online_and_resends_assignments(
    store, monkeypatch
):
    with store.transaction() as db:
        rnd = store.round_id(db, 1)
    store.add_assignment("asg-1", "b1", rnd, {"v": 1, "id": "asg-1", "round": 1})
    hub, fake, handlers = connected_hub(store, monkeypatch)
    refused = ReasonCode(PacketTypes.CONNACK, "Not authorized")
    handlers["on_connect"](fake, None, None, refused, None)
    assert not hub.connected and fake.subscribed == [] and fake.published == []
    handlers["on_connect"](fake, None, None, ReasonCode(PacketTypes.CONNACK, "Success"), None)
    assert hub.connected
    assert fake.subscribed == [
        (
            [
                ("damath/v1/boards/+/records", 1),
                ("damath/v1/boards/+/state", 1),
                ("damath/v1/boards/+/presence", 1),
            ],
            1,
        )
    ]
    assert fake.published == [  # no tournament on this hub: the boards' clocks are not held
        (HUB_PRESENCE, presence_payload(True, 5.0, tournament=False), 1, True),
        (board_topic("b1", "assignment"), canonical({"v": 1, "id": "asg-1", "round": 1}), 1, True),
    ]
    handlers["on_disconnect"](fake, None, None, ReasonCode(PacketTypes.DISCONNECT, "Success"), None)
    assert not hub.connected
    hub.transport.tournament = lambda: (
        True
    )  # a tournament created: said in the presence at the next connect
    fake.published.clear()
    handlers["on_connect"](fake, None, None, ReasonCode(PacketTypes.CONNACK, "Success"), None)
    assert fake.published[0] == (
        HUB_PRESENCE,
        presence_payload(True, 5.0, tournament=True),
        1,
        True,
    )


@dataclass
class Message:
    topic: str
    payload: bytes


def test_the_worker_stores_what_arrives_and_the_hub_says_goodbye(store, monkeypatch, game):
    hub, fake, handlers = connected_hub(store, monkeypatch)
    hub.start()
    try:
        assert fake.calls[-2:] == [("connect_async", "broker.local", 1883, 10), ("loop_start",)]
        assert hub.live.cards["b1"]["board"] == "b1"  # every known board on the wall at once
        handlers["on_connect"](fake, None, None, ReasonCode(PacketTypes.CONNACK, "Success"), None)
        for e in game[:4]:
            handlers["on_message"](fake, None, Message(RECORDS, e.payload()))
        deadline = time.monotonic() + 60  # a bound for a hung worker, not a pace
        while hub.processed < 4:
            assert time.monotonic() < deadline, f"processed {hub.processed}"
            time.sleep(0.01)
        assert len(store.records("b1", game[0].game)) == 4
        acks = [p for p in fake.published if p[0] == board_topic("b1", "ack")]
        assert acks[-1] == (board_topic("b1", "ack"), ack_payload(game[0].game, 4), 1, False)
    finally:
        hub.stop()
    assert fake.published[-1] == (HUB_PRESENCE, presence_payload(False, 5.0), 1, True)
    assert fake.infos[-1].waited == 2.0
    assert fake.calls[-2:] == [("disconnect",), ("loop_stop",)]
    assert not hub._worker.is_alive()


def test_a_hub_that_never_connected_stops_without_a_goodbye(store, monkeypatch):
    hub, fake, _ = connected_hub(store, monkeypatch)
    hub.start()
    hub.stop()
    assert fake.published == [] and fake.calls[-2:] == [("disconnect",), ("loop_stop",)]
    assert not hub._worker.is_alive()


def test_assignments_and_commands_go_to_the_board_retained(store, monkeypatch):
    hub, fake, _ = connected_hub(store, monkeypatch, clock=lambda: 1234.5678)
    with store.transaction() as db:
        rnd = store.round_id(db, 1)
    hub.card("b1")  # the wall has read the assignments once
    payload = {"v": 1, "id": "asg-7", "round": 1}
    store.add_assignment("asg-7", "b1", rnd, payload)
    hub.publish_assignment("b1", payload)
    assert fake.published[-1] == (board_topic("b1", "assignment"), canonical(payload), 1, True)
    assert hub.live.cards["b1"]["assignment"] == payload  # read again, not the old reading
    store.clear_assignment("b1")
    hub.publish_assignment("b1", None)
    assert fake.published[-1] == (board_topic("b1", "assignment"), b"", 1, True)
    assert hub.live.cards["b1"]["assignment"] is None
    ident = hub.publish_command("b1", "pause", "desk " + "x" * 60)
    assert ident.startswith(f"c{1234567:x}-") and len(ident) == len(f"c{1234567:x}-") + 6
    topic, body, qos, retain = fake.published[-1]
    assert (topic, qos, retain) == (board_topic("b1", "command"), 1, True)
    assert body == canonical({"v": 1, "id": ident, "cmd": "pause", "by": ("desk " + "x" * 60)[:40]})
    assert hub.publish_command("b1", "resume", "desk") != ident  # a new id each time


def test_without_a_broker_a_command_cannot_be_sent(hub):
    hub.transport.client = None
    with pytest.raises(RuntimeError, match=r"^the hub is not connected to its broker$"):
        hub.publish_command("b1", "pause", "desk")
    hub.publish_assignment("b1", None)  # kept for when it connects; the wall still updates
    assert hub.live.cards["b1"]["assignment"] is None


def test_the_worker_takes_what_queued_in_one_batch(store, monkeypatch, game):
    hub, fake, handlers = connected_hub(store, monkeypatch)
    batches: list[int] = []
    process = hub.process
    gate = threading.Event()

    def counting(batch):
        gate.wait(10)
        batches.append(len(batch))
        return process(batch)

    monkeypatch.setattr(hub, "process", counting)
    for e in game[:5]:
        handlers["on_message"](fake, None, Message(RECORDS, e.payload()))
    assert [item[:3] for item in list(hub.queue.queue)] == [
        ("mqtt", RECORDS, e.payload()) for e in game[:5]
    ]
    assert {item[3] for item in list(hub.queue.queue)} == {5.0}  # the hub's clock
    hub.start()
    gate.set()
    deadline = time.monotonic() + 60
    while hub.processed < 5:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    hub.stop()
    assert batches[0] == 5


def test_a_disagreement_found_before_a_restart_is_still_shown_after_it(store, game):
    envs = resealed(game, "g-1", info={3: {"score": "99"}})
    first = Ingest(store, Live(), None)
    send(first, *(e.payload() for e in envs[:5]))
    problem = f"record 3: the board says score '99', the hub computes {game[2].info['score']!r}"
    assert first.card("b1")["summary"]["problem"] == problem
    again = Ingest(store, Live(), None)  # the hub restarts
    assert again.card("b1")["summary"]["problem"] == problem
    again.detail("b1")  # a page opens the board large: the game is rebuilt
    assert again.card("b1")["summary"]["problem"] == problem
    send(again, envs[5].payload())  # and the next record keeps it in the store
    assert again.card("b1")["summary"]["problem"] == problem
    assert store.game("b1", "g-1")["summary"]["problem"] == problem


def test_a_record_naming_an_assignment_this_hub_never_made_is_stored_without_a_round(hub, game):
    envs = resealed(game, "g-x", asg={1: "asg-elsewhere", 3: "asg-elsewhere"})
    assert results(send(hub, *(e.payload() for e in envs))) == ["stored"] * len(envs)
    row = hub.store.game("b1", "g-x")
    assert (row["assignment_id"], row["round"]) == ("asg-elsewhere", 0)


def test_a_state_of_the_largest_size_is_read(hub):
    state = {"v": 1, "board": "b1", "problems": [], "pad": ""}
    size = len(json.dumps(state).encode())
    state["pad"] = "x" * (32 * 1024 - size)
    payload = json.dumps(state).encode()
    assert len(payload) == 32 * 1024
    assert results(send(hub, payload, topic=STATE)) == ["state"]


def test_the_game_a_board_says_it_plays_is_kept_for_the_round_s_sending(hub):
    """A board's presence names the game it is set to play (``plays``): kept while it is a
    game of the registry, and its last word kept when it goes offline (it still plays it)."""

    def plays() -> str | None:
        return hub.store.boards()[0]["plays"]

    assert plays() is None  # not said yet: the hub sends it any table
    said = b'{"v": 1, "online": true, "plays": "dam"}'
    assert results(send(hub, said, topic=PRESENCE, at=4.0)) == ["presence"]
    assert plays() == "dam"
    unknown = b'{"v": 1, "online": true, "plays": "go"}'
    assert results(send(hub, unknown, topic=PRESENCE, at=5.0)) == ["presence"]
    assert plays() == "dam"  # a name no game has is not a game: the last one stands
    assert results(send(hub, b'{"v": 1, "online": false}', topic=PRESENCE, at=6.0)) == ["presence"]
    assert plays() == "dam"
    changed = b'{"v": 1, "online": true, "plays": "mathchess"}'
    assert results(send(hub, changed, topic=PRESENCE, at=7.0)) == ["presence"]
    assert plays() == "mathchess"
