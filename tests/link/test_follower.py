"""The link's view of a board's folder: a game keeps its id when the session archives it,
acknowledgements survive a restart, history from before the hub is not sent, a torn last line
waits, and a journal that changed under acknowledged records continues as a new game."""

from __future__ import annotations

import json

from controller.link.follower import Follower
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.record.journal_file import read

KEY = b"k" * 32
MOVES = sample_game_moves()[1]


def played(folder, n=6, finish=False):
    board = PlaybackBoard(folder, sync=False)
    board.play_moves(MOVES[:n])
    if finish:
        board.stop_game()
        board.new_game()
    board.close()
    return board


def test_ids_survive_archiving_and_restarts(tmp_path):
    follower = Follower(tmp_path, "b1", KEY)
    played(tmp_path, 6)
    (game,) = follower.scan()
    ident = game.tracked.id
    n = len(game.envelopes)
    assert follower.acknowledge(ident, n)
    follower.save()
    board = PlaybackBoard(tmp_path, sync=False)  # the board resumes, finishes, archives
    board.play_moves(MOVES[6:8], seed=2)
    board.stop_game()
    board.new_game()
    board.close()
    again = Follower(tmp_path, "b1", KEY)  # the link restarts
    games = again.scan()
    by_id = {g.tracked.id: g for g in games}
    assert ident in by_id and not by_id[ident].live
    assert by_id[ident].tracked.acked == n
    assert len(by_id[ident].envelopes) > n
    assert "games" in by_id[ident].tracked.path
    (new,) = [g for g in games if g.tracked.id != ident]
    assert new.live and new.records[0]["k"] == "start"
    again.acknowledge(ident, len(by_id[ident].envelopes))
    assert ident not in {g.tracked.id for g in again.scan()}  # archived and all at the hub


def test_games_from_before_the_hub_stay_on_the_board(tmp_path):
    played(tmp_path, 4, finish=True)  # a classroom game, archived before any hub
    follower = Follower(tmp_path, "b1", KEY)
    games = follower.scan()
    assert [g.live for g in games] == [True]


def test_a_torn_last_line_is_not_sent_yet(tmp_path):
    played(tmp_path, 3)
    path = tmp_path / "journal.jsonl"
    whole = len(read(path).records)
    with open(path, "ab") as f:
        f.write(b'0badc0de {"k":"mo')
    follower = Follower(tmp_path, "b1", KEY)
    (game,) = follower.scan()
    assert len(game.envelopes) == whole


def test_changed_acknowledged_records_fork_the_game(tmp_path):
    played(tmp_path, 6)
    follower = Follower(tmp_path, "b1", KEY)
    (game,) = follower.scan()
    follower.acknowledge(game.tracked.id, len(game.envelopes))
    path = tmp_path / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:4]) + b"\n")  # as a repair that kept four records
    (forked,) = follower.scan()
    assert forked.tracked.supersedes == game.tracked.id
    assert len(forked.envelopes) == 4 and forked.envelopes[0].seq == 1
    assert forked.envelopes[0].info["supersedes"] == game.tracked.id
    assert "continued as game" in follower.problems[-1]
    follower.save()
    state = json.loads((tmp_path / "link" / "state.json").read_text())
    kept = {g["id"]: g for g in state["games"]}
    assert kept[game.tracked.id]["done"] and not kept[forked.tracked.id]["done"]


def test_a_recorded_sensor_trace_played_on_a_board_is_sealed(tmp_path):
    """A trace recorded from a board (frames, buttons) goes through the board's session; its
    journal is what the link sends."""
    from pathlib import Path

    from controller.tracker.trace import read_trace

    name = "multi_capture_intermediate.jsonl"
    path = Path(__file__).resolve().parents[1] / "tracker" / "traces" / name
    trace = read_trace(path.read_text().splitlines())
    board = PlaybackBoard.from_trace(tmp_path, trace, sync=False)
    assert board.feed(trace.records)
    board.advance(2.0)
    board.close()
    records = read(tmp_path / "journal.jsonl").records
    assert [r["k"] for r in records][:2] == ["start", "ready"]
    moves = [r for r in records if r["k"] == "move"]
    assert moves and moves[0]["path"] == [list(s) for s in board.session.game.move_stack[0].path]
    (game,) = Follower(tmp_path, "b1", KEY).scan()
    assert [e.record for e in game.envelopes] == records
    assert [e.seq for e in game.envelopes] == list(range(1, len(records) + 1))


def test_a_new_game_id_is_on_the_disk_before_any_of_it_is_sent(tmp_path):
    """A power cut right after the first publish must find the same id again: otherwise the
    same game would reach the hub twice, under two ids."""
    follower = Follower(tmp_path, "b1", KEY)
    played(tmp_path, 2)
    (game,) = follower.scan()  # what the link publishes next
    again = Follower(tmp_path, "b1", KEY)  # the power went: nothing else was saved
    (same,) = again.scan()
    assert same.tracked.id == game.tracked.id
