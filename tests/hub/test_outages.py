"""Several boards play through a real Mosquitto to the real hub while things fail: the broker
is killed mid-round (the hub's supervisor restarts it), one board's network is cut for a long
stretch and comes back, one board loses its power mid-game and resumes from its journal. At
the end every game in the hub is its board's journal, every record once, in order, and each
game's PDN from the hub's feed is the board's own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from controller.link.protocol import RECORDS

from .conftest import ROOT, Board, assert_hub_equals_journals, journal_total, stored_games
from .netcut import NetCut

HUNG = 120.0
"""A bound, never a pace: how long a wait for something the test needs may take."""


@pytest.mark.slow
def test_boards_outages_everything_once_in_order(hub, tmp_path, sample_moves):
    hub.start()
    cut = NetCut(hub.mqtt_port)
    # b3 reaches the broker through a line the test can cut (its Wi-Fi)
    ports = {"b1": None, "b2": None, "b3": cut.port}
    boards = [
        Board(name, tmp_path / name, hub.add_board(name, port=port)) for name, port in ports.items()
    ]
    for b in boards:
        b.start_link()
        b.open_session()

    def play(b: Board, first: int, last: int) -> None:
        b.play.play_moves(sample_moves[first:last], seed=first, speed=40)

    # first part of the round: all three play 12 moves
    threads = [threading.Thread(target=play, args=(b, 0, 12)) for b in boards]
    for t in threads:
        t.start()
    # the broker dies mid-round: once the hub has stored records of every board (the round is
    # flowing through the broker, however loaded the machine; the bound only ends a hung test)
    deadline = time.monotonic() + HUNG
    while not all(stored_games(hub.folder, b.board) for b in boards):
        assert time.monotonic() < deadline, "the hub stored nothing of some board"
        time.sleep(0.05)
    os.kill(hub.broker_pid(), signal.SIGKILL)
    for t in threads:
        t.join()
    # b3's Wi-Fi goes; the others and b3 itself play on (the board never waits)
    cut.cut()
    threads = [threading.Thread(target=play, args=(b, 12, 40)) for b in boards]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for b in boards[:2]:
        b.wait_acked()
    assert not boards[2].link.status().connected
    before = stored_games(hub.folder, "b3")
    (game,) = before
    assert len(before[game]) < 40, "b3 could not have sent its moves while cut off"
    cut.restore()
    for b in boards:
        b.play.play_moves(sample_moves[40:], seed=40, speed=40)
        b.play.stop_game()
        b.play.new_game()  # the game is archived; the next one begins
    for b in boards:
        b.wait_acked()
    moves = assert_hub_equals_journals(hub.folder, boards)
    assert moves == 3 * len(sample_moves)
    status = hub.json("/api/boards")
    assert status["broker"]["restarts"] >= 1
    for b in boards:
        feed = hub.json("/feeds")
        (row,) = [g for g in feed["games"] if g["board"] == b.board and g["round"] == 0][:1]
        pdn = hub.get(row["pdn"]).decode()
        assert "1." in pdn
    # the finished games' PDN equal the boards' own records of them
    for b in boards:
        games = [g for g in hub.json("/feeds")["games"] if g["board"] == b.board]
        texts = {hub.get(g["pdn"]).decode() for g in games}
        archived = sorted((b.folder / "games").glob("*.jsonl"))
        assert archived, "the finished game was archived by the session"
        from controller.link.gamestate import rebuild
        from controller.record.journal_file import read

        board_pdn = rebuild(read(archived[-1]).records).pdn()
        assert board_pdn in texts
    for b in boards:
        b.close()
    cut.close()


@pytest.mark.slow
def test_board_power_cut_resumes_and_resends(hub, tmp_path, sample_moves):
    """A board killed hard mid-game (no goodbye, link state as it was) comes back, resumes its
    game from the journal, and the hub ends with the whole game once."""
    hub.start()
    folder = tmp_path / "board"
    conn = hub.add_board("p1")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tests.hub.boardproc", str(folder), str(conn), "--speed", "30"]
    journal = folder / "journal.jsonl"

    def journaled() -> int:  # moves in the journal
        return journal.read_text().count('"k":"move"') if journal.exists() else 0

    for cut_after in (2, 3):
        # the power goes mid-game: once this life has journaled moves of its own (a count, not
        # a time: a loaded machine may take seconds only to start the process)
        before = journaled()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + HUNG
        while journaled() < before + cut_after and proc.poll() is None:
            assert time.monotonic() < deadline, f"the board journaled no move: {journaled()}"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)  # the power goes
        proc.wait()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert "done" in proc.stdout, proc.stdout + proc.stderr
    assert "resumed at ply 0" not in proc.stdout, "the board resumed its game"
    board = Board("p1", folder, conn)
    moves = assert_hub_equals_journals(hub.folder, [board])
    assert moves == len(sample_moves)


@pytest.mark.slow
def test_records_the_broker_lost_are_resent(hub, tmp_path, sample_moves):
    """The broker acknowledged records to the board, then lost them before the hub had them
    (the hub frozen, the broker killed without saving): only the board's link knows, and it
    sends them again once the hub is back, from what the hub acknowledged."""
    hub.start()
    board = Board("l1", tmp_path / "l1", hub.add_board("l1"))
    board.start_link(resend_seconds=30.0)  # the resend timer stays out of this
    board.open_session()
    board.play.play_moves(sample_moves[:4], speed=50)
    board.wait_acked()
    # what the broker acknowledges (PUBACK) of the records the link publishes from now on
    published: set[int] = set()
    acked: set[int] = set()
    client = board.link.client
    publish = client.publish

    def recording_publish(topic, *args, **kw):
        info = publish(topic, *args, **kw)
        if topic.endswith("/" + RECORDS):
            published.add(info.mid)
        return info

    client.publish = recording_publish
    client.on_publish = lambda _c, _u, mid, _rc, _p: acked.add(mid)
    to_send = journal_total(board.folder)
    hub.proc.send_signal(signal.SIGSTOP)  # the hub hangs, its connection still open
    try:
        board.play.play_moves(sample_moves[4:10], seed=4, speed=50)
        # until the broker has acknowledged them to the board (the bound only ends a hung test)
        to_send = journal_total(board.folder) - to_send
        deadline = time.monotonic() + HUNG
        while len(published & acked) < to_send:
            assert time.monotonic() < deadline, f"acknowledged {len(published & acked)}"
            time.sleep(0.05)
        os.kill(hub.broker_pid(), signal.SIGKILL)  # and loses them
    finally:
        hub.kill()
    stored = sum(len(g) for g in stored_games(hub.folder, "l1").values())
    hub.start()
    board.wait_acked(timeout=30)
    assert sum(len(g) for g in stored_games(hub.folder, "l1").values()) > stored
    assert assert_hub_equals_journals(hub.folder, [board]) == 10
    board.close()
