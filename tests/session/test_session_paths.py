"""The session's less travelled paths, on real journal files: the next game after one ends,
abandon and adjudication from the menus, archiving, every way a journal resumes (or cannot),
and a disk that refuses to write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.record.journal_file import encode, read
from controller.rules.game import Game
from controller.rules.move import BLUE, RED
from controller.session import Session, SessionConfig, texts
from controller.session.journal import Journal

OPENING = Game.new("integer").occupied()
AFTER_FIRST = (OPENING - {(1, 2)}) | {(0, 3)}


def opened(path: Path, t: float = 0.0, **config) -> Session:
    config.setdefault("checkpoint_seconds", 0)
    return Session.open(SessionConfig(**config), str(path), t, sync=False)


def one_move(path: Path) -> Session:
    s = opened(path)
    s.feed_frame(0.0, OPENING)
    s.advance(1.0)
    s.feed_frame(5.0, AFTER_FIRST)
    s.advance(6.0)
    assert s.game.ply == 1 and s.phase == "play"
    return s


def kinds(path: Path) -> list[str]:
    return [r["k"] for r in read(path).records]


def choose(s: Session, t: float, steps: int) -> None:
    for k in range(steps):
        s.press(t + 0.01 * k, "next")
    s.press(t + 0.1, "confirm")


# ---------------------------------------------------------------------------- menus


@pytest.mark.parametrize(
    ("steps", "reason", "side", "winner"),
    [
        (1, "stop", None, None),  # Stop, tally now: the scores decide (here level: a draw)
        (2, "resign", BLUE, RED),
        (3, "resign", RED, BLUE),
        (4, "no-show", BLUE, RED),
        (5, "no-show", RED, BLUE),
    ],
)
def test_the_arbiters_menu_ends_the_game_each_way(tmp_path, steps, reason, side, winner):
    path = tmp_path / "journal.jsonl"
    s = one_move(path)
    s.press(7.0, "pause", "hold")
    assert s.menu is not None and s.clocks.state(7.0) == s.clocks.state(9.0)  # time stopped
    choose(s, 8.0, steps)
    assert s.phase == "over" and s.menu is None
    assert (s.outcome.reason, s.outcome.side, s.outcome.winner) == (reason, side, winner)
    end = read(path).records[-1]
    assert end["k"] == "end" and end["reason"] == reason and end.get("side") == side


def test_cancel_or_pause_closes_the_menu_and_time_runs_again(tmp_path):
    s = one_move(tmp_path / "journal.jsonl")
    for close in ("confirm", "pause"):
        s.press(7.0, "pause", "hold")
        stopped = s.clocks.state(7.0)
        s.press(7.5, close)  # Cancel is the first option
        assert s.menu is None and s.phase == "play"
        assert s.clocks.state(8.5)["move_ms"] > stopped["move_ms"]
    s.press(9.0, "pause", "hold")
    s.press(9.1, "takeback")
    assert s.menu is not None and s.message == texts.MENU_BUTTONS.page


def test_abandon_from_the_menu_archives_the_game_and_sets_up_the_next(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = one_move(path)
    s.wall = lambda: 1_700_000_000.9  # the wall clock names the kept game
    s.press(7.0, "new_game")
    assert s.menu is not None and s.menu.options[0].label == "Cancel"
    s.press(7.1, "confirm")  # Cancel: the game goes on
    assert s.phase == "play" and s.game.ply == 1
    s.press(7.2, "new_game")
    choose(s, 7.3, 1)
    assert s.phase == "setup" and s.game.ply == 0 and s.outcome is None
    archived = sorted((tmp_path / "games").iterdir())
    assert [p.name for p in archived] == ["game-1700000000.jsonl"]
    records = [json.loads(line[9:]) for line in archived[0].read_bytes().splitlines()]
    assert [r["k"] for r in records][-2:] == ["move", "end"] and records[-1]["reason"] == "abandon"
    assert kinds(path) == ["start"]  # the new game's journal


def test_the_next_game_after_one_ends_reads_the_board_as_it_stands(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = one_move(path)
    s.press(7.0, "pause", "hold")
    choose(s, 7.1, 2)  # Blue resigns
    s.press(8.0, "next")
    assert s.message == texts.OVER_BUTTONS.page
    s.press(9.0, "new_game")
    assert s.phase == "setup" and s.game.ply == 0
    assert s.tracker.guidance().missing == ((1, 2),)  # the board still shows the old game
    s.feed_frame(10.0, OPENING)
    s.advance(11.0)
    assert s.phase == "play"
    assert len(list((tmp_path / "games").iterdir())) == 1


def test_a_takeback_after_a_game_ended_on_the_board_plays_on(tmp_path):
    """A game that ended by the rules (no chips, no moves, repetition) can be taken back;
    one ended by the arbiter cannot."""
    path = tmp_path / "journal.jsonl"
    pieces = [{"square": [2, 3], "side": "blue", "value": "6"},
              {"square": [3, 4], "side": "red", "value": "-1"}]  # fmt: skip
    s = opened(path, position={"to_move": "blue", "pieces": pieces})
    start = {(2, 3), (3, 4)}
    s.feed_frame(0.0, start)
    s.advance(1.0)
    s.feed_frame(2.0, {(2, 3)})
    s.feed_frame(2.1, set())
    s.feed_frame(2.2, {(4, 5)})
    s.advance(3.0)
    assert s.phase == "over" and s.outcome.reason == "no-chips"
    s.press(4.0, "takeback")
    assert s.phase == "restore" and s.game.ply == 0 and s.outcome is None
    assert kinds(path)[-2:] == ["end", "takeback"]


# ---------------------------------------------------------------------------- resume


def write_journal(path: Path, records: list[dict]) -> None:
    path.write_bytes(b"".join(encode(r) for r in records))


def start_record(**changes) -> dict:
    s = Session(SessionConfig())
    record = s.start_record(0.0)
    record.update(changes)
    return record


def test_a_journal_without_a_start_record_starts_a_new_game_and_says_so(tmp_path):
    path = tmp_path / "journal.jsonl"
    write_journal(path, [{"k": "move", "t": 1.0, "path": [[1, 2], [0, 3]]}])
    s = opened(path)
    assert s.phase == "setup" and s.game.ply == 0
    assert s.message == "the journal has no start record; new game"


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"rules": "blitz"}, "blitz"),  # a profile this version does not know
        ({"rule_settings": {"sudden_death": True}}, "sudden_death"),
        ({"position": {"pieces": [{"square": [0, 0], "side": "blue", "value": "2"}]}}, "(0, 0)"),
        ({"variant": "hexadecimal", "position": None}, "hexadecimal"),
    ],
)
def test_an_unresumable_journal_starts_a_new_game_and_says_why(tmp_path, changes, named):
    """Found by this test: a start record with an unknown rule profile made the board fail to
    start at all (the new game was set up with the journal's own faulty settings)."""
    path = tmp_path / "journal.jsonl"
    write_journal(path, [start_record(**changes), {"k": "ready", "t": 1.0}])
    s = opened(path)
    assert s.phase == "setup" and s.game.ply == 0 and s.config.rules == "official"
    assert s.problems[-1].startswith("the journal cannot be resumed (")
    assert s.problems[-1].endswith("); new game") and named in s.problems[-1]
    assert s.message == s.problems[0]
    assert kinds(path) == ["start", "ready", "start"]  # the new game follows the old records


def test_an_illegal_move_record_resumes_the_game_before_it(tmp_path):
    path = tmp_path / "journal.jsonl"
    write_journal(path, [
        start_record(),
        {"k": "ready", "t": 1.0},
        {"k": "move", "t": 2.0, "ply": 0, "path": [[1, 2], [0, 3]], "game_ms": 1000,
         "move_ms": 1000},
        {"k": "move", "t": 3.0, "ply": 1, "path": [[0, 3], [1, 4]], "game_ms": 2000,
         "move_ms": 1000},
    ])  # fmt: skip
    s = opened(path, t=10.0)
    assert s.game.ply == 1 and s.phase == "restore"
    assert s.problems == [
        "journal record 4 does not fit the game: a record before it was lost; resumed before it "
        "(1 later move(s) kept only in the damaged copy)"
    ]


def test_takeback_pause_resume_and_timeout_records_are_replayed(tmp_path):
    path = tmp_path / "journal.jsonl"
    clock = {"game_ms": 0, "move_ms": 0}
    records = [
        start_record(rules="online"),
        {"k": "ready", "t": 1.0},
        {"k": "move", "t": 2.0, "ply": 0, "path": [[1, 2], [0, 3]], **clock},
        {"k": "move", "t": 3.0, "ply": 1, "path": [[6, 5], [7, 4]], **clock},
        {"k": "takeback", "t": 4.0, "ply": 1, **clock},
        {"k": "pause", "t": 5.0, **clock},
        {"k": "resume", "t": 6.0, **clock},
        {"k": "timeout", "t": 30.0, **clock},
    ]
    write_journal(path, records)
    s = opened(path, t=40.0)
    assert s.game.ply == 1 and [str(m) for m in s.game.move_stack] == ["(1,2)-(0,3)"]
    assert not s.paused and s.proxy  # the online rules: the opponent moves for Red
    write_journal(path, [*records[:6]])
    s = opened(path, t=40.0)
    assert s.paused and not s.proxy


def test_a_game_that_ended_resumes_over(tmp_path):
    path = tmp_path / "journal.jsonl"
    write_journal(path, [
        start_record(), {"k": "ready", "t": 1.0},
        {"k": "end", "t": 2.0, "reason": "resign", "side": 1, "game_ms": 0, "move_ms": 0},
    ])  # fmt: skip
    s = opened(path, t=5.0)
    assert s.phase == "over" and s.outcome.reason == "resign" and s.outcome.winner == BLUE


def test_a_power_cut_between_the_last_move_and_its_end_record_ends_the_game(tmp_path):
    path = tmp_path / "journal.jsonl"
    position = {"variant": "integer", "profile": "official", "to_move": "blue", "pieces": [
        {"square": [2, 3], "side": "blue", "value": "6", "dama": False},
        {"square": [3, 4], "side": "red", "value": "-1", "dama": False}]}  # fmt: skip
    write_journal(path, [
        start_record(position=position), {"k": "ready", "t": 1.0},
        {"k": "move", "t": 2.0, "ply": 0, "path": [[2, 3], [4, 5]], "game_ms": 0, "move_ms": 0},
    ])  # fmt: skip
    s = opened(path, t=5.0)
    assert s.phase == "over" and s.outcome.reason == "no-chips"
    assert kinds(path)[-1] == "end"


# ---------------------------------------------------------------------------- the disk


def test_a_full_disk_is_shown_and_no_move_counts_until_it_is_saved(tmp_path):
    """Every write goes to /dev/full: the kernel answers ENOSPC, as a full card would."""
    journal = Journal("/dev/full", sync=False)
    journal._open()
    s = Session.start(SessionConfig(checkpoint_seconds=0), 0.0, journal)
    assert s.message == texts.NOT_SAVED.format(reason="disk full").page
    assert [c.name for c in s.take_cues()] == ["error"]
    s.feed_frame(0.0, OPENING)
    s.advance(1.0)
    s.feed_frame(5.0, AFTER_FIRST)
    s.advance(6.0)
    assert s.game.ply == 0 and not s.clocks.running  # not on the disk: not played
    assert s.message == texts.MOVE_NOT_SAVED.format(reason="disk full").page
    assert len([p for p in s.problems if "cannot write the journal" in p]) == 1
    journal.close()


def test_a_journal_that_cannot_be_archived_is_reported_and_the_next_game_starts(tmp_path):
    path = tmp_path / "journal.jsonl"
    s = one_move(path)
    (tmp_path / "games").write_text("a file where the folder should be")
    s.press(7.0, "pause", "hold")
    choose(s, 7.1, 1)
    s.press(8.0, "new_game")
    assert s.phase == "setup" and s.game.ply == 0
    assert any("cannot archive the journal" in p for p in s.problems)
