"""A damaged or lost store, and the hub rebuilt from the boards (issue 27, item 8), through the
real Mosquitto and the real hub: a round played by boards; the store deleted (its backups too),
emptied, given a damaged header or garbage in its WAL. The hub refuses to serve it, with the
recovery in one message and no traceback; ``hub --rebuild`` asks every board for all its games
again, and every game comes back, record for record the boards' own journals, filed under its
round as before."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from controller.hub.folder import sqlite_files
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament

from .conftest import DAMATH, assert_hub_equals_journals, stored_games
from .eventkit import MOVES, HallBoard, wait_for
from .test_event import cli

KINDS = {1: "blue", 2: "red-big"}


def feeds(hub) -> dict[tuple[str, str], tuple[int, str]]:
    """Every game the hub serves: its round and its PDN."""
    out = {}
    for g in hub.json("/feeds")["games"]:
        out[(g["board"], g["game"])] = (g["round"], hub.get(g["pdn"]).decode())
    return out


def play_a_round(hub, tmp_path) -> tuple[dict[str, HallBoard], Tournament]:
    hub.start()
    boards = {
        b: HallBoard.start(b, hub.add_board(b), tmp_path / "boards" / b)
        for b in ("b01", "b02", "b03")
    }
    t = Tournament.create(hub.folder, Event("Division Meet", initial_colour="blue"),
                          Division("open", "swiss", 2))  # fmt: skip
    for name in ("Ana Cruz", "Ben Lim", "Cara Diaz", "Dan Uy"):
        t.add_player(name)
    assert "2 tables have a board" in cli(hub, "seat", "--auto")
    t.pair(1)
    assert "round 1 sent to 2 board(s)" in cli(hub, "publish", "--round", "1", "--url", hub.url)
    from controller.tournament import boards as seating

    for p in t.pairings("open", 1):
        d = seating.dispatches(t)[p.id]
        boards[d.board].take_assignment(d.assignment)
    assert "round 1 started: 2 board(s) told" in cli(hub, "start", "--round", "1", "--url", hub.url)
    for p in t.pairings("open", 1):
        d = seating.dispatches(t)[p.id]
        boards[d.board].wait_started()
        boards[d.board].play_game(KINDS[p.table])
    boards["b01"].next_game()  # the board's next game, begun: live, not archived
    boards["b01"].play_some(3)
    boards["b03"].play_some(5)  # free play on the spare board: round 0
    for b in boards.values():
        b.wait_acked()
    return boards, t


def hub_command(hub, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [DAMATH, "hub", "--dir", str(hub.folder), "--http-host", "127.0.0.1",
         "--http-port", str(hub.http_port), "--mqtt-port", str(hub.mqtt_port),
         "--mqtt-bind", "127.0.0.1", *extra],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def refused(hub, words: str) -> str:
    r = hub_command(hub)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and words in r.stderr, r.stderr
    assert "--rebuild" in r.stderr and "docs/hall.md" in r.stderr
    return r.stderr


def rebuilt(hub, boards: dict[str, HallBoard]) -> None:
    """Until the hub holds every board's journal again, every record once."""
    hall = [b.link.link for b in boards.values()]

    def back() -> bool:
        try:
            assert_hub_equals_journals(hub.folder, [_Board(b) for b in boards.values()])
        except (AssertionError, KeyError):
            for link in hall:
                link.nudge()
            return False
        return True

    wait_for("every game back from the boards", back, timeout=180)


class _Board:
    """What assert_hub_equals_journals reads of a board."""

    def __init__(self, hall: HallBoard) -> None:
        self.board, self.folder, self.link = hall.board, hall.folder, hall.link.link


@pytest.mark.slow
def test_the_store_deleted_every_game_comes_back_from_the_boards(hub, tmp_path):
    boards, t = play_a_round(hub, tmp_path)
    try:
        before = feeds(hub)
        assert {r for r, _ in before.values()} == {0, 1}
        assert (hub.folder / "backups" / "hub-round-1.sqlite").exists()  # taken at publish
        hub.stop()
        for f in sqlite_files(hub.folder / "hub.sqlite"):
            f.unlink(missing_ok=True)
        shutil.rmtree(hub.folder / "backups")  # no backup either: the boards alone
        stderr = refused(hub, "is missing")
        assert "it held" in stderr
        hub.extra = ["--rebuild"]
        hub.start()
        rebuilt(hub, boards)
        after = feeds(hub)
        assert after == before  # the same games, their rounds, their PDN
        counters = {b["board"]: b["counters"] for b in hub.json("/api/boards")["boards"]}
        for board, n in counters.items():
            assert not n.get("rejected:conflict") and not n.get("rejected:games"), (board, n)
        # the request is done once: the hub started again does not get everything again
        stored = sum(len(g) for b in boards for g in stored_games(hub.folder, b).values())
        received = sum(n.get("received", 0) for n in _counters(hub).values())
        assert received >= stored
        hub.stop()
        hub.extra = []
        hub.start()
        boards["b03"].play.play_moves(MOVES[5:6])  # one more move: heard, and nothing else
        for b in boards.values():
            b.wait_acked()
        again = sum(n.get("received", 0) for n in _counters(hub).values()) - received
        assert again < stored // 2, (again, stored)
    finally:
        t.close()
        for b in boards.values():
            b.close()


def _counters(hub) -> dict[str, dict[str, int]]:
    return {b["board"]: b["counters"] for b in hub.json("/api/boards")["boards"]}


@pytest.mark.slow
def test_a_damaged_store_is_refused_and_rebuilt_from_its_backup_and_the_boards(hub, tmp_path):
    boards, t = play_a_round(hub, tmp_path)
    try:
        before = feeds(hub)
        wait_for("a backup", lambda: (hub.folder / "backups" / "hub-round-1.sqlite").exists())
        store = hub.folder / "hub.sqlite"
        hub.kill()  # what was committed is in the WAL, not yet in the file
        wal = store.with_name("hub.sqlite-wal")
        assert wal.stat().st_size > 0
        # garbage over the WAL: SQLite ignores it, and the store is back to its last
        # checkpoint without a word
        with open(wal, "r+b") as f:
            f.seek(0)
            f.write(b"\x00garbage" * 64)
        refused(hub, "(it held")  # its tables, or some of its records, gone
        # emptied to zero length
        store.write_bytes(b"")
        for f in sqlite_files(store)[1:]:
            f.unlink(missing_ok=True)
        refused(hub, "is empty")
        # a damaged header
        store.write_bytes(b"this is not SQLite" + b"\x00" * 4096)
        refused(hub, "cannot be read")
        hub.extra = ["--rebuild"]
        hub.start()
        rebuilt(hub, boards)
        assert feeds(hub) == before
        damaged = list((hub.folder / "damaged").glob("*/hub.sqlite"))
        assert len(damaged) == 1 and damaged[0].read_bytes().startswith(b"this is not")
        status = hub.json("/api/boards")["store"]
        total = sum(len(g) for b in boards for g in stored_games(hub.folder, b).values())
        assert 0 < status["rebuild"]["expected"]["records"] <= status["records"] == total
        marker = hub.folder / "hub.expect"  # what it holds, noted beside it within a second
        wait_for("the marker", lambda: json.loads(marker.read_text())["records"] == total)
    finally:
        t.close()
        for b in boards.values():
            b.close()
