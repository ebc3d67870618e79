"""The issue's smaller openings (issue 27, item 11), against the real hub and Mosquitto: the
broker's ACL no longer warns at every start and reload (and the boards still read what they
must), the organiser's board list answers while the store is held by a writer, and the docs
name what a reader of the counters and the feeds needs."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from .conftest import ROOT, Board
from .eventkit import wait_for


def test_no_acl_warning_and_the_boards_still_hear_the_hub(hub, tmp_path, sample_moves):
    hub.start()
    board = Board("b1", tmp_path / "b1", hub.add_board("b1"))
    hub.add_board("b2")  # while the broker runs: it re-reads the ACL (SIGHUP)
    board.start_link()
    board.open_session()
    board.play.play_moves(sample_moves[:2], speed=60)
    board.wait_acked()
    wait_for("the hub's presence heard", lambda: board.link.status().hub_online)
    log = (hub.folder / "broker" / "mosquitto.log").read_text()
    assert "reloading" in log.lower() or "Reloading" in log, log[-2000:]
    assert "ACL pattern" not in log, [x for x in log.splitlines() if "ACL" in x]
    board.close()


def test_the_board_list_answers_while_a_writer_holds_the_store(hub, tmp_path, sample_moves):
    hub.start()
    board = Board("b1", tmp_path / "b1", hub.add_board("b1"))
    board.start_link()
    board.open_session()
    board.play.play_moves(sample_moves[:2], speed=60)
    board.wait_acked()
    other = sqlite3.connect(hub.folder / "hub.sqlite", timeout=30, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the store: the ingest waits
    try:
        board.play.play_moves(sample_moves[2:4], seed=2, speed=60)  # the ingest blocks on it
        wait_for("a batch waiting", lambda: board.link.status().unacked > 0)
        asked = time.monotonic()
        boards = hub.json("/api/boards")
        took = time.monotonic() - asked
        assert boards["boards"][0]["board"] == "b1"
        assert took < 3, f"/api/boards waited {took:.1f} s for the store's writer"
        assert hub.json("/api/problems")["rejected"] == []
    finally:
        other.execute("COMMIT")
        other.close()
    board.wait_acked()
    board.close()


def test_the_docs_name_the_counters_and_the_feeds_ply():
    mqtt = (ROOT / "docs" / "mqtt.md").read_text()
    for key in ("`rejected:<reason>`", "`duplicate`", "`out-of-order`", "`received`", "`stored`"):
        assert key in mqtt, key
    assert "`ply` of a feed's move counts from 1" in mqtt
    readme = (ROOT / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `damath-board hub --dir"))
    for option in ("--mqtt-port", "--mqtt-bind", "--http-host", "--rebuild"):
        assert option in row, option
    assert Path(ROOT / "docs" / "hall.md").read_text().count("A damaged store") >= 1
