"""A full disk under the running hub (issue 27, item 10): the hub's files may not grow (the
process's file-size limit, as a full disk refuses to grow them; its broker's too), a board plays
on meanwhile. The hub says once that its store cannot be written and once that it can again
(not a traceback per batch), acknowledges nothing it has not stored, and when the disk has room
again every record the board played is stored once."""

from __future__ import annotations

import resource

from .conftest import Board, assert_hub_equals_journals
from .eventkit import wait_for

UNLIMITED = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)


def test_a_full_disk_is_said_once_and_nothing_is_lost(hub, tmp_path, sample_moves):
    hub.start()
    board = Board("b1", tmp_path / "b1", hub.add_board("b1"))
    board.start_link()
    board.open_session()
    board.play.play_moves(sample_moves[:2], speed=60)
    board.wait_acked()
    processes = [hub.proc.pid, hub.broker_pid()]
    biggest = max(f.stat().st_size for f in hub.folder.rglob("*") if f.is_file())
    for pid in processes:  # from now on no file of theirs may grow: the disk is full
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (biggest, resource.RLIM_INFINITY))
    acked = board.link.status()
    for ply, move in enumerate(sample_moves[2:20], start=3):  # the board plays on
        board.play.play_moves([move], seed=ply, speed=60)
    wait_for("the store full", lambda: "cannot be written" in log(hub))
    wait_for("a few failed batches", lambda: hub.json("/api/boards")["store"]["problem"])
    assert board.link.status().unacked > 0, (acked, board.link.status())
    for pid in processes:  # room again
        resource.prlimit(pid, resource.RLIMIT_FSIZE, UNLIMITED)
    board.wait_acked(timeout=120)
    assert assert_hub_equals_journals(hub.folder, [board]) == 20
    wait_for("the store written", lambda: "written again" in log(hub))
    text = log(hub)
    assert "Traceback" not in text, text[-3000:]
    assert text.count("the store cannot be written") == 1, text
    assert text.count("the store is written again") == 1, text
    assert len(text.splitlines()) < 20, text
    assert hub.json("/api/boards")["store"]["problem"] == ""
    board.close()


def log(hub) -> str:
    return (hub.folder / "hub.log").read_text()
