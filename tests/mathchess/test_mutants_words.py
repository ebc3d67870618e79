"""What Mathematical Chess says and writes, word for word, where mutation testing found slips the
first tests let through (bench/mutation.sh mathchess): the reason a move is refused (a child
reads it on the board), how a game ended, the arithmetic of a match and its JSON for the pages,
the record's line for a turn."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import (
    Done,
    IllegalAction,
    Move,
    Place,
    Position,
    Remove,
    Stop,
    Turn,
)
from controller.rules.mathchess.arithmetic import PartialValue, compare_text, key
from controller.rules.mathchess.grid import line_points
from controller.rules.mathchess.pieces import Op, Piece, digit, operator
from controller.rules.mathchess.position import Ending
from controller.rules.mathchess.record import MathChessGame

from .helpers import after_move, col, position, row


def refusal(pos: Position, start, end) -> str:
    with pytest.raises(IllegalAction) as info:
        pos.apply(Move(start, end))
    return str(info.value)


def test_a_refused_move_says_which_rule_and_why():
    pos = position(row(4, "w1 . b5 w+ w+ . b7"), col(8, "b3", 4), row(2, "w5 . . . w7 b7"))
    assert refusal(pos, (5, 5), (5, 6)) == "R01: there is no piece on (5,5)"
    assert refusal(pos, (2, 4), (2, 5)) == "R01: the black 5 on (2,4) is not yours"
    assert refusal(pos, (0, 4), (1, 5)) == "R01: a piece moves along its row or its column"
    assert refusal(pos, (0, 4), (0, 4)) == "R01: a piece moves along its row or its column"
    assert refusal(pos, (3, 4), (4, 4)) == "R01: (4,4) holds your own +"
    pos = position(row(4, "w1 b7 w2"))  # not alone on the row: the 7 cannot be taken so
    assert refusal(pos, (0, 4), (1, 4)) == (
        "R03: a digit takes by moving only when it and one opposing digit are alone on their "
        "line (R03), or by jumping its own digit partner (R05)"
    )


def test_the_blocking_piece_named_is_the_first_one_met():
    # moving left: the piece met first has the larger x
    pos = position(row(4, "b9 . b7 . b5 . w+"))
    assert refusal(pos, (6, 4), (0, 4)) == (
        "R02: an operator takes only the first piece it meets; (4,4) is in the way (it may jump "
        "one own operator next to it on the line, R04)"
    )
    pos = position(row(4, "w+ . b5 . b7 . b9"))  # moving right: the smaller x
    assert refusal(pos, (0, 4), (6, 4)).startswith(
        "R02: an operator takes only the first piece it meets; (2,4) is in the way"
    )
    pos = position(row(4, ". . w7 b5 w1"))
    assert refusal(pos, (4, 4), (0, 4)) == (
        "R01: the way is blocked at (3,4): a move passes over empty points only"
    )
    pos = position(col(4, "w1 b5 w7 . ."))  # up a column: the smaller y first
    assert refusal(pos, (4, 0), (4, 4)) == (
        "R01: the way is blocked at (4,1): a move passes over empty points only"
    )
    pos = position(col(4, ". . w7 b5 w1"))  # down: the larger y first
    assert refusal(pos, (4, 4), (4, 0)) == (
        "R01: the way is blocked at (4,3): a move passes over empty points only"
    )


def test_takings_the_rules_never_allow_say_so():
    pos = position(row(4, "w+ . b+"))
    assert refusal(pos, (0, 4), (2, 4)) == (
        "R02: an operator never takes an operator of its own kind (black addition)"
    )
    pos = position(row(4, "w5 . b5"))
    assert refusal(pos, (0, 4), (2, 4)) == (
        "R03: two digits of the same value never take each other (black 5)"
    )
    pos = position(row(4, "w5 w6 b5"))
    assert refusal(pos, (0, 4), (2, 4)) == (
        "R05: a jumping digit never takes a digit of the same value (black 5)"
    )
    pos = position(row(4, "w+ w× b+"))
    assert refusal(pos, (0, 4), (2, 4)) == (
        "R04: a jumping operator never takes an operator of its own kind (black addition)"
    )
    pos = position(row(4, "w5 w6 w7 b4"))
    assert refusal(pos, (0, 4), (3, 4)) == (
        "R05: a digit jumps only one own digit partner, to the first piece beyond"
    )


def test_a_move_is_written_with_a_dash_or_an_x():
    assert Move((1, 2), (3, 2)).text() == "(1,2)-(3,2)"
    assert Move((1, 2), (3, 2), "R02").text() == "(1,2)x(3,2)"
    assert Place("+", (4, 1)).text() == "+(4,1)"


def test_how_a_game_ended_in_words():
    assert Ending(0, "no-operators", (7, 2)).describe() == (
        "white wins: black has lost all their operators (score 7–2)"
    )
    assert Ending(1, "no-digits", (1, 9)).describe() == (
        "black wins: white has lost all their digits (score 1–9)"
    )
    assert Ending(None, "both-lost", (4, 4)).describe() == (
        "a draw: both players have lost all their operators or digits (score 4–4)"
    )
    assert Ending(1, "blocked", (2, 3)).describe() == (
        "black wins on the score: neither player could move or remove (score 2–3)"
    )
    assert Ending(None, "time", (5, 5)).describe() == (
        "a draw on the score after the game was stopped (time; score 5–5)"
    )
    assert [Ending(w, "time", (0, 0)).result() for w in (0, 1, None)] == ["1-0", "0-1", "1/2-1/2"]


def test_a_game_is_stopped_only_in_the_named_ways_and_only_once():
    pos = position(row(4, "w1 . b5"))
    with pytest.raises(IllegalAction) as info:
        pos.apply(Stop("boredom"))
    assert str(info.value) == "C-11: a game is stopped by time, agreement, arbiter"
    stopped = pos.apply(Stop("agreement"))
    assert stopped.ending() is not None and stopped.ending().reason == "agreement"
    with pytest.raises(IllegalAction) as info:
        stopped.apply(Stop("time"))
    assert str(info.value) == "C-11: the game is already over"
    with pytest.raises(IllegalAction) as info:
        stopped.apply(Done())
    assert str(info.value) == f"C-11: the game is over: {stopped.ending().describe()}"


def test_a_match_in_json_and_in_a_sentence():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    (match,) = pos.removal_options()
    assert match.as_json(pos.board) == {
        "rule": "R06",
        "operator": {"point": [3, 4], "piece": "+", "side": "white"},
        "line": "row",
        "left": {
            "op": "+",
            "points": [[1, 4], [2, 4]],
            "digits": [6, 9],
            "added": 0,
            "power": 0,
            "value": 15,
            "text": "6 + 9 = 15",
        },
        "right": {
            "op": "+",
            "points": [[4, 4]],
            "digits": [5],
            "added": 0,
            "power": 0,
            "value": 5,
            "text": "5",
        },
        "key": 5,
        "compare": "last-digit",
        "removable": [{"point": [2, 4], "piece": "9"}, {"point": [4, 4], "piece": "5"}],
        "text": "6 + 9 = 15 and 5: last digits 5 = 5",
    }
    assert match.describe(pos.board) == (
        "R06 white addition on (3,4): 6 + 9 = 15 and 5: last digits 5 = 5; "
        "removes black 9 on (2,4), black 5 on (4,4)"
    )


def test_a_match_on_a_column_names_its_sides_below_and_above():
    pos = position(col(4, "w2 b6 . . w5 w3", 1), row(3, "b+", 7), to_move="black")
    pos = after_move(pos, (7, 3), (4, 3))
    (match,) = pos.removal_options()
    data = match.as_json(pos.board)
    assert data["line"] == "column" and "below" in data and "above" in data
    assert data["operator"] == {"point": [4, 3], "piece": "+", "side": "black"}


def test_partial_values_written_out():
    cases = [
        (PartialValue(Op.SUB, ((0, 0), (1, 0)), (5, 9), 6, added=10), "(10 + 5) − 9 = 6"),
        (PartialValue(Op.SUB, ((0, 0), (1, 0)), (9, 5), 4), "9 − 5 = 4"),
        (PartialValue(Op.DIV, ((0, 0), (1, 0)), (2, 7), 6, added=40), "(40 + 2) ÷ 7 = 6"),
        (PartialValue(Op.MUL, ((0, 0), (1, 0)), (3, 9), 27), "3 × 9 = 27"),
        (PartialValue(Op.POW, ((0, 0),), (3,), 27, power=3), "3³ = 27"),
        (PartialValue(Op.POW, ((0, 0),), (3,), 9, power=2), "3² = 9"),
        (PartialValue(Op.ROOT, ((0, 0),), (4,), 8, added=60, power=2), "√(60 + 4) = 8"),
        (PartialValue(Op.ROOT, ((0, 0),), (8,), 2, power=3), "∛8 = 2"),
        (PartialValue(Op.DIV, ((0, 0),), (7,), 7), "7"),
    ]
    for value, text in cases:
        assert value.text() == text
    assert cases[0][0].as_json() == {
        "op": "−", "points": [[0, 0], [1, 0]], "digits": [5, 9], "added": 10, "power": 0,
        "value": 6, "text": "(10 + 5) − 9 = 6",
    }  # fmt: skip


def test_values_compared_by_last_digit_or_by_digit_sum():
    assert compare_text(15, 5, "last-digit") == "last digits 5 = 5"
    assert compare_text(17, 8, "digit-sum") == "digit sums 8 = 8"
    assert [key(v, "digit-sum") for v in (0, 9, 10, 18, 19)] == [0, 9, 1, 9, 1]
    assert [key(v, "last-digit") for v in (0, 9, 10, 25)] == [0, 9, 0, 5]


def test_pieces_made_and_named():
    assert digit(1, 7) == Piece(1, "7") and digit(1, 7).name() == "black 7"
    assert operator(0, Op.ROOT) == Piece(0, "R") and operator(0, Op.ROOT).name() == "white root"


def test_a_line_is_a_whole_row_or_column():
    assert line_points((2, 3), "row", 6) == [(i, 3) for i in range(6)]
    assert line_points((2, 3), "column", 6) == [(2, i) for i in range(6)]


def test_a_turn_written_for_perft_and_for_the_record():
    assert Turn(place=Place("+", (4, 1))).text() == "+(4,1)"
    assert Turn(passes=True).text() == "pass"
    turn = Turn(
        move=Move((3, 1), (3, 4)),
        steps=(("R06", frozenset({(4, 4), (2, 4)})), ("R08", frozenset({(0, 4)}))),
    )
    assert turn.text() == "(3,1)-(3,4) R06:(2,4),(4,4) R08:(0,4)"
    assert Turn(steps=(("R12", frozenset({(1, 1)})),)).text() == "R12:(1,1)"


def test_the_records_line_for_each_turn():
    start = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    game = MathChessGame(start)
    game.play(Move((3, 1), (3, 4)))
    game.play(Remove(frozenset({(2, 4), (4, 4)})))
    (turn,) = game.turns()
    assert turn.text() == "(3,1)-(3,4) R06:(2,4),(4,4) ..."  # not done yet
    assert turn.as_json()["done"] is False
    game.play(Done())
    (turn,) = game.turns()
    assert turn.text() == "(3,1)-(3,4) R06:(2,4),(4,4)"
    assert turn.as_json() == {
        "move": [[3, 1], [3, 4]],
        "removals": [{"rule": "R06", "points": [[2, 4], [4, 4]], "pieces": ["9", "5"]}],
    }
    taking = MathChessGame(position(row(4, "w+ . b7")))
    taking.play(Move((0, 4), (2, 4)))
    taking.play(Done())
    (turn,) = taking.turns()
    assert turn.text() == "(0,4)x(2,4) R02"
    assert turn.as_json() == {"move": [[0, 4], [2, 4]], "takes": "R02", "removals": []}
