"""The wire format, where mutation testing found slips the first tests let through
(bench/mutation.sh link-protocol): the envelope's hash and HMAC against hashlib and hmac on a
hand-written canonical form, every refusal with its reason and its words, every bound at its
edge (ids, sequence numbers, squares, paths, milliseconds), the hub's acknowledgement and the
desk's command as a board reads them, and presence."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from controller.link.protocol import (
    GENESIS,
    HUB_PRESENCE,
    MAX_PAYLOAD,
    Rejected,
    ack_payload,
    board_topic,
    canonical,
    check_board_id,
    check_seal,
    parse_ack,
    parse_board_topic,
    parse_command,
    parse_envelope,
    presence_payload,
    record_problem,
    seal,
)

KEY = bytes(range(32))
TICK = {"k": "tick", "t": 1.5}


def test_the_hash_and_hmac_are_those_of_the_documented_canonical_form():
    env = seal("b7", "g-1", 3, "a" * 64, TICK, KEY, info={"score": "2"}, asg="asg-9")
    # docs/mqtt.md: SHA-256 of every field but hash and hmac, keys sorted, no spaces, ASCII
    body = (
        '{"asg":"asg-9","board":"b7","game":"g-1","info":{"score":"2"},"prev":"' + "a" * 64 + '",'
        '"record":{"k":"tick","t":1.5},"seq":3,"v":1}'
    )
    digest = hashlib.sha256(body.encode()).hexdigest()
    assert env.hash == digest
    assert env.hmac == hmac.new(KEY, digest.encode(), hashlib.sha256).hexdigest()
    assert json.loads(env.payload()) == {**json.loads(body), "hash": digest, "hmac": env.hmac}
    assert env.payload() == canonical(json.loads(env.payload()))  # the payload is canonical too
    assert env.kind == "tick" and seal("b7", "g-1", 1, GENESIS, {"t": 1}, KEY).kind == ""


def test_canonical_is_sorted_compact_ascii_and_refuses_nan():
    assert canonical({"b": [1, 2.5], "a": "é"}) == b'{"a":"\\u00e9","b":[1,2.5]}'
    with pytest.raises(ValueError):
        canonical({"t": float("nan")})


def test_a_record_that_cannot_be_hashed_is_forged_not_a_crash():
    env = seal("b1", "g1", 1, GENESIS, TICK, KEY)
    broken = type(env)(**{**env.__dict__, "record": {"k": "tick", "t": float("inf")}})
    with pytest.raises(Rejected) as info:
        check_seal(broken, KEY)
    assert (info.value.reason, str(info.value)) == ("forged", "the record cannot be hashed")


def test_forged_records_say_which_check_failed():
    env = seal("b1", "g1", 4, "c" * 64, TICK, KEY)
    other = type(env)(**{**env.__dict__, "seq": 5})
    with pytest.raises(Rejected, match=r"^record 5: the hash does not match its content$"):
        check_seal(other, KEY)
    with pytest.raises(Rejected, match=r"^record 4: the HMAC is not the board's$"):
        check_seal(env, b"x" * 32)
    check_seal(env, KEY)


def body(**change) -> dict:
    env = seal("b1", "g1", 2, "a" * 64, dict(TICK), KEY, asg="a-1")
    data = json.loads(env.payload())
    data.update(change)
    return data


def rejected(data, board="b1") -> tuple[str, str]:
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    with pytest.raises(Rejected) as info:
        parse_envelope(payload, board)
    return info.value.reason, str(info.value)


@pytest.mark.parametrize(
    ("data", "reason", "text"),
    [
        (b"\xff\xfe", "malformed", "not JSON"),
        (b"[1, 2]", "malformed", "not a JSON object"),
        ({"v": 2}, "schema", "version 2 (this hub reads 1)"),
        ({"v": "1"}, "schema", "version '1' (this hub reads 1)"),
        (body(seq=True), "schema", "'seq' missing or not a int"),
        (body(record=[]), "schema", "'record' missing or not a dict"),
        (body(hmac=None), "schema", "'hmac' missing or not a str"),
        (body(extra=1, more=2), "schema", "unknown fields ['extra', 'more']"),
        (body(board="b2"), "topic", "record of board 'b2' on 'b1''s topic"),
        (body(game="-g"), "schema", "'game' is not a game id"),
        (body(game="g" * 49), "schema", "'game' is not a game id"),
        (body(seq=0), "schema", "'seq' out of range"),
        (body(seq=2**31), "schema", "'seq' out of range"),
        (body(prev="A" * 64), "schema", "'prev' is not 64 hex digits"),
        (body(hash="a" * 63), "schema", "'hash' is not 64 hex digits"),
        (body(hmac="a" * 65), "schema", "'hmac' is not 64 hex digits"),
        (body(asg=7), "schema", "'asg' is not an assignment id"),
        (body(asg="no spaces"), "schema", "'asg' is not an assignment id"),
        (body(record={"k": "tick"}), "schema", "record: 't' (the board's time) missing"),
    ],
)
def test_each_refusal_has_its_reason_and_says_what(data, reason, text):
    assert rejected(data) == (reason, text)


def test_the_largest_payload_is_read_one_byte_more_is_not():
    data = body(info={"pad": ""})
    size = len(json.dumps(data).encode())
    data["info"]["pad"] = "x" * (MAX_PAYLOAD - size)
    exact = json.dumps(data).encode()
    assert len(exact) == MAX_PAYLOAD
    assert parse_envelope(exact, "b1").info["pad"]  # read (the seal is checked later)
    data["info"]["pad"] += "x"
    assert rejected(data) == ("oversized", f"{MAX_PAYLOAD + 1} bytes (at most {MAX_PAYLOAD})")


def test_bounds_of_what_an_envelope_may_hold():
    for seq in (1, 2**31 - 1):
        assert parse_envelope(json.dumps(body(seq=seq)).encode(), "b1").seq == seq
    for game in ("g", "G" + "9" * 47, "0-a"):
        assert parse_envelope(json.dumps(body(game=game)).encode(), "b1").game == game
    assert parse_envelope(json.dumps(body(asg=None)).encode(), "b1").asg is None
    env = parse_envelope(json.dumps(body()).encode(), "b1")
    assert (env.board, env.game, env.seq, env.prev, env.record, env.info, env.asg) == (
        "b1", "g1", 2, "a" * 64, TICK, {}, "a-1",
    )  # fmt: skip


def move(path, **more) -> dict:
    return {"k": "move", "t": 0, "path": path, **more}


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"k": "Tick", "t": 0}, "'k' (the record kind) missing"),
        ({"k": "a" * 25, "t": 0}, "'k' (the record kind) missing"),
        ({"k": "tick", "t": True}, "'t' (the board's time) missing"),
        ({"k": "tick", "t": float("nan")}, "'t' (the board's time) missing"),
        ({"k": "tick", "t": "1"}, "'t' (the board's time) missing"),
        ({"k": "tick", "t": 0, "game_ms": -1}, "'game_ms' is not a whole number of milliseconds"),
        ({"k": "tick", "t": 0, "move_ms": 1.5}, "'move_ms' is not a whole number of milliseconds"),
        (
            {"k": "start", "t": 0, "variant": "integer"},
            "a start record needs 'variant' and 'rules'",
        ),
        ({"k": "start", "t": 0, "rules": "x"}, "a start record needs 'variant' and 'rules'"),
        (
            {"k": "start", "t": 0, "variant": "integer", "rules": "x", "position": []},
            "a start record needs its 'position'",
        ),
        (move([[0, 0]]), "a move record needs a 'path' of squares"),
        (move([[0, 0]] * 17), "a move record needs a 'path' of squares"),
        (move([[0, 0], [8, 0]]), "a move record needs a 'path' of squares"),
        (move([[0, 0], [0, -1]]), "a move record needs a 'path' of squares"),
        (move([[0, 0], [0, True]]), "a move record needs a 'path' of squares"),
        (move([[0, 0], [0, 1, 2]]), "a move record needs a 'path' of squares"),
        (move([[0, 0], (0, 1)]), "a move record needs a 'path' of squares"),
        ({"k": "end", "t": 0}, "an end record needs its 'reason'"),
        ({"k": "end", "t": 0, "reason": "time", "side": 2}, "'side' is 0 (blue) or 1 (red)"),
        ({"k": "end", "t": 0, "reason": "time", "side": "0"}, "'side' is 0 (blue) or 1 (red)"),
    ],
)
def test_record_shapes_at_their_edges(record, problem):
    assert record_problem(record) == problem


@pytest.mark.parametrize(
    "record",
    [
        {"k": "a" * 24, "t": 0.5},
        {"k": "tick", "t": 0, "game_ms": 0, "move_ms": 12},
        {"k": "start", "t": 0, "variant": "integer", "rules": "official", "position": {}},
        move([[0, 0], [7, 7]]),
        move([[1, 1]] * 16),
        {"k": "end", "t": 0, "reason": "time"},
        {"k": "end", "t": 0, "reason": "time", "side": 0},
        {"k": "end", "t": 0, "reason": "time", "side": 1},
    ],
)
def test_records_at_the_edge_of_what_is_allowed_pass(record):
    assert record_problem(record) is None


def test_board_ids_and_topics():
    assert check_board_id("b" * 32) == "b" * 32 and check_board_id("0-a") == "0-a"
    for bad in ("b" * 33, "-b", "B1", "hub", "", 7):
        with pytest.raises(ValueError) as info:
            check_board_id(bad)  # type: ignore[arg-type]
        assert str(info.value) == (
            f"board id {bad!r}: use 1 to 32 lower-case letters, digits or '-', starting with "
            "a letter or digit (and not 'hub')"
        )
    assert board_topic("b1", "state") == "damath/v1/boards/b1/state"
    assert parse_board_topic("damath/v1/boards/b1/records") == ("b1", "records")
    assert parse_board_topic("damath/v1/boards/b1/records/x") is None
    assert parse_board_topic("damath/v1/boards/B1/records") is None
    assert parse_board_topic("damath/v2/boards/b1/records") is None
    assert HUB_PRESENCE == "damath/v1/hub/presence"


def test_an_acknowledgement_as_a_board_reads_it():
    assert ack_payload("g-1", 7) == b'{"game":"g-1","seq":7,"v":1}'
    assert parse_ack(ack_payload("g-1", 7)) == ("g-1", 7)
    assert parse_ack(b'{"v":1,"game":"g","seq":0}') == ("g", 0)  # a hub that lost its store
    for bad in (
        b"\xff",
        b"[]",
        b'{"v":2,"game":"g","seq":1}',
        b'{"v":1,"game":"-g","seq":1}',
        b'{"v":1,"game":7,"seq":1}',
        b'{"v":1,"game":"g","seq":-1}',
        b'{"v":1,"game":"g","seq":true}',
        b'{"v":1,"game":"g","seq":"1"}',
    ):
        assert parse_ack(bad) is None, bad


def test_a_command_as_a_board_reads_it():
    good = {"v": 1, "id": "c1-ab", "cmd": "pause", "by": "desk"}
    assert parse_command(json.dumps(good).encode()) == good
    assert parse_command(json.dumps({**good, "cmd": "resume"}).encode())["cmd"] == "resume"
    for bad in (
        b"",
        b"\xff",
        b"[]",
        json.dumps({**good, "v": 2}).encode(),
        json.dumps({**good, "id": 5}).encode(),
        json.dumps({**good, "id": "-c"}).encode(),
        json.dumps({**good, "cmd": "stop"}).encode(),
    ):
        assert parse_command(bad) is None, bad


def test_presence_rounds_its_time_and_carries_what_else_is_said():
    assert presence_payload(True, 12.34567, software="1.0") == (
        b'{"online":true,"software":"1.0","t":12.346,"v":1}'
    )
    assert presence_payload(False, 0.0, reason="lost") == (
        b'{"online":false,"reason":"lost","t":0.0,"v":1}'
    )
