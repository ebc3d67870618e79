"""A submission is accepted only when every game is every record its board signed, in its
chain, each one a move the rules engine plays, and every result the one its board game gives
(or a correction that says why). Each way of forging or damaging one is refused with a reason
that names where and why; nothing of it is taken in."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from controller.federation import bundle
from controller.federation.verify import verify
from controller.link.protocol import seal

from .kit import envelopes, event_of, lines, registry

KNOWN = registry({"1000009": "Ana", "1000017": "Ben"})


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished game (Blue wins: Red resigns after six moves) and its event."""
    return event_of(tmp_path_factory.mktemp("board"), "blue")


def refused(verdict) -> list[str]:
    assert verdict.verdict == "refused", verdict
    assert verdict.games == [] and verdict.results == []  # nothing of it is taken in
    return [f"{r['where']}: {r['reason']}" for r in verdict.reasons]


def test_a_sound_event_is_accepted_with_its_game_and_result(played):
    v = verify(played.submission(), played.row(), KNOWN)
    assert v.verdict == "accepted" and v.reasons == []
    (game,) = v.games
    assert (game["board"], game["game"], game["moves"], game["records"]) == ("b01", "g1", 6, 9)
    assert (game["outcome"], game["blue_score"], game["red_score"]) == ("blue", "-5", "6")
    (result,) = v.results
    assert (result["blue"], result["red"], result["outcome"]) == ("1000009", "1000017", "blue")
    assert result["verified"] and not result["corrected"] and result["family"] == "integer"
    assert "[Termination" in game["pdn"]  # the game's record, rebuilt by the rules engine


def test_a_record_changed_without_the_boards_key_is_forged(played):
    line = json.loads(played.envs[4].payload())
    line["record"]["path"] = [[2, 5], [3, 4]]  # another move written in, hash left as it was
    envs = [e.payload() for e in played.envs]
    envs[4] = json.dumps(line).encode()
    v = verify(played.submission(b"\n".join(envs) + b"\n"), played.row(), KNOWN)
    (reason,) = refused(v)
    assert reason.startswith("board b01, game g1, record 5: forged:")
    assert "the hash does not match its content" in reason


def test_a_record_rehashed_without_the_boards_key_is_forged(played):
    env = played.envs[4]
    other = seal("b01", "g1", env.seq, env.prev, {**env.record, "game_ms": 1}, b"x" * 32)
    envs = [e.payload() for e in played.envs]
    envs[4] = other.payload()
    (reason,) = refused(verify(played.submission(b"\n".join(envs)), played.row(), KNOWN))
    assert "record 5: forged: record 5: the HMAC is not the board's" in reason


def test_a_move_the_rules_refuse_is_refused_even_when_signed_with_the_boards_key(played):
    """Someone holding the board's key (the hub's store has it) signs a move that cannot be."""
    records = [dict(r) for r in played.records]
    move = next(i for i, r in enumerate(records) if r["k"] == "move")
    records[move] = {**records[move], "path": [[0, 2], [4, 6]]}  # no such move
    envs = envelopes("b01", "g1", played.board_key, records)
    (reason,) = refused(verify(played.submission(lines(envs)), played.row(), KNOWN))
    assert f"record {move + 1}: the rules engine refuses it" in reason


def test_a_record_taken_out_breaks_the_chain(played):
    envs = [e.payload() for i, e in enumerate(played.envs) if i != 3]
    (reason,) = refused(verify(played.submission(b"\n".join(envs)), played.row(), KNOWN))
    assert "record 4: it is numbered 5: a record is missing or repeated before it" in reason


def test_records_swapped_between_games_are_caught(played):
    """Each record is numbered and chained: a record of another game does not fit."""
    other = envelopes("b01", "g2", played.board_key, played.records)
    envs = [e.payload() for e in played.envs]
    envs[2] = other[2].payload()
    (reason,) = refused(verify(played.submission(b"\n".join(envs)), played.row(), KNOWN))
    assert "record 3: it belongs to game g2" in reason


def test_a_board_whose_own_reading_disagrees_with_the_engine_is_refused(played):
    """The board's info (the score it showed) is signed with the record: it must be the
    engine's reading."""
    envs = [e.payload() for e in played.envs]
    env = played.envs[-1]
    info = {**env.info, "result": {**env.info["result"], "result": "0-1"}}
    envs[-1] = seal(
        "b01", "g1", env.seq, env.prev, env.record, played.board_key, info, env.asg
    ).payload()
    (reason,) = refused(verify(played.submission(b"\n".join(envs)), played.row(), KNOWN))
    assert "the board says result" in reason and "the rules engine" in reason


def test_a_file_changed_after_the_hub_signed_is_refused(played):
    data = played.submission()
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == bundle.MANIFEST:
                body = body.replace(b'"outcome": "blue"', b'"outcome": "red"')
            out.writestr(info.filename, body)
    (reason,) = refused(verify(buf.getvalue(), played.row(), KNOWN))
    assert reason == "the archive: federation.json was changed after the hub signed the archive"


def test_an_archive_signed_with_another_key_is_refused(played):
    (reason,) = refused(verify(played.submission(key=b"k" * 32), played.row(), KNOWN))
    assert "the hub's signature is not the event's" in reason


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda b: b"", "not a zip archive"),
        (lambda b: b"PK\x03\x04 garbage", "not a zip archive"),
        (lambda b: b[: len(b) // 2], "not a zip archive"),
        (lambda b: b.replace(b"federation.json", b"federation.jsoN", 1), "the archive"),
    ],
)
def test_a_damaged_archive_is_refused_with_a_sentence(played, damage, said):
    (reason,) = refused(verify(damage(played.submission()), played.row(), KNOWN))
    assert said in reason and "Traceback" not in reason


def test_a_flipped_byte_inside_a_compressed_file_is_damage_not_a_crash(played):
    data = bytearray(played.submission())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as z:
        info = z.getinfo(bundle.records_name("b01", "g1"))
    data[info.header_offset + 30 + len(info.filename) + 40] ^= 0xFF
    (reason,) = refused(verify(bytes(data), played.row(), KNOWN))
    assert "damaged" in reason or "changed after the hub signed" in reason


def test_a_huge_member_is_refused_by_its_size_before_it_is_read(played, monkeypatch):
    monkeypatch.setattr(bundle, "MAX_MEMBER", 1000)
    (reason,) = refused(verify(played.submission(), played.row(), KNOWN))
    assert "is too large to read" in reason


def test_an_event_submitted_with_another_events_credential_is_refused(played):
    (reason,) = refused(verify(played.submission(), {**played.row(), "date": "2026-10-10"}, KNOWN))
    assert reason == (
        "the archive: its event was held on 2026-12-05; event test-cup is on 2026-10-10: is "
        "this the event's credential?"
    )


def test_an_unregistered_federation_id_refuses_the_event(played):
    (reason,) = refused(verify(played.submission(), played.row(), registry({"1000009": "Ana"})))
    assert reason == "player 2 (Ben): federation ID 1000017 is not in the registry"


def test_a_mistyped_federation_id_is_caught_by_its_check_digit(played, tmp_path):
    ev = event_of(tmp_path, "blue")
    ev.fed_ids = ("1000009", "1000018")
    (reason,) = refused(verify(ev.submission(), ev.row(), KNOWN))
    assert "its check digit is wrong" in reason


def test_a_player_without_an_id_is_noted_and_not_rated(tmp_path):
    ev = event_of(tmp_path, "blue")
    ev.fed_ids = ("1000009", "")
    v = verify(ev.submission(), ev.row(), KNOWN)
    assert v.verdict == "accepted"
    assert v.notes == [
        {"where": "player 2 (Ben)", "reason": "no federation ID: their games are not rated"}
    ]
    assert v.results[0]["red"] is None


def test_a_board_result_that_is_not_the_boards_game_is_refused(tmp_path):
    ev = event_of(tmp_path, "blue")
    ev.result = {**ev.result, "blue_score": "-4"}  # typed over the board's -5
    (reason,) = refused(verify(ev.submission(), ev.row(), KNOWN))
    assert reason == (
        "open, round 1, table 1: the result taken from the board (blue -4 : 6) is not what "
        "the board's records give (blue -5 : 6)"
    )


def test_a_correction_without_a_reason_is_refused(tmp_path):
    ev = event_of(tmp_path, "blue")
    ev.extra_results = [{**ev.result, "outcome": "red", "source": "arbiter", "reason": ""}]
    (reason,) = refused(verify(ev.submission(), ev.row(), KNOWN))
    assert "differs from the board's game (blue -5 : 6) and gives no reason" in reason


def test_a_correction_with_its_reason_is_accepted_and_carries_the_reason(tmp_path):
    ev = event_of(tmp_path, "blue")
    why = "Blue touched a chip and moved another (touch-move)"
    ev.extra_results = [{**ev.result, "outcome": "red", "source": "arbiter", "reason": why}]
    v = verify(ev.submission(), ev.row(), KNOWN)
    assert v.verdict == "accepted"
    (r,) = v.results
    assert (r["outcome"], r["corrected"], r["verified"], r["reason"]) == ("red", True, False, why)
    assert any(why in n["reason"] for n in v.notes)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda m: m.update(v=2), "not version 1"),
        (lambda m: m.pop("players"), "players missing"),
        (lambda m: m["boards"].update(b01="zz"), "board b01's key is not 64 hex digits"),
        (lambda m: m["results"][0].update(outcome="won"), "an unknown outcome"),
        (lambda m: m["games"].append(dict(m["games"][0])), "board b01, game g1: listed twice"),
        (lambda m: m["games"][0].update(game="g9"), "its records (records/b01/g9.jsonl)"),
    ],
)
def test_a_malformed_manifest_is_refused_with_its_fault(played, change, said):
    members = played.members()
    data = json.loads(members[bundle.MANIFEST])
    change(data)
    members[bundle.MANIFEST] = json.dumps(data).encode()
    sub = bundle.write(played.event_id, played.sign_key, members)
    reasons = refused(verify(sub, played.row(), KNOWN))
    assert any(said in r for r in reasons), reasons


def test_a_player_who_meets_herself_is_refused(tmp_path):
    """Issue 39, item 11: a result where one person played both sides (two of the event's
    players under one federation ID) was published and rated."""
    ev = event_of(tmp_path, "blue")
    ev.fed_ids = ("1000009", "1000009")
    reasons = refused(verify(ev.submission(), ev.row(), KNOWN))
    assert "open, round 1, table 1: the same player on both sides" in reasons
