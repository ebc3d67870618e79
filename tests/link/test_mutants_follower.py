"""The link's view of a board's folder, where mutation testing found slips the first tests let
through (bench/mutation.sh link-follower): one follower living through a game (records appended,
the file archived, rewritten after damage, replaced, deleted), what it writes to its state file
and when, the acknowledgements it keeps, the forks it makes and what they say. Journals are
written here from a real game's records, so each case is exactly the files it names."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time

import pytest

from controller.link import follower as follower_module
from controller.link.follower import Follower, first_hash, new_game_id
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.protocol import GENESIS
from controller.record.journal_file import encode, read

KEY = b"k" * 32


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A real game's journal records: start, ready and six moves."""
    folder = tmp_path_factory.mktemp("source")
    board = PlaybackBoard(folder, sync=False)
    board.play_moves(sample_game_moves()[1][:6])
    board.close()
    out = read(folder / "journal.jsonl").records
    assert len(out) >= 8 and out[0]["k"] == "start"
    return out


def another(records):
    """Another game: the same records after a start record of its own."""
    return [{**records[0], "t": records[0]["t"] + 1000}, *records[1:]]


def write(path, recs) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(encode(r) for r in recs))


def append(path, recs) -> None:
    with open(path, "ab") as f:
        f.write(b"".join(encode(r) for r in recs))


def state(folder) -> dict:
    return json.loads((folder / "link" / "state.json").read_text())


def inode(path) -> int:
    return path.stat().st_ino  # to tell two files apart while both exist


# ---------------------------------------------------------------------------- ids


def test_a_game_id_is_the_utc_time_and_six_hex_digits():
    assert re.fullmatch(r"19700102-030405-[0-9a-f]{6}", new_game_id(86400 + 3 * 3600 + 4 * 60 + 5))
    before = time.strftime("%Y%m%d", time.gmtime())
    now = new_game_id()
    assert re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{6}", now)
    assert now[:8] in (before, time.strftime("%Y%m%d", time.gmtime()))
    assert new_game_id(0) != new_game_id(0)


def test_a_game_is_known_by_the_hash_of_its_first_record(records):
    text = json.dumps(records[0], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert first_hash(records[0]) == hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------------- one game, followed


def test_records_appended_are_sealed_in_order_and_the_file_is_read_only_when_it_changes(
    tmp_path, records, monkeypatch
):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:3])
    reads: list[str] = []
    real = follower_module.read_journal
    monkeypatch.setattr(follower_module, "read_journal", lambda p: reads.append(str(p)) or real(p))
    f = Follower(tmp_path, "b1", KEY, assignment=lambda: "asg-1")
    (game,) = f.scan()
    assert [e.seq for e in game.envelopes] == [1, 2, 3] and game.live
    assert game.tracked.path == str(journal)
    assert (game.tracked.dev, game.tracked.ino) == (journal.stat().st_dev, inode(journal))
    assert [e.asg for e in game.envelopes] == ["asg-1"] * 3
    assert "supersedes" not in game.envelopes[0].info
    assert f.live_game() is game
    assert len(reads) == 1
    (same,) = f.scan()  # nothing changed: not read again, still the live game
    assert same is game and same.live and f.live_game() is game and len(reads) == 1
    append(journal, records[3:6])
    (game,) = f.scan()
    assert len(reads) == 2
    assert [e.record for e in game.envelopes] == records[:6]
    assert [e.prev for e in game.envelopes[1:]] == [e.hash for e in game.envelopes[:-1]]


def test_records_sealed_keep_their_assignment_when_it_changes_later(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:3])
    assignment = ["asg-1"]
    f = Follower(tmp_path, "b1", KEY, assignment=lambda: assignment[0])
    (game,) = f.scan()
    assert f.acknowledge(game.tracked.id, 3)
    assignment[0] = "asg-2"
    os.utime(journal, ns=(1, 1))  # touched, nothing new: no fork, nothing sealed again
    (game,) = f.scan()
    assert [e.asg for e in game.envelopes] == ["asg-1"] * 3 and f.problems == []
    append(journal, records[3:5])
    (game,) = f.scan()
    assert [e.asg for e in game.envelopes] == ["asg-1"] * 3 + ["asg-2"] * 2
    assert f.problems == [] and game.tracked.supersedes is None


def test_an_archived_game_keeps_its_id_and_its_new_path(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:4])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    ident = game.tracked.id
    (tmp_path / "games").mkdir()
    archived = tmp_path / "games" / "game-1.jsonl"
    os.rename(journal, archived)  # the session archives the finished game: same file
    (game,) = f.scan()
    assert game.tracked.id == ident and game.tracked.path == str(archived) and not game.live
    assert f.live_game() is None
    f.save()
    assert [g["path"] for g in state(tmp_path)["games"]] == [str(archived)]
    # archived and changed at once (the end record written, then moved)
    write(journal, another(records)[:2])
    append(archived, records[4:5])
    os.rename(archived, tmp_path / "games" / "game-1b.jsonl")
    games = f.scan()
    assert [g.tracked.path for g in games] == [
        str(tmp_path / "games" / "game-1b.jsonl"),
        str(journal),
    ]
    assert games[0].tracked.id == ident and len(games[0].envelopes) == 5


def test_a_game_archived_and_all_at_the_hub_is_done_for_good(tmp_path, records):
    games = tmp_path / "games"
    f = Follower(tmp_path, "b1", KEY)
    write(games / "a.jsonl", records[:3])
    write(games / "b.jsonl", another(records)[:4])
    write(tmp_path / "journal.jsonl", another(another(records))[:2])
    a, b, live = f.scan()
    assert [len(g.envelopes) for g in (a, b, live)] == [3, 4, 2]
    assert f.acknowledge(a.tracked.id, 3)
    assert [g.tracked.id for g in f.scan()] == [b.tracked.id, live.tracked.id]
    for _ in range(2):  # and stays so: never seen again as a new game
        games_now = f.scan()
        assert [g.tracked.id for g in games_now] == [b.tracked.id, live.tracked.id]
        assert [g.live for g in games_now] == [False, True]
    assert [g.id for g in f.games if g.done] == [a.tracked.id]
    f.save()  # (the link saves once a second)
    again = Follower(tmp_path, "b1", KEY)  # after a restart too
    assert [g.tracked.id for g in again.scan()] == [b.tracked.id, live.tracked.id]


def test_the_state_is_written_when_something_changed_and_only_then(tmp_path, records, monkeypatch):
    write(tmp_path / "journal.jsonl", records[:3])
    path = tmp_path / "link" / "state.json"
    writes: list[str] = []
    replace = os.replace

    def counting(src, dst):
        writes.append(str(dst))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", counting)
    f = Follower(tmp_path, "b1", KEY)  # a first start: written
    assert writes == [str(path)]
    (game,) = f.scan()  # a new id: on the disk at once
    assert writes == [str(path)] * 2
    assert [g["id"] for g in state(tmp_path)["games"]] == [game.tracked.id]
    f.scan()
    f.save()
    assert len(writes) == 2  # nothing new: nothing written
    assert f.acknowledge(game.tracked.id, 2)
    f.save()
    assert len(writes) == 3
    text = path.read_text()
    assert text == json.dumps(json.loads(text), separators=(",", ":"))  # compact
    assert not path.with_name("state.json.tmp").exists()
    g = state(tmp_path)["games"][0]
    assert (g["acked"], g["acked_hash"]) == (2, game.envelopes[1].hash)
    again = Follower(tmp_path, "b1", KEY)  # a restart reads it and writes nothing
    again.scan()
    again.save()
    assert again.problems == [] and len(writes) == 3
    assert again.games[0].acked == 2


def test_a_state_file_of_its_own_choosing_in_a_new_folder(tmp_path, records):
    write(tmp_path / "board" / "journal.jsonl", records[:2])
    path = tmp_path / "elsewhere" / "deep" / "link.json"
    f = Follower(tmp_path / "board", "b1", KEY, state_path=path)
    (game,) = f.scan()
    assert json.loads(path.read_text())["games"][0]["id"] == game.tracked.id
    assert not (tmp_path / "board" / "link").exists()


@pytest.mark.parametrize(
    "content",
    [
        {"v": 1, "board": "b2", "games": [], "skip": []},
        {"v": 2, "board": "b1", "games": [], "skip": []},
    ],
)
def test_a_state_file_of_another_board_or_version_is_not_used(tmp_path, content):
    path = tmp_path / "link" / "state.json"
    path.parent.mkdir()
    path.write_text(json.dumps(content))
    f = Follower(tmp_path, "b1", KEY)
    assert f.problems == [
        f"{path}: unreadable (written for another board or version); starting afresh"
    ]
    assert state(tmp_path)["board"] == "b1" and state(tmp_path)["v"] == 1


def test_games_from_before_the_hub_stay_skipped_after_a_restart(tmp_path, records):
    games = tmp_path / "games"
    write(games / "a-before.jsonl", records[:3])  # played before the board joined a hub
    Follower(tmp_path, "b1", KEY)
    write(games / "b-after.jsonl", another(records)[:4])  # archived since
    f = Follower(tmp_path, "b1", KEY)  # a restart: the skip list read back
    assert f.problems == []
    (game,) = f.scan()  # no live journal at all: the archive alone
    assert game.tracked.path == str(games / "b-after.jsonl") and not game.live


def test_an_unreadable_file_in_the_archive_does_not_hide_the_next(tmp_path, records):
    games = tmp_path / "games"
    games.mkdir()
    (games / "a-gone.jsonl").symlink_to(tmp_path / "nowhere")
    f = Follower(tmp_path, "b1", KEY)
    write(games / "b.jsonl", records[:3])
    (game,) = f.scan()
    assert game.tracked.path == str(games / "b.jsonl")


def test_a_journal_rewritten_after_damage_is_the_same_game(tmp_path, records, monkeypatch):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:5])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    ident, old = game.tracked.id, inode(journal)
    f.acknowledge(ident, 3)
    new = tmp_path / "journal.new"
    write(new, records[:5])
    os.replace(new, journal)  # the session rewrote it: another file, the same records
    assert inode(journal) != old
    (game,) = f.scan()
    assert game.tracked.id == ident and f.problems == [] and game.tracked.acked == 3
    assert (game.tracked.ino, game.tracked.path) == (inode(journal), str(journal))
    reads: list[str] = []
    real = follower_module.read_journal
    monkeypatch.setattr(follower_module, "read_journal", lambda p: reads.append(str(p)) or real(p))
    f.scan()
    assert reads == []  # known by its new inode from now on


def test_a_file_that_now_holds_another_game_ends_the_first(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:3])
    f = Follower(tmp_path, "b1", KEY)
    (first,) = f.scan()
    with open(journal, "r+b") as fh:  # the same file (inode) now holds another game
        fh.truncate(0)
        fh.write(b"".join(encode(r) for r in another(records)[:2]))
    (second,) = f.scan()
    assert second.tracked.id != first.tracked.id and len(second.envelopes) == 2
    assert [g.id for g in f.games if g.done] == [first.tracked.id]


def test_a_deleted_journal_leaves_its_game_waiting_and_not_live(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:3])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    journal.unlink()
    (game,) = f.scan()
    assert not game.live and f.live_game() is None and len(game.envelopes) == 3


# ---------------------------------------------------------------- acknowledgements and forks


def test_acknowledgements_name_their_game(tmp_path, records):
    games = tmp_path / "games"
    f = Follower(tmp_path, "b1", KEY)
    write(games / "a.jsonl", records[:3])
    write(tmp_path / "journal.jsonl", another(records)[:4])
    a, b = f.scan()
    assert f.acknowledge(b.tracked.id, 2)
    assert (a.tracked.acked, b.tracked.acked) == (0, 2)
    assert f.acknowledge(b.tracked.id, 2) is False  # nothing changed
    assert f.acknowledge(b.tracked.id, 5) is False  # beyond what was sealed
    assert f.acknowledge("nope", 1) is False
    assert f.acknowledge(b.tracked.id, 0)  # the hub lost its store: everything again
    assert (b.tracked.acked, b.tracked.acked_hash) == (0, GENESIS)
    assert f.acknowledge(a.tracked.id, 3)
    f.scan()  # archived and all at the hub: done
    assert f.acknowledge(a.tracked.id, 2) is False  # nothing to change any more


def test_all_acknowledged_and_touched_is_not_a_change(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:4])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    f.acknowledge(game.tracked.id, 4)
    os.utime(journal, ns=(5, 5))
    (again,) = f.scan()
    assert again.tracked.id == game.tracked.id and f.problems == []


def test_changed_acknowledged_records_fork_with_a_message_naming_both(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:6])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    f.acknowledge(game.tracked.id, 5)
    write(journal, [*records[:4], {**records[4], "t": 99.0}])  # a repair changed record 5
    (forked,) = f.scan()
    old = game.tracked
    assert f.problems == [
        f"game {old.id}: the journal changed under acknowledged records; "
        f"continued as game {forked.tracked.id}"
    ]
    new = forked.tracked
    assert (new.dev, new.ino, new.first, new.path) == (old.dev, old.ino, old.first, old.path)
    assert (
        new.supersedes == old.id and old.done and re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{6}", new.id)
    )
    assert [e.info.get("supersedes") for e in forked.envelopes] == [old.id] + [None] * 4


def test_a_conflict_the_hub_reports_continues_the_game_under_a_new_id(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:4])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    f.conflict("another-game")  # not this board's: nothing happens
    assert f.problems == []
    f.conflict(game.tracked.id)
    (forked,) = f.scan()
    assert forked.tracked.supersedes == game.tracked.id and game.tracked.done
    assert [e.record for e in forked.envelopes] == records[:4]
    assert forked.envelopes[0].info["supersedes"] == game.tracked.id
    assert f.problems == [
        f"game {game.tracked.id}: the hub holds records the journal no longer has; "
        f"continued as game {forked.tracked.id}"
    ]
    assert f.live_game() is forked
    # the new id is on the disk before anything of it is sent
    assert forked.tracked.id in [g["id"] for g in state(tmp_path)["games"]]
    f.conflict(game.tracked.id)  # done already: nothing more
    assert len(f.problems) == 1


def test_an_empty_file_in_the_archive_does_not_hide_the_next(tmp_path, records):
    f = Follower(tmp_path, "b1", KEY)
    write(tmp_path / "games" / "a-empty.jsonl", [])
    write(tmp_path / "games" / "b.jsonl", records[:3])
    write(tmp_path / "journal.jsonl", another(records)[:2])
    assert [(g.tracked.path, g.live) for g in f.scan()] == [
        (str(tmp_path / "games" / "b.jsonl"), False),
        (str(tmp_path / "journal.jsonl"), True),
    ]


def test_after_a_restart_a_game_whose_file_is_gone_does_not_hide_the_next(tmp_path, records):
    games = tmp_path / "games"
    f = Follower(tmp_path, "b1", KEY)
    write(games / "a.jsonl", records[:3])
    write(games / "b.jsonl", another(records)[:3])
    _, b = f.scan()
    f.save()
    (games / "a.jsonl").unlink()
    again = Follower(tmp_path, "b1", KEY)
    assert [g.tracked.id for g in again.scan()] == [b.tracked.id]


def test_an_archived_game_changed_and_moved_at_once_is_saved_with_its_new_path(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:4])
    f = Follower(tmp_path, "b1", KEY)
    f.scan()  # saved: a new id
    append(journal, records[4:5])
    moved = tmp_path / "games" / "g.jsonl"
    moved.parent.mkdir()
    os.rename(journal, moved)
    f.scan()
    f.save()
    assert [g["path"] for g in state(tmp_path)["games"]] == [str(moved)]


def test_a_rewritten_journal_is_saved_under_its_new_file(tmp_path, records):
    journal = tmp_path / "journal.jsonl"
    write(journal, records[:4])
    f = Follower(tmp_path, "b1", KEY)
    f.scan()
    new = tmp_path / "journal.new"
    write(new, records[:4])
    os.replace(new, journal)
    f.scan()
    f.save()
    (g,) = state(tmp_path)["games"]
    assert (g["ino"], g["path"]) == (inode(journal), str(journal))


def test_a_conflict_right_after_a_restart_before_any_scan(tmp_path, records):
    write(tmp_path / "journal.jsonl", records[:3])
    f = Follower(tmp_path, "b1", KEY)
    (game,) = f.scan()
    f.save()
    again = Follower(tmp_path, "b1", KEY)
    again.conflict(game.tracked.id)  # the hub's answer came before the first scan
    (forked,) = again.scan()
    assert forked.tracked.supersedes == game.tracked.id
    assert [e.record for e in forked.envelopes] == records[:3]
