"""The journal: append + fsync, exact resume, a torn or damaged record dropped and reported."""

from __future__ import annotations

import json

from controller.session import Session, SessionConfig
from controller.session.journal import Journal, decode, encode, read
from controller.tracker.trace import Frame
from controller.view.snapshot import snapshot

from .helpers import feed, game_trace


def test_records_round_trip_with_their_checksum():
    rec = {"k": "move", "path": [[1, 2], [0, 3]], "game_ms": 1234}
    line = encode(rec)
    assert line.endswith(b"\n") and decode(line[:-1]) == rec


def test_append_survives_reopening(tmp_path):
    path = tmp_path / "journal.jsonl"
    j, loaded = Journal.open(path)
    assert loaded.records == [] and loaded.problems == []
    for i in range(3):
        j.append({"k": "tick", "n": i})
    j.close()
    assert [r["n"] for r in read(path).records] == [0, 1, 2]


def test_a_record_cut_short_is_dropped_and_reported_and_nothing_earlier_lost(tmp_path):
    path = tmp_path / "journal.jsonl"
    j, _ = Journal.open(path)
    for i in range(5):
        j.append({"k": "tick", "n": i})
    j.close()
    data = path.read_bytes()
    path.write_bytes(data[:-7])  # the power went in the middle of the last write
    j, loaded = Journal.open(path)
    assert [r["n"] for r in loaded.records] == [0, 1, 2, 3]
    assert "cut short" in loaded.problems[0]
    j.append({"k": "tick", "n": 99})  # the repaired journal takes new records cleanly
    j.close()
    assert [r["n"] for r in read(path).records] == [0, 1, 2, 3, 99]
    assert loaded.saved_as and (tmp_path / "journal.jsonl.damaged-1").read_bytes() == data[:-7]


def test_a_flipped_byte_is_detected_the_records_before_it_kept_the_file_set_aside(tmp_path):
    path = tmp_path / "journal.jsonl"
    j, _ = Journal.open(path)
    for i in range(6):
        j.append({"k": "tick", "n": i})
    j.close()
    data = bytearray(path.read_bytes())
    third = data.index(b"\n", data.index(b"\n") + 1) + 1
    data[third + 20] ^= 0x04  # one bit of record 3
    path.write_bytes(bytes(data))
    j, loaded = Journal.open(path)
    j.close()
    assert [r["n"] for r in loaded.records] == [0, 1]
    assert "record 3 is damaged" in loaded.problems[0]
    assert (tmp_path / "journal.jsonl.damaged-1").read_bytes() == bytes(data)


def test_garbage_instead_of_a_journal_still_starts_a_new_game(tmp_path):
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"\x00\xff not a journal at all\n")
    s = Session.open(SessionConfig(), str(path), 0.0)
    assert s.phase == "setup" and s.problems
    assert "damaged" in snapshot(s, 0.0)["message"]


def _play_until(path, trace, until):
    s = Session.open(SessionConfig(checkpoint_seconds=0), str(path), 0.0)
    t = feed(s, trace.records, until)
    return s, t


def test_resume_gives_back_position_scores_scoresheet_and_clocks(tmp_path):
    trace = game_trace(7, plies=30)
    path = tmp_path / "journal.jsonl"
    half = trace.records[len(trace.records) // 2].t
    s, t = _play_until(path, trace, half)
    assert s.game.ply > 3
    s.press(t, "pause")
    expected = (s.game.chips(), s.rows, s.totals(), s.clocks.state(t), s.game.ply)
    s.journal.close()
    r = Session.open(SessionConfig(checkpoint_seconds=0), str(path), 5000.0)
    assert (r.game.chips(), r.rows, r.totals()) == expected[:3]
    assert r.game.ply == expected[4] and not r.problems
    assert r.clocks.state(9999.0) == expected[3]  # stopped: the outage is not counted
    assert r.phase == "restore" and r.paused
    assert snapshot(r, 5000.0)["message"].startswith("Restart")
    # the players set the board as guided; the pause still holds the clocks
    r.feed_frame(5000.0, r.game.occupied())
    r.advance(5001.0)
    assert r.phase == "play" and not r.clocks.running
    r.press(5002.0, "pause")
    assert r.clocks.running


def _thirty_five_seconds_into_the_first_move(path):
    """A game whose clocks started at 0.25 s, 35 s later; checkpoints every 10 s."""
    from controller.rules.game import Game

    cfg = SessionConfig(checkpoint_seconds=10)
    s = Session.open(cfg, str(path), 0.0)
    board = Game.new("integer").occupied()
    s.feed_frame(0.0, board)
    for k in range(1, 36):
        s.advance(float(k))  # checkpoints at 10.25, 20.25, 30.25
    return s, cfg, board


def test_time_during_an_outage_is_not_counted_beyond_the_last_checkpoint(tmp_path):
    path = tmp_path / "journal.jsonl"
    s, cfg, board = _thirty_five_seconds_into_the_first_move(path)
    s.journal.close()  # the power goes at 35 s
    r = Session.open(cfg, str(path), 100.0)
    game_ms = r.clocks.state(100.0)["game_ms"]
    assert game_ms == 30_750  # at the checkpoint at 31 s (the clocks started at 0.25 s)
    r.feed_frame(100.0, board)
    r.advance(101.0)
    assert r.clocks.running and r.clocks.reading(101.0).move_left == 60 - 30.75 - 0.75


def test_a_deliberate_stop_checkpoints_the_clocks_so_it_costs_no_time(tmp_path):
    path = tmp_path / "journal.jsonl"
    s, cfg, _ = _thirty_five_seconds_into_the_first_move(path)
    s.checkpoint(35.0)  # what `run` and the simulator do when they are stopped
    s.journal.close()
    r = Session.open(cfg, str(path), 100.0)
    assert r.clocks.state(100.0)["game_ms"] == 34_750  # all of it, not the last 10 s checkpoint


def test_a_move_is_journaled_before_it_is_confirmed(tmp_path):
    trace = game_trace(3, plies=4)
    path = tmp_path / "journal.jsonl"
    s = Session.open(SessionConfig(checkpoint_seconds=0), str(path), 0.0)
    for rec in trace.records:
        if isinstance(rec, Frame):
            s.feed_frame(rec.t, rec.occupied)
            if any(c.name == "move" for c in s.take_cues()):
                moves = [r for r in read(path).records if r["k"] == "move"]
                assert len(moves) == s.game.ply
    s.advance(trace.records[-1].t + 2)
    assert s.game.ply == 4
    assert len([r for r in read(path).records if r["k"] == "move"]) == 4
    assert json.dumps(read(path).records[0]["position"])  # the start position is in the journal


def test_archiving_never_overwrites_a_kept_game(tmp_path):
    j, _ = Journal.open(tmp_path / "journal.jsonl")
    kept = []
    for n in range(3):  # after a reboot the monotonic time in the name can come round again
        j.append({"k": "tick", "n": n})
        kept.append(j.archive(tmp_path / "games", "game-12.000.jsonl"))
    j.close()
    assert [p.name for p in kept] == [
        "game-12.000.jsonl",
        "game-12.000-2.jsonl",
        "game-12.000-3.jsonl",
    ]
    assert [read(p).records[0]["n"] for p in kept] == [0, 1, 2]


def test_the_game_record_carries_each_moves_clock_times_and_a_resume_keeps_them(tmp_path):
    import re

    trace = game_trace(7, plies=30)
    path = tmp_path / "journal.jsonl"
    s, _ = _play_until(path, trace, trace.records[len(trace.records) // 2].t)
    record = s.export_pdn()
    stamps = re.findall(r"\[%clk (\d+:\d\d:\d\d)\]\s+\[%emt (\d+:\d\d:\d\d)\]", record)
    assert len(stamps) == s.game.ply > 3
    left = [
        int(h) * 3600 + int(m) * 60 + int(sec) for h, m, sec in (x[0].split(":") for x in stamps)
    ]
    assert left == sorted(left, reverse=True) and left[0] <= 1200  # the game clock runs down
    took = [int(m) * 60 + int(sec) for _, m, sec in (x[1].split(":") for x in stamps)]
    assert all(0 < x <= 60 for x in took)  # each move took some of its minute (rounded up)
    s.journal.close()

    r = Session.open(SessionConfig(checkpoint_seconds=0), str(path), 5000.0)
    assert r.export_pdn() == record  # resumed from the journal: the same record, times included

    r.feed_frame(5000.0, r.game.occupied())
    r.advance(5001.0)
    r.press(5001.0, "takeback")
    assert len(re.findall(r"\[%clk ", r.export_pdn())) == r.game.ply == len(stamps) - 1
