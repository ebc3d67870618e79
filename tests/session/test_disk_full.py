"""A disk that refuses records (a real file-size limit): a move counts only once its record is
on the disk; the refusal is shown until the disk takes records again; the board asks for the
move again; nothing confirmed is ever lost, and a partial line never swallows a later record."""

from __future__ import annotations

import os

import pytest

from controller.record.journal_file import read
from controller.rules.game import Game
from controller.session import Session, SessionConfig, texts
from controller.session.journal import Journal, JournalError

from .diskfault import file_size_limit, play_move, set_board_as_shown
from .helpers import snapshot_at


def _records(path):
    return read(path).records


def test_a_short_write_is_cut_off_so_the_next_record_is_whole(tmp_path):
    path = tmp_path / "journal.jsonl"
    j, _ = Journal.open(path)
    for i in range(3):
        j.append({"k": "tick", "n": i})
    good = path.stat().st_size
    with file_size_limit(good + 60), pytest.raises(JournalError) as info:
        j.append({"k": "tick", "n": 3, "pad": "x" * 80})  # 60 of its ~120 bytes fit
    assert info.value.reason == "disk full"  # the kernel wrote 60 bytes: a short write
    assert path.stat().st_size == good  # the partial line was cut off at once
    with file_size_limit(good), pytest.raises(JournalError) as info:
        j.append({"k": "tick", "n": 3})
    assert info.value.reason == "file too large"  # EFBIG: nothing written
    j.append({"k": "tick", "n": 4})  # space again
    j.close()
    loaded = read(path)
    assert [r["n"] for r in loaded.records] == [0, 1, 2, 4]
    assert [r["seq"] for r in loaded.records] == [1, 2, 3, 4]  # seq counts durable records
    assert loaded.problems == []


def test_when_even_the_cut_fails_the_next_record_starts_on_its_own_line(tmp_path, monkeypatch):
    path = tmp_path / "journal.jsonl"
    j, _ = Journal.open(path)
    j.append({"k": "tick", "n": 0})
    good = path.stat().st_size

    def refuse(fd, size):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "ftruncate", refuse)
    with file_size_limit(good + 40), pytest.raises(JournalError):
        j.append({"k": "tick", "n": 1, "pad": "y" * 80})
    assert path.stat().st_size == good + 40  # the partial line is still there
    j.append({"k": "tick", "n": 2})
    j.close()
    monkeypatch.undo()
    loaded = read(path)
    assert [r["n"] for r in loaded.records] == [0, 2]  # not swallowed by the partial line
    assert "never counted" in loaded.problems[0] and "nothing was lost" in loaded.problems[0]
    assert loaded.breaks == {}


def test_a_record_written_again_replaces_the_one_that_never_counted(tmp_path):
    path = tmp_path / "journal.jsonl"
    from controller.record.journal_file import encode

    lines = [encode({"k": "tick", "n": n, "seq": seq}) for n, seq in
             ((0, 1), (1, 2), (2, 3), (9, 3), (3, 4))]  # fmt: skip
    path.write_bytes(b"".join(lines))
    loaded = read(path)
    assert [r["n"] for r in loaded.records] == [0, 1, 9, 3]
    assert loaded.breaks == {}


def _opening_session(path, **config):
    config.setdefault("checkpoint_seconds", 10)
    s = Session.open(SessionConfig(**config), str(path), 0.0)
    s.feed_frame(0.0, Game.new("integer").occupied())
    s.advance(1.0)
    assert s.phase == "play" and s.clocks.running
    s.take_cues()
    return s


def test_a_move_the_disk_refuses_is_not_confirmed_and_is_asked_again(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = _opening_session(path)
    first, second = Game.new("integer").legal_moves()[:2]
    size = path.stat().st_size
    with file_size_limit(size + 30):
        t = play_move(s, 2.0, first)
        assert s.game.ply == 0  # not on the disk: not played
        assert not any(c.name == "move" for c in s.take_cues())  # no confirmation
        assert s.phase == "restore" and not s.clocks.running
        assert snapshot_at(s, t)["message"] == "Not saved (disk full): put the move back"
        assert path.stat().st_size == size  # the partial record was cut off
        t = set_board_as_shown(s, t)
        assert s.phase == "play" and not s.clocks.running  # the clocks wait for the disk
        assert snapshot_at(s, t)["message"] == "Not saved (disk full): moves wait"
        for _ in range(5):  # time passes; the board keeps trying, and keeps saying so
            t += 1.0
            s.advance(t)
        assert s.message == "Not saved (disk full): moves wait"
        t = play_move(s, t, second)  # another try while still full: refused again
        assert s.game.ply == 0 and s.phase == "restore"
        t = set_board_as_shown(s, t)
    t += 1.0
    s.advance(t)  # the disk takes records again
    assert s.message == "Saved again: play the move again" and s.clocks.running
    t = play_move(s, t, first)
    assert s.game.ply == 1 and any(c.name == "move" for c in s.take_cues())
    s.journal.close()
    again = Session.open(SessionConfig(), str(path), t)
    assert again.game.ply == 1 and again.game.move_stack[0].path == first.path
    assert again.problems == []  # the failed writes left nothing behind


def test_a_pause_made_while_the_disk_is_full_is_written_once_it_frees(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = _opening_session(path)
    size = path.stat().st_size
    with file_size_limit(size):
        s.press(2.0, "pause")  # the arbiter's pause works at once...
        assert s.paused and not s.clocks.running
        assert "Not saved" in s.message
    assert [r["k"] for r in _records(path)][-1] != "pause"  # ...though not on the disk yet
    s.advance(3.5)
    assert [r["k"] for r in _records(path)][-2:] == ["pause", "tick"]
    assert s.message == texts.PAUSED.page
    s.journal.close()
    assert Session.open(SessionConfig(), str(path), 9.0).paused


def test_a_takeback_the_disk_refuses_changes_nothing(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = _opening_session(path)
    t = play_move(s, 2.0, Game.new("integer").legal_moves()[0])
    assert s.game.ply == 1
    with file_size_limit(path.stat().st_size):
        s.press(t, "takeback")
        assert s.game.ply == 1 and "Not saved" in s.message
    s.journal.close()
    assert Session.open(SessionConfig(), str(path), t).game.ply == 1


def test_a_journal_that_cannot_be_opened_does_not_stop_the_board(tmp_path):
    blocker = tmp_path / "boards"
    blocker.write_text("a file where the folder should be")  # refused even to root
    s = Session.open(SessionConfig(), str(blocker / "1" / "journal.jsonl"), 0.0)
    assert s.phase == "setup" and s.message == "Not saved (disk error): moves wait"
    assert any("cannot open the journal" in p for p in s.problems)
    s.feed_frame(0.0, Game.new("integer").occupied())
    s.advance(1.0)
    assert s.phase == "play" and not s.clocks.running  # the clocks wait for a journal


def test_a_directory_where_the_journal_should_be_is_moved_aside(tmp_path):
    path = tmp_path / "journal.jsonl"
    path.mkdir()
    (path / "keep.txt").write_text("whatever was here")
    s = Session.open(SessionConfig(), str(path), 0.0)
    assert "was not a file; moved it to" in s.problems[0]
    assert (tmp_path / "journal.jsonl.damaged-1" / "keep.txt").read_text() == "whatever was here"
    assert s.phase == "setup" and _records(path)[0]["k"] == "start"
