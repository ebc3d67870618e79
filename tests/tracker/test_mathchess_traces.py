"""Traces of Mathematical Chess through the board's tracker and session (C-12, C-13): frames of
the 81 point sensors and the players' buttons in, the game and its journal out."""

from __future__ import annotations

from pathlib import Path

from controller.games.mathchess.session import MathChessSession
from controller.games.mathchess.tracker import MathChessTracker
from controller.rules.mathchess import Phase, Position, Remove, from_level, position_to_json
from tests.mathchess.helpers import col, position, row

ONE, TWO, SEVEN, NINE = (4, 4), (5, 4), (2, 4), (6, 4)
MINUS_FROM, MINUS_TO = (3, 1), (3, 4)


def r08_example3() -> Position:
    """The seed's R08 example 3 before White's − moves up: 5 7 _ 1 2 9 on a row."""
    return position(row(4, "w5 b7 . b1 b2 b9", 1), col(3, "w−", 1))


def occupied(pos: Position) -> frozenset[tuple[int, int]]:
    return frozenset(p for p, _piece in pos.board.pieces())


class Hands:
    """A player's hands on the board: each lift or set-down is one frame of the sensors."""

    def __init__(self, session: MathChessSession) -> None:
        self.session = session
        self.now = set(occupied(session.position))
        session.frame(frozenset(self.now))

    def lift(self, point: tuple[int, int]) -> None:
        self.now.discard(point)
        self.session.frame(frozenset(self.now))

    def put(self, point: tuple[int, int]) -> None:
        self.now.add(point)
        self.session.frame(frozenset(self.now))


def test_a_placement_is_named_as_it_is_put_down_and_journaled(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    session = MathChessSession.start(Position.start(from_level(9)), path)
    hands = Hands(session)
    hands.put((4, 1))
    tracker = session.tracker
    assert tracker.reading.naming == (4, 1)
    assert tracker.names() == ["+", "×", "÷", "−"]  # operators are placed first (C-2)
    assert tracker.problem() == "Name the piece on (4,1)."
    session.done()  # the button before naming: refused, nothing played
    assert session.said is not None and session.said.rule == "C-12"
    assert session.game.actions == []
    session.name("+")
    assert session.position.board.at((4, 1)).symbol == "+"  # type: ignore[union-attr]
    assert session.position.to_move == 1 and session.said is None
    hands.put((4, 1 + 6))  # Black on its own half
    session.name("−")
    hands.put((0, 0))
    session.name("3")  # a digit while operators are left: refused with its rule
    assert session.said is not None and session.said.rule.startswith("C-")
    assert len(session.game.actions) == 2
    session.name("×")
    session.close()
    again = MathChessSession.open(path, Position.start())
    assert again.game.actions == session.game.actions
    assert position_to_json(again.position) == position_to_json(session.position)
    again.close()


def test_a_placement_on_the_wrong_half_is_refused_with_its_rule() -> None:
    session = MathChessSession.start(Position.start(from_level(9)))
    hands = Hands(session)
    hands.put((4, 7))
    refused = session.tracker.reading.refused
    assert refused and refused[0].point == (4, 7)
    assert session.said is not None and session.said.rule == refused[0].rule
    hands.lift((4, 7))
    assert session.tracker.reading.naming is None and session.said is None


def test_a_turn_with_several_removals_and_a_wrong_one_refused_with_its_rule(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    start = r08_example3()
    session = MathChessSession.start(start, path)
    hands = Hands(session)
    tracker: MathChessTracker = session.tracker
    hands.lift(MINUS_FROM)
    assert tracker.reading.in_hand == MINUS_FROM
    hands.put(MINUS_TO)
    assert tracker.reading.move is not None and tracker.reading.move.end == MINUS_TO
    assert set(tracker.still_removable()) == {ONE, TWO, SEVEN, NINE}
    hands.lift(TWO)  # the 2 can only go after the 1 and the 9: refused with R06
    assert [r.point for r in tracker.reading.refused] == [TWO]
    assert session.said is not None and session.said.rule == "R06"
    assert "(5,4)" in session.said.text
    assert tracker.still_removable() == {}  # nothing is lit while a wrong piece is off
    session.done()  # the button is refused while the wrong piece is off the board
    assert session.said.rule == "R06" and len(session.game.actions) == 0
    hands.put(TWO)
    assert tracker.reading.refused == [] and session.said is None
    hands.lift(ONE)
    hands.lift(NINE)
    assert tracker.still_removable() == {SEVEN: "R06", TWO: "R08"}
    hands.lift(SEVEN)
    hands.lift(TWO)
    assert tracker.reading.steps == (
        ("R06", frozenset({ONE, NINE})),
        ("R08", frozenset({SEVEN, TWO})),
    )
    session.done()
    assert session.said is None
    turn = session.game.turns()[-1]
    assert [(rule, points) for rule, points, _ in turn.steps] == [
        ("R06", frozenset({ONE, NINE})),
        ("R08", frozenset({SEVEN, TWO})),
    ]
    assert session.position.to_move == 1 and session.position.phase is Phase.PLAY
    session.close()
    again = MathChessSession.open(path, Position.start())
    assert position_to_json(again.position) == position_to_json(session.position)
    assert again.problems == []
    assert again.game.turns()[-1].steps == turn.steps
    again.close()


def test_a_removal_declined_ends_the_turn_with_fewer_pieces() -> None:
    session = MathChessSession.start(r08_example3())
    hands = Hands(session)
    hands.lift(MINUS_FROM)
    hands.put(MINUS_TO)
    hands.lift(ONE)
    session.done()
    assert session.game.actions[1] == Remove(frozenset({ONE}))
    assert session.position.board.at(NINE) is not None  # declined: it stays


def test_a_piece_in_hand_or_a_stray_piece_stops_the_button() -> None:
    session = MathChessSession.start(r08_example3())
    hands = Hands(session)
    hands.lift(MINUS_FROM)
    session.done()
    assert session.said is not None and "in your hand" in session.said.text
    hands.put(MINUS_FROM)  # put back: no move
    hands.put((8, 4))  # a piece from nowhere
    session.done()
    assert session.said is not None and "(8,4)" in session.said.text
    hands.lift((8, 4))
    session.done()  # nothing done: a turn needs a move or a removal
    assert session.said is not None and session.said.rule == "C-3"
    assert session.game.actions == []


def test_a_refused_piece_becomes_good_when_the_pieces_it_needed_follow_it() -> None:
    """C-13: any lifting order of a set the rules allow is read as that set."""
    session = MathChessSession.start(r08_example3())
    hands = Hands(session)
    hands.lift(MINUS_FROM)
    hands.put(MINUS_TO)
    hands.lift(TWO)
    assert session.said is not None and session.said.rule == "R06"
    hands.lift(ONE)
    hands.lift(NINE)
    assert session.tracker.reading.refused == [] and session.said is None
    assert session.tracker.reading.accepted == {ONE, NINE, TWO}
    session.done()
    assert session.position.board.at(SEVEN) is not None and session.position.to_move == 1


def test_a_forged_journal_record_is_said_and_the_game_before_it_kept(tmp_path: Path) -> None:
    from controller.record.journal_file import read

    path = tmp_path / "journal.jsonl"
    session = MathChessSession.start(Position.start(from_level(9)), path)
    hands = Hands(session)
    hands.put((4, 1))
    session.name("+")
    assert session.journal is not None
    session.journal.append({"k": "mathchess-action", "place": "+", "at": [4, 1]})  # occupied
    session.journal.append({"k": "mathchess-action", "fly": True})
    session.close()
    again = MathChessSession.open(path, Position.start())
    assert len(again.game.actions) == 1 and again.position.to_move == 1
    assert (
        len(again.problems) == 2 and "journal record 3 does not fit the game" in again.problems[0]
    )
    # the journal holds what was resumed (its start and the placing), its copy every line
    assert again.problems[1] == f"the damaged journal was kept as {path}.damaged-1"
    assert len(read(path).records) == 2 and len(read(f"{path}.damaged-1").records) == 4
    again.close()


def _turn_of_r08_example3(path: Path) -> MathChessSession:
    """R08's example 3 journaled at ``path``: the minus moved, then its two removals, Done."""
    s = MathChessSession.start(r08_example3(), path)
    hands = Hands(s)
    hands.lift(MINUS_FROM)
    hands.put(MINUS_TO)
    for point in (ONE, NINE):
        hands.lift(point)
    s.done()
    return s


def test_a_turn_of_a_move_and_its_removals_is_one_journal_record(tmp_path: Path) -> None:
    """A power cut between a move and its removals must never leave half a turn: the turn is
    one record, written before it is played; a journal of one record an action (an earlier
    release's) still replays."""
    from controller.record.journal_file import read

    path = tmp_path / "mathchess.jsonl"
    s = _turn_of_r08_example3(path)
    records = read(path).records
    assert [r["k"] for r in records] == ["start", "mathchess-turn"]
    assert records[0]["game"] == "mathchess"  # the one record grammar: every game's start
    assert len(records[1]["actions"]) == 3  # the move, then two removals
    s.close()
    again = MathChessSession.open(path, r08_example3())
    assert again.problems == [] and again.position == s.position
    again.close()
    split = tmp_path / "split.jsonl"  # the same turn as an earlier release wrote it
    old = MathChessSession.start(r08_example3(), split)
    for action in records[1]["actions"]:
        old._write(action)
    old.close()
    replayed = MathChessSession.open(split, r08_example3())
    assert replayed.problems == [] and replayed.position == s.position


def test_a_journal_written_before_the_one_record_key_still_replays(tmp_path: Path) -> None:
    """Mathematical Chess once named its records' kind ``kind`` (``mathchess-start``, …); such a
    journal replays to the same game on the board, in the hub's reader and in ``game_of``."""
    from controller.record.games import game_of, recorded
    from controller.record.journal_file import read

    path = tmp_path / "mathchess.jsonl"
    s = _turn_of_r08_example3(path)
    s.close()
    start, turn = read(path).records
    from controller.session.journal import Journal

    old = tmp_path / "old.jsonl"
    journal, _loaded = Journal.open(old)
    journal.append({"kind": "mathchess-start", "position": start["position"], "t": 0})
    actions = [{"kind": "mathchess-action", **{k: v for k, v in a.items() if k != "k"}}
               for a in turn["actions"]]  # fmt: skip
    journal.append({"kind": "mathchess-turn", "actions": actions})
    journal.close()
    records = read(old).records
    assert game_of(records[0]) == "mathchess"
    replayed = MathChessSession.open(old, Position.start())
    assert replayed.problems == [] and replayed.position == s.position
    hub = recorded("mathchess")
    for record in records:
        hub.apply(record)
    white, black = s.game.position.score()
    assert hub.summary()["ply"] == 3 and hub.summary()["score"] == {"white": white, "black": black}
