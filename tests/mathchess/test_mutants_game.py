"""A game of Mathematical Chess played, recorded and replayed, where mutation testing found slips
the first tests let through (bench/mutation.sh mathchess): the record of a game says every turn
and how it ended, replays to the same game, and refuses each kind of mistake at its turn with
the rule or the part it breaks; every action the rules refuse during play says why."""

from __future__ import annotations

import copy
import json

import pytest

from controller.rules.mathchess import (
    DEFAULT,
    Done,
    IllegalAction,
    Move,
    NotationError,
    Pass,
    Place,
    Position,
    Remove,
    Stop,
    explain,
    game_from_record,
    own_level,
    position_to_json,
    turns,
)
from controller.rules.mathchess.record import MathChessGame

from .helpers import col, position, row


def played() -> MathChessGame:
    """White's + comes up and removes 9 and 5 (R06); Black's + takes White's 7 (R02); the
    arbiter stops the game."""
    game = MathChessGame(position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1), row(6, "b+ . w7", 2)))
    game.play(Move((3, 1), (3, 4)))
    game.play(Remove(frozenset({(2, 4), (4, 4)})))
    game.play(Done())
    game.play(Move((2, 6), (4, 6)))
    game.play(Done())
    game.play(Stop("arbiter"))
    return game


def test_a_game_recorded_says_every_turn_and_how_it_ended():
    game = played()
    record = game.record_json()
    assert record["turns"] == [
        {
            "move": [[3, 1], [3, 4]],
            "removals": [{"rule": "R06", "points": [[2, 4], [4, 4]], "pieces": ["9", "5"]}],
        },
        {"move": [[2, 6], [4, 6]], "takes": "R02", "removals": []},
    ]
    assert (record["stopped"], record["result"], record["termination"]) == (
        "arbiter",
        "1-0",
        "arbiter",
    )
    assert record["start"] == position_to_json(game.start) and record["game"] == "mathchess"
    assert "settings" not in record  # the defaults
    assert game.record_text() == (
        "white: (3,1)-(3,4) R06:(2,4),(4,4)\nblack: (2,6)x(4,6) R02\nresult 1-0\n"
    )
    again = game_from_record(json.dumps(record))
    assert again.positions == game.positions and again.result() == "1-0"
    assert [t.text() for t in again.turns()] == [t.text() for t in game.turns()]


def test_a_game_from_the_start_records_its_conditions_and_settings_not_a_start():
    start = Position.start(own_level({"+": 1}, digits=2), DEFAULT.with_settings({"size": 6}))
    game = MathChessGame(start)
    for place in (Place("+", (2, 0)), Place("+", (2, 5)), Place("1", (0, 0))):
        game.play(place)
    record = game.record_json()
    assert "start" not in record and record["settings"] == {"size": 6}
    assert record["conditions"]["operators"] == {"+": 1}
    assert record["turns"] == [
        {"place": "+", "at": [2, 0]}, {"place": "+", "at": [2, 5]}, {"place": "1", "at": [0, 0]},
    ]  # fmt: skip
    assert (record["result"], "termination" in record, "stopped" in record) == ("*", False, False)
    assert game_from_record(record).positions == game.positions
    assert game.record_text().splitlines() == [
        "white: +(2,0)", "black: +(2,5)", "white: 1(0,0)", "result *",
    ]  # fmt: skip


def test_a_turn_under_way_and_undo():
    game = MathChessGame(position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1)))
    with pytest.raises(IndexError, match="nothing to undo: the game is at its start"):
        game.undo()
    game.play(Move((3, 1), (3, 4)))
    assert game.record_json()["turns"] == [
        {"move": [[3, 1], [3, 4]], "removals": [], "done": False}
    ]
    assert game_from_record(game.record_json()).positions == game.positions
    assert game.undo() == Move((3, 1), (3, 4))
    assert game.positions == [game.start] and game.turns() == []
    blocked = MathChessGame(position({**row(0, "w+ w1 b2"), **row(1, "b+ b1")}, fill=False))
    blocked.play(Pass())
    (turn,) = blocked.turns()
    assert turn.passes and turn.done and turn.side == 0 and turn.as_json() == {"pass": True}
    assert game_from_record(blocked.record_json()).position.passes == 1


def broken(change) -> str:
    record = copy.deepcopy(played().record_json())
    change(record)
    with pytest.raises(NotationError) as info:
        game_from_record(record)
    return str(info.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: r["turns"][0].update(move=[[3, 1]]),
            "turns[0]: move: expected [[x, y], [x, y]]",
        ),
        (
            lambda r: r["turns"][0].update(move=[[3, 1], "x"]),
            'turns[0]: move[1]: expected [x, y], got "x"',
        ),
        (
            lambda r: r["turns"][0].update(takes="R02"),
            "turns[0]: takes: the move takes nothing itself",
        ),
        (lambda r: r["turns"][1].pop("takes"), "turns[1]: takes: the move takes by R02"),
        (
            lambda r: r["turns"][0].update(removals={}),
            "turns[0]: removals: expected a list of steps",
        ),
        (
            lambda r: r["turns"][0].update(removals=[1]),
            "turns[0]: removals[0]: expected rule and points",
        ),
        (
            lambda r: r["turns"][0]["removals"][0].update(points="all"),
            "turns[0]: removals[0]: expected rule and points",
        ),
        (
            lambda r: r["turns"][0]["removals"][0].update(rule="R08"),
            "turns[0]: removals[0].rule: this step is R06, not R08",
        ),
        (
            lambda r: r["turns"][0]["removals"][0].update(pieces=["5", "9"]),
            "turns[0]: removals[0].pieces: the points held ['9', '5']",
        ),
        (
            lambda r: r["turns"][0]["removals"][0].update(points=[[2, 4], "x"]),
            'turns[0]: removals[0].points: expected [x, y], got "x"',
        ),
        (
            lambda r: r["turns"].insert(0, {"removals": []}),
            "turns[0]: a turn places, moves, removes or passes",
        ),
        (
            lambda r: r["turns"][0].update(done=False),
            "turns[0]: only the last turn of a record may be unfinished",
        ),
        (
            lambda r: r["turns"][0].update(move=[[3, 1], [3, 9]]),
            "turns[0]: C-1: (3,9) is off the board",
        ),
        (
            lambda r: r["turns"][0].update(move=[[0, 4], [3, 4]]),
            "turns[0]: R01: the way is blocked at (1,4): a move passes over empty points only",
        ),
        (
            lambda r: r.update(result="0-1"),
            "result: the record says 0-1 but the game replays to 1-0",
        ),
        (
            lambda r: r.update(stopped="arbiter", result="*"),
            "result: the record says * but the game replays to 1-0",
        ),
    ],
)
def test_each_mistake_in_a_record_is_refused_at_its_turn(change, message):
    assert broken(change) == message


def test_a_record_whose_game_is_already_stopped_cannot_be_stopped_again():
    record = played().record_json()
    record["start"]["stopped"] = "time"
    with pytest.raises(NotationError) as info:
        game_from_record(record)
    assert str(info.value).startswith("turns[0]: C-11: the game is over: ")
    record = {**played().record_json(), "turns": [], "stopped": "time", "result": "1-0"}
    record["start"] = {**record["start"], "stopped": "arbiter"}
    with pytest.raises(NotationError) as info:
        game_from_record(record)
    assert str(info.value) == "stopped: C-11: the game is already over"


def refused(pos: Position, action) -> str:
    with pytest.raises(IllegalAction) as info:
        pos.apply(action)
    return str(info.value)


def test_placements_refused_say_why():
    start = Position.start(own_level({"+": 1}, digits=2), DEFAULT.with_settings({"size": 6}))
    assert refused(start, Place("%", (2, 0))) == (
        "C-12: '%' is not a piece: digits are 0 to 9, operators + - x / P (power) R (root)"
    )
    assert refused(start, Place("x", (2, 0))) == "C-12: white has no × left to place (left: + 1 2)"
    assert refused(start, Place("1", (2, 0))) == (
        "C-2: all the operator pieces are placed before any digit"
    )
    assert refused(start, Place("+", (6, 0))) == "C-1: (6,0) is off the board"
    assert refused(start, Place("+", (2, 4))) == "C-2: white places on their own half of the board"
    after = start.apply(Place("+", (2, 0)))
    assert refused(after, Place("+", (2, 0))) == (
        "C-2: (2,0) is taken: a piece goes on an empty point"
    )
    assert refused(after, Move((2, 0), (3, 0))) == (
        "C-2: Prepare now!: the pieces are placed first, one in turn"
    )
    assert refused(position(row(4, "w1 . b5")), Place("+", (4, 0))) == (
        "C-2: every piece is on the board: Play now! has begun"
    )


def test_actions_refused_during_play_say_why():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    assert refused(pos, Done()) == "C-3: a turn is a move, or removals without moving: do one first"
    assert refused(pos, Pass()) == "C-3: a player passes only when they can neither move nor remove"
    assert refused(pos, Remove(frozenset())) == "C-9: a removal step takes at least one piece"
    assert refused(pos, "resign") == "C-3: 'resign' is not an action of this game"
    moved = pos.apply(Move((3, 1), (3, 4)))
    assert refused(moved, Move((0, 4), (0, 3))) == "R01: only one move in a turn"
    assert refused(moved, Remove(frozenset({(9, 4)}))) == "C-1: (9,4) is off the board"
    assert (
        refused(moved, Remove(frozenset({(5, 5)}))) == "C-3: there is no piece on (5,5) to remove"
    )
    assert refused(moved, Remove(frozenset({(1, 4)}))) == (
        "C-3: a removal takes only the opponent's pieces; (1,4) holds your own 6"
    )
    assert refused(moved, Remove(frozenset({(8, 8)}))) == (
        "R06: the black 0 on (8,8) is in no matching pair of partial values around the moved "
        "operator"
    )


def test_a_piece_outside_every_match_is_refused_with_the_scope_of_the_turn():
    # without moving (own operators): White's + has 6 + 9 against 5
    still = position(row(4, "w1 w6 b9 w+ b5"), row(6, "b× . b7", 2))
    assert refused(still, Remove(frozenset({(4, 6)}))) == (
        "R12: the black 7 on (4,6) is in no matching pair of partial values you may use without "
        "moving"
    )
    assert refused(still, Remove(frozenset({(2, 6)}))) == (
        "R12: the black multiplication on (2,6): an operator's match removes the opponent's "
        "digits only; an operator is taken by a move (R02, R04) or by a digit's match (R09)"
    )
    # after a digit's move: its matches only
    digit = position(row(4, "b9 . w+ . b5"), col(1, "w6", 1)).apply(Move((1, 1), (1, 4)))
    assert refused(digit, Remove(frozenset({(8, 8)}))) == (
        "R09: the black 0 on (8,8) is in no matching pair of partial values that uses the moved "
        "digit"
    )
    lines = position(row(4, "b9 . w+ . b5"), col(1, "w6", 1), digit_matches="its-operators").apply(
        Move((1, 1), (1, 4))
    )
    assert refused(lines, Remove(frozenset({(8, 8)}))) == (
        "R09: the black 0 on (8,8) is in no matching pair of partial values around an operator "
        "the moved digit is attached to"
    )
    # a move that took by itself, with no match after it allowed
    took = position(row(4, "w+ . b7"), match_after_direct=False).apply(Move((0, 4), (2, 4)))
    assert refused(took, Remove(frozenset({(8, 8)}))) == (
        "R06: the black 0 on (8,8): the move took by itself and its turn makes no match here (C-4)"
    )


def test_a_set_no_order_of_removals_can_take_is_refused_by_the_first_piece():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1)).apply(Move((3, 1), (3, 4)))
    assert explain(pos, frozenset()) == ()
    with pytest.raises(IllegalAction) as info:
        explain(pos, frozenset({(2, 4), (8, 8)}))
    assert str(info.value).startswith("R06: the black 0 on (8,8) is in no matching pair")
    assert explain(pos, frozenset({(2, 4), (4, 4)})) == (("R06", frozenset({(2, 4), (4, 4)})),)


def test_turns_are_listed_only_at_the_start_of_a_turn():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    with pytest.raises(
        ValueError, match="turns\\(\\) lists whole turns: finish the turn under way first"
    ):
        turns(pos.apply(Move((3, 1), (3, 4))))
    assert turns(pos.apply(Stop("time"))) == []
    start = Position.start(own_level({"+": 1}, digits=2), DEFAULT.with_settings({"size": 6}))
    assert [t.place for t in turns(start)] == start.legal_placements()
    assert len(turns(start)) == 6 * 3  # the + on any point of White's three rows


def test_a_move_to_or_from_a_point_off_the_board_is_refused_as_such():
    pos = position(row(4, "w1 . b5"))
    for start, end in (((0, 4), (0, -1)), ((0, 4), (0, 9)), ((-1, 4), (0, 4)), ((0, 4), (9, 4))):
        off = end if start == (0, 4) else start
        assert refused(pos, Move(start, end)) == f"C-1: ({off[0]},{off[1]}) is off the board"
