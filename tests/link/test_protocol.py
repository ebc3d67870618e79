"""The signed record envelope: any change to any field is caught; the shape checks refuse what
a board never sends, with the reason; topics parse back."""

from __future__ import annotations

import json

import pytest

from controller.link.protocol import (
    GENESIS,
    Rejected,
    board_topic,
    check_seal,
    parse_board_topic,
    parse_envelope,
    record_problem,
    seal,
)

KEY = b"k" * 32
RECORD = {"k": "move", "t": 3.5, "ply": 0, "path": [[2, 1], [3, 2]], "game_ms": 10, "move_ms": 10}


def test_seal_round_trip_and_chain():
    a = seal("b1", "g1", 1, GENESIS, {"k": "start", "t": 0, "variant": "integer",
             "rules": "official", "position": {}}, KEY)  # fmt: skip
    b = seal("b1", "g1", 2, a.hash, RECORD, KEY, info={"score": "0"})
    for env in (a, b):
        back = parse_envelope(env.payload(), "b1")
        assert back == env
        check_seal(back, KEY)
    assert b.prev == a.hash


@pytest.mark.parametrize("field", ["board", "game", "seq", "prev", "record", "info", "asg"])
def test_every_field_is_covered_by_the_hash(field):
    env = seal("b1", "g1", 2, "a" * 64, RECORD, KEY, info={"score": "0"}, asg="a-1")
    data = json.loads(env.payload())
    data[field] = {"board": "b2", "game": "g2", "seq": 3, "prev": "b" * 64,
                   "record": {**RECORD, "t": 4}, "info": {}, "asg": "a-2"}[field]  # fmt: skip
    with pytest.raises(Rejected) as info:
        check_seal(parse_envelope(json.dumps(data).encode(), data["board"]), KEY)
    assert info.value.reason == "forged"


def test_another_key_is_forged():
    env = seal("b1", "g1", 1, GENESIS, RECORD, b"x" * 32)
    with pytest.raises(Rejected, match="HMAC"):
        check_seal(env, KEY)


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"t": 1}, "'k'"),
        ({"k": "move", "t": "x"}, "'t'"),
        ({"k": "move", "t": 1, "path": [[9, 9], [1, 1]]}, "path"),
        ({"k": "start", "t": 1}, "variant"),
        ({"k": "end", "t": 1, "reason": "stop", "side": 3}, "side"),
        ({"k": "tick", "t": 1, "game_ms": -1}, "game_ms"),
    ],
)
def test_record_shapes(record, problem):
    assert problem in record_problem(record)


def test_new_record_kinds_pass_for_later_journals():
    assert record_problem({"k": "battery", "t": 1.0}) is None


def test_topics():
    assert parse_board_topic(board_topic("b-7", "records")) == ("b-7", "records")
    assert parse_board_topic("damath/v1/boards/B7/records") is None
    assert parse_board_topic("damath/v1/boards/b7/records/x") is None


@pytest.mark.parametrize("where", ["record", "info", "top"])
def test_a_message_nested_3000_deep_is_refused_as_malformed(where):
    deep = "[" * 3000 + "]" * 3000  # 6 KB, under the size cap
    if where == "top":
        payload = deep.encode()
    else:
        text = seal("b1", "g1", 1, GENESIS, RECORD, KEY).payload().decode()
        inside = '"record":{' if where == "record" else '"info":{'
        payload = text.replace(inside, inside + '"deep":' + deep + ",", 1).encode()
        assert payload != text.encode()
    assert len(payload) < 32 * 1024
    with pytest.raises(Rejected) as caught:  # not a RecursionError
        parse_envelope(payload, "b1")
    assert caught.value.reason == "malformed" and "nested deeper" in str(caught.value)


def test_nesting_a_board_writes_is_read():
    shallow = {"k": "start", "t": 0, "variant": "integer", "rules": "official",
               "position": {"pieces": [{"square": [1, 2], "side": "blue"}]}}  # fmt: skip
    env = seal("b1", "g1", 1, GENESIS, shallow, KEY, info={"takings": [{"square": [1, 1]}]})
    assert parse_envelope(env.payload(), "b1") == env


def test_json_true_is_no_version() -> None:
    """Issue 39, item 11: ``"v": true`` passed as version 1 (Python's ``True == 1``) in the
    hub's acknowledgement, its resend request, a board's state and the federation's wall."""
    from controller.hub.ingest.verify import read_status
    from controller.link.protocol import Rejected, is_version, parse_ack, parse_resend

    assert parse_ack(b'{"v": 1, "game": "g1", "seq": 3}') == ("g1", 3)
    assert parse_ack(b'{"v": true, "game": "g1", "seq": 3}') is None
    assert parse_resend(b'{"v": 1, "from": 1, "id": "r1"}') == "r1"
    assert parse_resend(b'{"v": true, "from": 1, "id": "r1"}') is None
    assert parse_resend(b'{"v": 1, "from": true, "id": "r1"}') is None
    with pytest.raises(Rejected, match="version 1 object"):
        read_status("b01", "state", b'{"v": true}', known=True)
    assert is_version(1, 1) and not is_version(True, 1) and not is_version(1.0, 1)
