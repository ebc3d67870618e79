"""One reading of every journal record (``Session.apply``): play as it happens and the replay
of its journal arrive at the same game; a new game on the same board starts fresh without
losing what belongs to the board."""

from __future__ import annotations

from controller.record.journal_file import read
from controller.rules.game import Game
from controller.session import Session, SessionConfig

from .helpers import feed, game_trace

OPENING = Game.new("integer").occupied()
AFTER_FIRST = (OPENING - {(1, 2)}) | {(0, 3)}


def state(s: Session) -> tuple:
    return (
        s.game.ply,
        [str(m) for m in s.game.move_stack],
        s.totals(),
        s.paused,
        s.proxy,
        dict(s.info),
        s.play.json(),
        None if s.outcome is None else (s.outcome.reason, s.outcome.winner, s.outcome.points),
        s.move_clocks,
        list(s.rows),
    )


def test_a_replayed_journal_is_the_game_as_it_was_played(tmp_path):
    path = tmp_path / "journal.jsonl"
    live = Session.open(SessionConfig(checkpoint_seconds=5), str(path), 0.0, sync=False)
    t = feed(live, game_trace(5, plies=30).records)
    live.set_info(t, {"blue": "Ana", "event": "Cup"})
    live.press(t + 1, "pause")
    live.press(t + 2, "pause")
    live.press(t + 3, "takeback")
    live.press(t + 4, "pause")
    replayed = Session.replayed(read(path).records)
    assert live.game.ply > 10 and live.paused
    assert state(replayed) == state(live)
    assert replayed.phase == "restore"  # the chips must be seen where the game has them


def test_a_takeback_after_the_game_ended_resumes_the_game_not_the_tally():
    """An ending taken back (the arbiter's Takeback after no chips / no moves) is replayed as
    it was played: the game goes on from the move before."""
    move = {"k": "move", "t": 5.0, "ply": 0, "path": [[1, 2], [0, 3]], "game_ms": 5, "move_ms": 5}
    records = [
        {"k": "start", "variant": "integer", "rules": "official", "t": 0.0},
        {"k": "ready", "t": 1.0, "game_ms": 0, "move_ms": 0},
        move,
        {"k": "end", "t": 6.0, "reason": "no-moves", "side": 1, "game_ms": 6, "move_ms": 1},
        {"k": "takeback", "t": 7.0, "ply": 0, "game_ms": 7, "move_ms": 0},
    ]
    s = Session.replayed(records)
    assert s.game.ply == 0 and s.outcome is None and s.phase == "restore"
    s = Session.replayed([*records, {**move, "t": 8.0}])
    assert s.game.ply == 1 and s.outcome is None and s.phase == "restore"


def test_a_new_game_keeps_what_belongs_to_the_board(tmp_path):
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\n", encoding="utf-8")
    s = Session.open(SessionConfig(checkpoint_seconds=0), str(tmp_path / "journal.jsonl"), 0.0)
    s.feed_frame(0.0, OPENING)
    s.advance(1.0)
    s.feed_frame(5.0, AFTER_FIRST)
    s.advance(6.0)
    seq = s._cue_seq
    s.press(7.0, "new_game")
    s.press(7.1, "next")
    s.press(7.2, "confirm")  # abandon, new game
    assert s.phase == "setup" and s.game.ply == 0 and s.outcome is None
    assert s.roster == ("Ana Cruz", "Ben Reyes")  # the class list stays with the board
    assert s.board == frozenset(AFTER_FIRST)  # the chips as they stand
    assert s._cue_seq >= seq and s.journal is not None
    assert [r["k"] for r in read(tmp_path / "journal.jsonl").records] == ["start"]
