"""Power cuts: SIGKILL the board at 200+ random moments; every game still ends exactly as the
uninterrupted one. Also a journal torn in the middle of a record and one with a flipped byte."""

from __future__ import annotations

import random

from controller.session import Session, SessionConfig
from controller.session.journal import read
from controller.view.snapshot import snapshot

from .helpers import game_trace
from .powercut import cut_until, plan, play


def _finishing_trace(seed: int):
    trace = game_trace(seed, plies=400)
    return trace


def test_two_hundred_power_cuts_change_nothing(tmp_path):
    p = plan(_finishing_trace(11))
    report, results = cut_until(p, tmp_path, kills=200, rng=random.Random(5))
    clean = results[0]
    assert report.kills >= 200
    for result in results[1:]:
        assert result == clean
    print(f"{report.kills} kills over {report.games} games; result {clean['reason']}")


def test_a_record_torn_in_the_middle_resumes_before_it_and_finishes_the_same(tmp_path):
    p = plan(_finishing_trace(12))
    clean = tmp_path / "clean.json"
    play(p, tmp_path / "clean.jsonl", clean, sync=False)
    journal = tmp_path / "cut.jsonl"
    play(p, journal, tmp_path / "first.json", sync=False)
    data = journal.read_bytes()
    lines = data.split(b"\n")
    moves = [i for i, line in enumerate(lines) if b'"k":"move"' in line]
    keep = moves[len(moves) // 2]
    torn = b"\n".join(lines[:keep]) + b"\n" + lines[keep][: len(lines[keep]) // 2]
    journal.write_bytes(torn)
    s = Session.open(SessionConfig(), str(journal), 0.0, sync=False)
    assert "cut short" in s.problems[0]
    assert s.game.ply == keep - moves[0]  # the move records before the torn one
    s.journal.close()
    out = tmp_path / "after.json"
    play(p, journal, out, sync=False)
    assert out.read_text() == clean.read_text()


def test_a_flipped_byte_is_reported_the_game_resumes_before_it_and_the_file_is_kept(tmp_path):
    p = plan(_finishing_trace(13))
    journal = tmp_path / "flip.jsonl"
    play(p, journal, tmp_path / "first.json", sync=False)
    data = bytearray(journal.read_bytes())
    records = read(journal).records
    moves = [i for i, r in enumerate(records) if r["k"] == "move"]
    target = moves[3]
    offset = sum(len(line) + 1 for line in bytes(data).split(b"\n")[:target])
    data[offset + 30] ^= 0x20
    journal.write_bytes(bytes(data))
    s = Session.open(SessionConfig(), str(journal), 0.0, sync=False)
    assert f"record {target + 1} is damaged" in s.problems[0]
    assert s.game.ply == 3 and s.phase == "restore"
    assert snapshot(s, 0.0)["message"] == s.problems[0]
    assert (tmp_path / "flip.jsonl.damaged-1").read_bytes() == bytes(data)
