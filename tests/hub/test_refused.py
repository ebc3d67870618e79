"""What the hub must refuse, through the real broker: a wrong credential, a board publishing
under another board's topics, forged and altered records, garbage, a replay. Each is refused,
shown to the organiser with its reason, nothing of it is stored, and the hub keeps serving."""

from __future__ import annotations

import json
import os
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.link.config import load
from controller.link.protocol import GENESIS, board_topic, seal

from .conftest import Board, assert_hub_equals_journals, stored_games


def client(hub, user: str, password: str, client_id: str) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    c.username_pw_set(user, password)
    c.connect("127.0.0.1", hub.mqtt_port)
    c.loop_start()
    return c


def publish(c: mqtt.Client, topic: str, payload: bytes) -> None:
    c.publish(topic, payload, qos=1).wait_for_publish(5)


def wait_for(predicate, timeout: float = 120.0):  # a bound for a hung test
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def reasons(hub) -> list[tuple[str | None, str]]:
    return [(r["board_id"], r["reason"]) for r in hub.json("/api/problems")["rejected"]]


@pytest.mark.slow
def test_refused_reported_nothing_stored_hub_serves(hub, tmp_path, sample_moves):
    hub.start()
    good = Board("b1", tmp_path / "b1", hub.add_board("b1"))
    other = load(hub.add_board("b2"))
    mine = load(good.conn)
    good.start_link()
    good.open_session()
    good.play.play_moves(sample_moves[:6], speed=50)
    good.wait_acked()
    before = stored_games(hub.folder, "b1")

    # a wrong password: the broker refuses the login, the hub reports it, the link says so
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(good.conn.read_text().replace(mine.password, "not-the-password"))
    intruder = Board("b1", tmp_path / "b1-copy", wrong)
    os.makedirs(intruder.folder)
    intruder.start_link(wrong)
    wait_for(lambda: "credential" in intruder.link.status().last_error)
    wait_for(lambda: ("b1", "login") in reasons(hub) or (None, "login") in reasons(hub))
    intruder.link.stop()

    # b2 publishes a record signed with b1's key under b1's topic: the ACL refuses it
    b2 = client(hub, "b2", other.password, "board-b2")
    fake = seal("b1", "g-fake", 1, GENESIS, {"k": "start", "t": 0}, mine.hmac_key)
    publish(b2, board_topic("b1", "records"), fake.payload())
    publish(b2, board_topic("b1", "state"), b'{"v": 1, "board": "b1", "problems": []}')
    wait_for(lambda: ("b2", "topic") in reasons(hub))

    # b1's own credential, but records that are not the board's (the board's link steps
    # aside: the broker keeps one connection per credential, and a second replaces the first)
    good.link.stop()
    b1 = client(hub, "b1", mine.password, "b1-tamper")
    genuine = json.loads(stored_rows(hub, "b1")[-1]["envelope"])  # the last record the board sent
    altered = dict(genuine)
    altered["record"] = {**genuine["record"], "path": [[2, 1], [3, 2]]}
    forged = seal("b1", genuine["game"], genuine["seq"] + 1, genuine["hash"],
                  {"k": "move", "t": 1, "path": [[2, 5], [3, 4]]}, b"\x00" * 32)  # fmt: skip
    other_board = seal("b2", "g-x", 1, GENESIS, {"k": "start", "t": 0}, other.hmac_key)
    broken_chain = seal("b1", genuine["game"], genuine["seq"] + 1, "1" * 64,
                        {"k": "tick", "t": 99}, mine.hmac_key)  # fmt: skip
    sent = {
        "forged": forged.payload(),
        "altered": json.dumps(altered).encode(),
        "topic": other_board.payload(),
        "chain": broken_chain.payload(),
        "malformed": b"\xff\xfe not json at all",
        "oversized": b'{"v": 1, "pad": "' + b"x" * 40_000 + b'"}',
        "schema": b'{"v": 1, "board": "b1"}',
        "array": b"[1, 2, 3]",
    }
    for payload in sent.values():
        publish(b1, board_topic("b1", "records"), payload)
    publish(b1, board_topic("b1", "records"), json.dumps(genuine).encode())  # a replay
    publish(b1, board_topic("b1", "state"), b"garbage")
    got = wait_for(lambda: len([r for r in reasons(hub) if r[0] == "b1"]) >= 9 and reasons(hub))
    b1_reasons = [reason for board, reason in got if board == "b1"]
    for reason in ("forged", "topic", "chain", "malformed", "oversized", "schema"):
        assert reason in b1_reasons, (reason, got)
    assert b1_reasons.count("forged") == 2  # the forged and the altered one
    counters = {b["board"]: b["counters"] for b in hub.json("/api/boards")["boards"]}
    assert counters["b1"].get("duplicate", 0) >= 1  # the replay changed nothing
    assert stored_games(hub.folder, "b1") == before  # nothing of it stored
    assert stored_games(hub.folder, "b2") == {}

    # the hub still serves: the page, the feeds, and the board's next moves
    assert b"<title>" in hub.get("/")
    b1.loop_stop()
    b1.disconnect()
    good.start_link()
    good.play.play_moves(sample_moves[6:12], seed=6, speed=50)
    good.wait_acked()
    assert_hub_equals_journals(hub.folder, [good])
    shown = hub.get("/boards")
    assert shown
    b2.loop_stop()
    b2.disconnect()
    good.close()


def stored_rows(hub, board: str) -> list[dict]:
    import sqlite3

    db = sqlite3.connect(f"file:{hub.folder / 'hub.sqlite'}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute(
        "SELECT * FROM records WHERE board_id = ? ORDER BY game_id, seq", (board,))]  # fmt: skip
    db.close()
    return rows
