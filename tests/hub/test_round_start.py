"""A tournament's clocks wait for the round's start, through the real broker and the real hub
(issue 26, item 1): a board of a hub that runs a tournament holds its game's clocks before any
round is sent (and puts back the time its clocks ran before it knew), holds them for the desk's
start once its table arrives, survives a SIGKILL before the start with its clocks still full,
and starts when the arbiter's start reaches it over the link's command topic, journaled."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from controller.record.journal_file import read as read_journal
from controller.tournament import boards as seating
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament

from .eventkit import HallBoard, api, wait_for

FULL = (20 * 60, 60)


def clocks(b: HallBoard) -> tuple[float, float]:
    r = b.play.session.clocks.reading(b.play.t)
    return r.game_left, r.move_left


def kinds(folder: Path) -> list[str]:
    return [r["k"] for r in read_journal(folder / "journal.jsonl").records]


def held_board(conn: str, folder: str, ready: multiprocessing.synchronize.Event) -> None:
    """A board's life until the power goes: its table on the board, chips set up, the hall
    waiting ten minutes of board time; then it waits to be killed."""
    b = HallBoard.start("b01", Path(conn), Path(folder))
    a = wait_for("the table", b.assignment)
    b.take_assignment(a)
    b.play.play_moves([])
    for _ in range(20):
        b.play.advance(30, step=5)
        b.step()
    ready.set()
    signal.pause()


@pytest.mark.slow
def test_the_clocks_wait_for_the_start_through_a_power_cut(hub, tmp_path):
    hub.start()
    conn = hub.add_board("b01")
    hub.add_board("b02")
    folder = tmp_path / "b01"
    b = HallBoard.start("b01", conn, folder)
    b.play.play_moves([])  # the chips set up before the hub runs a tournament
    b.play.advance(40, step=5)
    b.step()
    assert b.play.session.state.held is None and b.play.session.clocks.running
    assert clocks(b)[0] < FULL[0]

    t = Tournament.create(hub.folder, Event("Cup", initial_colour="blue"),
                          Division("open", "swiss", 2))  # fmt: skip
    for name in ("Ana", "Ben", "Cid", "Dee"):
        t.add_player(name)

    def holding() -> bool:
        b.step()
        return b.play.session.state.held == "round"

    wait_for("the hub's tournament reaching the board", holding)
    assert clocks(b) == FULL and not b.play.session.clocks.running  # the 40 s given back
    assert b.link.link.tournament() and (folder / "link" / "tournament").read_text() == "yes"
    b.close()

    seating.auto_seats(t, ["b01", "b02"])
    t.pair(1)
    api(hub, "/api/event/publish", {"round": 1})
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    child = ctx.Process(target=held_board, args=(str(conn), str(folder), ready))
    child.start()
    assert ready.wait(60), "the board did not get its table"
    os.kill(child.pid, signal.SIGKILL)  # the power goes before the start
    child.join()
    journal = kinds(folder)
    assert journal.count("hold") == 2 and "go" not in journal  # round, then the desk's start

    b = HallBoard.start("b01", conn, folder)  # the power comes back
    s = b.play.session
    assert s.state.held == "desk" and clocks(b) == FULL
    b.play.restore()
    b.step()
    b.play.advance(120, step=5)
    assert s.phase == "play" and clocks(b) == FULL and not s.clocks.running
    assert api(hub, "/api/event/start", {"round": 1})["started"] == [
        {"table": 1, "board": "b01"},
        {"table": 2, "board": "b02"},
    ]
    b.wait_started()
    assert s.clocks.running and s.state.started_by == "desk"
    records = read_journal(folder / "journal.jsonl").records
    (go,) = [r for r in records if r["k"] == "go"]
    assert go["by"] == "desk" and go["asg"] == seating.dispatches(t)[t.pairing(1, 1).id].assignment
    b.wait_acked()
    wait_for(
        "table 1 started at the desk",
        lambda: api(hub, "/api/event/round", {"round": 1})["tables"][0]["status"] == "started",
    )
    start_logged = [x for x in t.log() if x["action"] == "round-start"]
    assert start_logged and start_logged[0]["detail"]["round"] == 1
    b.close()
    t.close()


def test_a_start_before_the_round_is_sent_is_refused(hub):
    hub.start()
    hub.add_board("b01")
    t = Tournament.create(hub.folder, Event("Cup", initial_colour="blue"),
                          Division("open", "swiss", 2))  # fmt: skip
    for name in ("Ana", "Ben"):
        t.add_player(name)
    seating.auto_seats(t, ["b01"])
    t.pair(1)
    with pytest.raises(AssertionError, match="send the round to the boards first"):
        api(hub, "/api/event/start", {"round": 1})
    t.close()
