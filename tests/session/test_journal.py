"""The journal: append + fsync, exact resume, a torn or damaged record dropped and reported."""

from __future__ import annotations

import json

import pytest

from controller.record.journal_file import decode, encode, read
from controller.session import Session, SessionConfig
from controller.session.journal import Journal
from controller.tracker.trace import Frame

from .helpers import feed, game_trace, snapshot_at


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


def test_a_flipped_byte_is_detected_every_good_record_kept_the_file_set_aside(tmp_path):
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
    assert [r["n"] for r in loaded.records] == [0, 1, 3, 4, 5]  # later checksums are right
    assert loaded.breaks == {2: 1}  # one confirmed record lost before the third kept
    assert "record 3 is damaged or missing" in loaded.problems[0]
    assert (tmp_path / "journal.jsonl.damaged-1").read_bytes() == bytes(data)


def test_garbage_instead_of_a_journal_still_starts_a_new_game(tmp_path):
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"\x00\xff not a journal at all\n")
    s = Session.open(SessionConfig(), str(path), 0.0)
    assert s.phase == "setup" and s.problems
    assert "damaged" in snapshot_at(s, 0.0)["message"]


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
    assert snapshot_at(r, 5000.0)["message"].startswith("Restart")
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


# ---------------------------------------------------------------------- forged and lost records


def _lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def _write_lines(path, lines):
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def _three_move_game(path):
    from controller.rules.game import Game

    from .diskfault import play_move

    s = Session.open(SessionConfig(checkpoint_seconds=0), str(path), 0.0)
    g = Game.new("integer")
    s.feed_frame(0.0, g.occupied())
    t = 1.0
    s.advance(t)
    for _ in range(3):
        t = play_move(s, t, s.game.legal_moves()[0])
    assert s.game.ply == 3
    return s, t


def test_a_forged_end_record_with_side_7_is_skipped_and_the_board_opens(tmp_path):
    path = tmp_path / "journal.jsonl"
    s, t = _three_move_game(path)
    s.journal.append({"k": "end", "t": t, "reason": "resign", "side": 7})  # a valid checksum
    s.journal.close()
    r = Session.open(SessionConfig(), str(path), t)
    assert r.game.ply == 3 and r.phase == "restore" and r.outcome is None
    assert any("side 7 does not exist; skipped it" in p for p in r.problems)


@pytest.mark.parametrize(
    "forged",
    [
        {"k": "move", "t": 1, "ply": 3, "path": [[99, 99], [1, 2]]},
        {"k": "move", "t": 1, "ply": "3", "path": [[1, 2], [0, 3]]},
        {"k": "end", "t": 1, "reason": "exploded"},
        {"k": "tick", "t": 1, "game_ms": -5, "move_ms": 0},
        {"k": "tick", "t": "soon"},
        {"k": "start", "t": 1},
        {"k": ["move"], "t": 1},
        # the players and event, and the practice helps, as only a forger writes them
        {"k": "info", "t": 1, "info": "Ana"},
        {"k": "info", "t": 1, "info": {"nickname": "x"}},
        {"k": "info", "t": 1, "info": {"blue": "a" * 500}},
        {"k": "info", "t": 1, "info": {"red": "Ben\u0007"}},
        {"k": "info", "t": 1, "info": {"event": ["x"]}},
        {"k": "play", "t": 1, "play": []},
        {"k": "play", "t": 1, "play": {"clocks": "sundial"}},
        {"k": "play", "t": 1, "play": {"practice": True}},  # practice comes with a new game
        {"k": "play", "t": 1, "play": {"capture_preview": True}},  # a help outside practice
        {"k": "play", "t": 1, "play": {"takeback": "players"}},
    ],
)
def test_impossible_records_are_skipped_never_obeyed(tmp_path, forged):
    path = tmp_path / "journal.jsonl"
    s, t = _three_move_game(path)
    s.journal.append(forged)
    s.journal.close()
    r = Session.open(SessionConfig(), str(path), t)
    assert r.game.ply == 3 and any("skipped it" in p for p in r.problems)
    assert r.info == {} and r.play == SessionConfig().play_settings()  # nothing obeyed


def test_the_players_names_and_practice_helps_the_board_wrote_are_resumed(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = Session.open(SessionConfig(play={"practice": True}), str(path), 0.0)
    s.set_info(0.5, {"blue": "Ana Cruz", "event": "Grade 8"})
    s.set_play(0.6, {"capture_preview": True, "takeback": "players"})
    s.journal.close()
    r = Session.open(SessionConfig(), str(path), 1.0)
    assert not r.problems, r.problems
    assert r.info == {"blue": "Ana Cruz", "event": "Grade 8"}
    assert r.play.preview and r.play.players_take_back


def test_an_empty_journal_says_nothing_was_saved_not_resumed(tmp_path):
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"")
    s = Session.open(SessionConfig(), str(path), 0.0)
    assert s.phase == "setup" and s.message.startswith("the journal was empty")


def test_a_lost_move_that_the_later_ones_cannot_prove_resumes_before_it(tmp_path):
    """Blue's first move lost, Red's reply kept: several Blue moves allow that reply, so none
    is proven; the game resumes at the opening and says so."""
    from controller.record.journal_file import encode

    path = tmp_path / "journal.jsonl"
    s, t = _three_move_game(path)
    s.journal.close()
    lines = _lines(path)
    moves = [i for i, line in enumerate(lines) if b'"k":"move"' in line]
    second = read(path).records[moves[1]]
    lines = [*lines[: moves[0]], encode(second)[:-1]]  # only Red's reply after the loss
    _write_lines(path, lines)
    r = Session.open(SessionConfig(), str(path), t)
    assert r.game.ply == 0
    assert any("does not fit the game" in p and "resumed before it" in p for p in r.problems)
    assert (tmp_path / "journal.jsonl.damaged-1").exists()


def test_a_lost_takeback_is_restored_when_the_later_moves_need_it(tmp_path):
    from .diskfault import play_move, set_board_as_shown

    path = tmp_path / "journal.jsonl"
    s, t = _three_move_game(path)
    s.press(t, "takeback")
    t = set_board_as_shown(s, t + 0.1)
    t = play_move(s, t, s.game.legal_moves()[-1])
    expected = [m.path for m in s.game.move_stack]
    s.journal.close()
    lines = _lines(path)
    lines = [line for line in lines if b'"k":"takeback"' not in line]
    _write_lines(path, lines)
    r = Session.open(SessionConfig(), str(path), t)
    assert [m.path for m in r.game.move_stack] == expected
    assert any("it can only have been a takeback" in p for p in r.problems)


def test_the_damaged_copy_is_synced_before_the_journal_is_rewritten(tmp_path, monkeypatch):
    import os

    path = tmp_path / "journal.jsonl"
    j, _ = Journal.open(path)
    for i in range(4):
        j.append({"k": "tick", "n": i})
    j.close()
    data = bytearray(path.read_bytes())
    data[30] ^= 0x01
    path.write_bytes(bytes(data))
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(a, b):
        events.append(("replace", str(b)))
        return real_replace(a, b)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    j, loaded = Journal.open(path)
    j.close()
    aside = loaded.saved_as
    assert aside is not None
    synced_copy = events.index(("fsync", aside))
    assert synced_copy < events.index(("replace", str(path)))
