"""The hub's checks, message by message, without a broker: what is stored, what is refused and
why, what is acknowledged; garbage of every shape never stops the worker and stores nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.hub.ingest import Ingest
from controller.hub.live import Live
from controller.hub.store import Store
from controller.link.follower import Follower
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.protocol import GENESIS, board_topic, seal

KEY = bytes(range(32))
TOPIC = board_topic("b1", "records")


@pytest.fixture(scope="module")
def envelopes(tmp_path_factory):
    """The sealed records of a real game played on a board (12 moves, a takeback)."""
    folder = tmp_path_factory.mktemp("board")
    board = PlaybackBoard(folder, sync=False)
    moves = sample_game_moves()[1]
    board.play_moves(moves[:12])
    board.session.press(board.t + 0.5, "takeback")
    board.t += 0.5
    board.restore()
    board.play_moves(moves[11:14], seed=3)
    board.close()
    follower = Follower(folder, "b1", KEY)
    (game,) = follower.scan()
    return game.envelopes


@pytest.fixture
def hub(tmp_path):
    store = Store(tmp_path / "hub.sqlite")
    store.add_board("b1", KEY.hex())
    ingest = Ingest(store, Live(), None)
    yield ingest
    store.close()


def send(ingest: Ingest, *payloads: bytes, topic: str = TOPIC) -> list[str]:
    return [o.result for o in ingest.process([("mqtt", topic, p, 1.0) for p in payloads])]


def stored(ingest: Ingest) -> list[tuple]:
    return ingest.store.query("SELECT game_id, seq, hash FROM records ORDER BY seq")


def test_a_game_is_stored_once_in_order_and_rebuilt(hub, envelopes):
    payloads = [e.payload() for e in envelopes]
    assert send(hub, *payloads) == ["stored"] * len(payloads)
    assert send(hub, *payloads[:5]) == ["duplicate"] * 5
    rows = stored(hub)
    assert [r["seq"] for r in rows] == list(range(1, len(payloads) + 1))
    card = hub.card("b1")
    assert card["summary"]["ply"] == 14 and card["seq"] == len(payloads)
    counters = hub.store.counters()["b1"]
    assert counters["stored"] == len(payloads) and counters["duplicate"] == 5


def test_a_continued_game_says_which_it_supersedes(hub, envelopes):
    send(hub, *(e.payload() for e in envelopes[:3]))
    first = envelopes[0]
    info = {**first.info, "supersedes": first.game}
    again = seal("b1", "continued-1", 1, GENESIS, first.record, KEY, info=info)
    assert send(hub, again.payload()) == ["stored"]
    assert hub.store.game("b1", "continued-1")["supersedes"] == first.game


def test_out_of_order_waits_for_the_resend(hub, envelopes):
    first, second, third = (e.payload() for e in envelopes[:3])
    assert send(hub, first, third) == ["stored", "out-of-order"]
    assert [r["seq"] for r in stored(hub)] == [1]
    assert send(hub, second, third) == ["stored", "stored"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["record"].update(path=[[2, 1], [3, 2]]), "forged"),
        (lambda d: d.update(seq=d["seq"] + 1), "forged"),
        (lambda d: d.update(game="another-game"), "forged"),
        (lambda d: d.update(hmac="0" * 64), "forged"),
        (lambda d: d.update(board="b2"), "topic"),
        (lambda d: d.pop("hash"), "schema"),
        (lambda d: d.update(v=2), "schema"),
        (lambda d: d.update(extra=1), "schema"),
        (lambda d: d["record"].update(k="move", path="e2e4"), "schema"),
    ],
)
def test_an_altered_record_is_refused_and_reported(hub, envelopes, change, reason):
    send(hub, envelopes[0].payload())
    data = json.loads(envelopes[1].payload())
    change(data)
    assert send(hub, json.dumps(data).encode()) == [reason]
    assert [r["seq"] for r in stored(hub)] == [1]
    (reject,) = hub.store.rejects()
    assert reject["reason"] == reason and reject["detail"]
    assert send(hub, envelopes[1].payload()) == ["stored"]  # the real one still goes in


def test_a_record_signed_with_another_key_is_forged(hub, envelopes):
    env = envelopes[0]
    fake = seal("b1", env.game, 1, GENESIS, env.record, b"k" * 32, info=env.info)
    assert send(hub, fake.payload()) == ["forged"]
    assert stored(hub) == []


def test_a_broken_chain_and_a_conflict_are_refused(hub, envelopes):
    send(hub, envelopes[0].payload(), envelopes[1].payload())
    e = envelopes[2]
    unchained = seal("b1", e.game, 3, "1" * 64, e.record, KEY, info=e.info)
    assert send(hub, unchained.payload()) == ["chain"]
    other = seal("b1", e.game, 2, envelopes[0].hash, {"k": "tick", "t": 5.0}, KEY)
    assert send(hub, other.payload()) == ["conflict"]
    assert [r["seq"] for r in stored(hub)] == [1, 2]


def test_unknown_boards_and_foreign_topics(hub, envelopes):
    e = envelopes[0]
    stranger = seal("b9", e.game, 1, GENESIS, e.record, KEY)
    assert send(hub, stranger.payload(), topic=board_topic("b9", "records")) == ["unknown-board"]
    assert send(hub, b"{}", topic="somewhere/else") == ["topic"]
    assert send(hub, b"{}", topic=board_topic("b1", "ack")) == ["topic"]
    assert stored(hub) == []


def test_state_and_presence(hub):
    state = {"v": 1, "board": "b1", "software": "9.9", "firmware": "fw-2", "problems": ["x"]}
    topic_state, topic_presence = board_topic("b1", "state"), board_topic("b1", "presence")
    assert send(hub, json.dumps(state).encode(), topic=topic_state) == ["state"]
    assert send(hub, b'{"v": 1, "online": true}', topic=topic_presence) == ["presence"]
    card = hub.card("b1")
    assert card["online"] and card["firmware"] == "fw-2" and card["problems"] == ["x"]
    assert send(hub, b'{"v": 1, "online": "yes"}', topic=topic_presence) == ["schema"]
    assert send(hub, b"x" * 40_000, topic=topic_state) == ["oversized"]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    payload=st.one_of(
        st.binary(max_size=300),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
            lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=5),
            max_leaves=20,
        ).map(lambda v: json.dumps(v).encode()),
    ),
    leaf=st.sampled_from(["records", "state", "presence", "ack", "x"]),
)
def test_garbage_never_stops_the_hub_and_stores_nothing(hub, payload, leaf):
    (result,) = send(hub, payload, topic=board_topic("b1", leaf))
    assert result in {"malformed", "schema", "topic", "oversized", "state", "presence"}
    assert stored(hub) == []


def test_store_is_wal_synchronous_full_and_idempotent(tmp_path, envelopes):
    store = Store(tmp_path / "hub.sqlite")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.add_board("b1", KEY.hex())
    e = envelopes[0]
    with store.transaction() as db:
        store.upsert_game(db, "b1", e.game, 1, e.hash, 1.0, {}, None, None)
        store.insert_record(db, e, 1.0)
    with pytest.raises(sqlite3.IntegrityError), store.transaction() as db:
        store.insert_record(db, e, 2.0)
    assert len(store.records("b1", e.game)) == 1
    store.close()


def test_acks_wait_for_the_disk_the_wall_does_not(hub, envelopes):
    """The wall is updated inside the batch's transaction (spectators need not wait for the
    fsync); the board's acknowledgement only after the commit; each game's row once a batch;
    and only a batch with records is committed durably."""
    statements: list[str] = []
    hub.store.db.set_trace_callback(statements.append)
    seen: list[tuple[str, bool]] = []

    class Wall(Live):
        def update(self, card, detail=None):
            seen.append(("wall", hub.store.db.in_transaction))
            super().update(card, detail)

    class Client:
        def publish(self, topic, payload, qos=0):
            seen.append(("ack", hub.store.db.in_transaction))

    hub.live, hub.transport.client = Wall(), Client()
    assert send(hub, *[e.payload() for e in envelopes[:10]]) == ["stored"] * 10
    assert seen == [("wall", True), ("ack", False)]
    games = [s for s in statements if s.startswith("INSERT INTO games")]
    assert len(games) == 2  # the new game's row, then once at the end of the batch
    assert not any("synchronous" in s for s in statements)  # records: the commit is fsynced
    row = hub.store.query("SELECT last_seq, head FROM games")[0]
    assert (row["last_seq"], row["head"]) == (10, envelopes[9].hash)
    assert hub.card("b1")["summary"]["ply"] == sum(e.record["k"] == "move" for e in envelopes[:10])
    statements.clear()
    state = {"v": 1, "board": "b1", "software": "9.9", "problems": []}
    assert send(hub, json.dumps(state).encode(), topic=board_topic("b1", "state")) == ["state"]
    assert "PRAGMA synchronous=NORMAL" in statements  # nothing acknowledged: no fsync
    assert hub.store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again
    hub.store.db.set_trace_callback(None)


def test_a_batch_meets_the_failpoints_as_it_becomes_durable(hub, envelopes, monkeypatch):
    """The places tests/hub/test_hub_kill.py kills the hub at are where their names say: every
    record in the transaction but none committed, all committed but none acknowledged, then
    acknowledged; a duplicate is acknowledged again the same way, a batch with no record meets
    none of them."""
    from controller.hub import failpoints

    published: list[str] = []

    class Client:  # what the hub hands its acknowledgements to
        def publish(self, topic: str, payload: bytes, qos: int) -> None:
            published.append(topic)

    hub.transport.client = Client()
    other = sqlite3.connect(hub.store.path)  # another reader sees only what is committed
    seen: list[tuple[str, int, int]] = []

    def reach(name: str, before: object = None) -> None:
        committed = other.execute("SELECT count(*) FROM records").fetchone()[0]
        seen.append((name, committed, len(published)))

    monkeypatch.setattr(failpoints, "reach", reach)
    payloads = [e.payload() for e in envelopes[:3]]
    assert send(hub, *payloads) == ["stored"] * 3
    assert seen == [("ingest.stored", 0, 0), ("ingest.committed", 3, 0), ("ingest.acked", 3, 1)]
    seen.clear()
    assert send(hub, payloads[0]) == ["duplicate"]
    assert seen == [("ingest.stored", 3, 1), ("ingest.committed", 3, 1), ("ingest.acked", 3, 2)]
    seen.clear()
    hub.process([("show", "b1", b"", 1.0)])
    assert seen == []
    other.close()


@pytest.mark.parametrize("text", ["", "nowhere@1", "ingest.acked@0", "ingest.acked@x"])
def test_a_failpoint_armed_wrongly_is_said_and_arms_nothing(text, capsys):
    from controller.hub.failpoints import armed

    assert armed(text) is None
    assert capsys.readouterr().err.count("\n") == (0 if text == "" else 1)


def test_a_failpoint_arms_its_place_and_count():
    from controller.hub.failpoints import armed

    assert armed("ingest.committed@3") == ("ingest.committed", 3)
    assert armed("ingest.stored") == ("ingest.stored", 1)
