"""Mathematical Chess's readers of positions, records and conditions, where mutation testing
found slips the first tests let through (bench/mutation.sh mathchess): every mistake in a file is
named by its part and said in words, exactly; what is right is read back as written."""

from __future__ import annotations

import json

import pytest

from controller.rules.mathchess import (
    ConditionsError,
    NotationError,
    Place,
    Position,
    from_level,
    game_from_record,
    own_level,
    position_from_json,
    position_to_json,
)
from controller.rules.mathchess.conditions import digit_values
from controller.rules.mathchess.pieces import Op

PIECE = {"at": [4, 0], "side": "white", "piece": "+"}


def position_error(data) -> str:
    with pytest.raises(NotationError) as info:
        position_from_json(data)
    return str(info.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "{",
            "not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2",
        ),
        ("[1]", "a position must be a JSON object with conditions, phase and pieces"),
        ({"nonsense": 1}, "unknown key 'nonsense'"),
        ({"game": "chess"}, "game: this reader is for 'mathchess', not 'chess'"),
        ({"game": 7}, "game: expected text, got 7"),
        ({"phase": "middle"}, "phase: expected prepare, play or over, got 'middle'"),
        ({"pieces": {}}, "pieces: expected a list of pieces"),
        ({"pieces": [1]}, "pieces[0]: expected an object with at, side and piece"),
        ({"pieces": [{**PIECE, "x": 1}]}, "pieces[0]: unknown key 'x'"),
        (
            {"pieces": [{"at": [4, 0], "side": "white"}]},
            "pieces[0]: every piece needs at, side and piece",
        ),
        (
            {"pieces": [{**PIECE, "at": [4]}]},
            "pieces[0].at: expected [x, y] with whole numbers, got [4]",
        ),
        (
            {"pieces": [{**PIECE, "at": [4, True]}]},
            "pieces[0].at: expected [x, y] with whole numbers, got [4, true]",
        ),
        (
            {"pieces": [{**PIECE, "at": [9, 0]}]},
            "pieces[0].at: (9,0) is off the board (x and y run from 0 to 8)",
        ),
        ({"pieces": [PIECE, PIECE]}, "pieces[1].at: two pieces on (4,0)"),
        (
            {"pieces": [{**PIECE, "side": "red"}]},
            "pieces[0].side: expected 'white' or 'black', got 'red'",
        ),
        ({"pieces": [{**PIECE, "side": 1}]}, "pieces[0].side: expected text, got 1"),
        (
            {"pieces": [{**PIECE, "piece": None}]},
            "pieces[0].piece: expected a digit or an operator sign",
        ),
        (
            {"pieces": [{**PIECE, "piece": "%"}]},
            "pieces[0].piece: '%' is not a piece: digits are 0 to 9, "
            "operators + - x / P (power) R (root)",
        ),
        (
            {"pieces": [PIECE, {**PIECE, "at": [5, 0]}]},
            "pieces[1].piece: white has 1 + piece under these conditions, and this is one more",
        ),
        (
            {"pieces": [{**PIECE, "piece": 0}]},
            "pieces[0].piece: white has 0 0 pieces under these conditions, and this is one more",
        ),
        ({"passes": -1}, "passes: expected a whole number >= 0, got -1"),
        ({"stopped": "rain"}, "stopped: expected one of time, agreement, arbiter, got 'rain'"),
        ({"conditions": []}, "conditions: expected an object (zero, digits, level or operators)"),
        ({"conditions": {"colour": 1}}, "conditions: unknown key 'colour'"),
        (
            {"conditions": {"digits": "9"}},
            "conditions.digits: expected a number of digits or a list of values",
        ),
        (
            {"conditions": {"digits": True}},
            "conditions.digits: expected a number of digits or a list of values",
        ),
        ({"conditions": {"digits": [1, "2"]}}, "conditions.digits: expected whole numbers 0 to 9"),
        ({"conditions": {"zero": "yes"}}, 'conditions.zero: expected true or false, got "yes"'),
        (
            {"conditions": {"level": 3, "operators": {"+": 1}}},
            "conditions: give a level or operators, not both",
        ),
        (
            {"conditions": {"operators": ["+"]}},
            'conditions.operators: expected counts by sign, {"+": 2}',
        ),
        ({"conditions": {"level": 0}}, "conditions.level: expected a whole number >= 1, got 0"),
        ({"conditions": {"level": 11}}, "conditions: level: expected 1 to 10, got 11"),
        (
            {"conditions": {"compare": "size"}},
            "conditions: compare: 'size' is not one of last-digit, digit-sum",
        ),
        ({"settings": {"size": 20}}, "setting size: a board of 20 lines; sizes are 6 to 12"),
    ],
)
def test_each_mistake_in_a_position_is_named_and_said(data, message):
    assert position_error(data) == message


def board_pieces(pieces, **extra) -> dict:
    return {"phase": "play", "pieces": pieces, **extra}


def test_a_turn_under_way_is_read_strictly():
    pieces = [
        {"at": [4, 4], "side": "white", "piece": "+"},
        {"at": [0, 4], "side": "white", "piece": "1"},
        {"at": [4, 8], "side": "black", "piece": "+"},
        {"at": [8, 8], "side": "black", "piece": "1"},
    ]
    cases = [
        ({"moved": [4, 4], "x": 1}, "turn: unknown key 'x'"),
        ([4, 4], "turn: expected an object with moved, direct and steps"),
        ({"moved": [4, 8]}, "turn.moved: (4,8) must hold the piece white moved"),
        ({"moved": [3, 3]}, "turn.moved: (3,3) must hold the piece white moved"),
        (
            {},
            "turn: removals without moving have begun only after a step (steps >= 1); "
            "leave 'turn' out for a turn not yet begun",
        ),
        ({"moved": [4, 4], "steps": -1}, "turn.steps: expected a whole number >= 0, got -1"),
        ({"moved": [4, 4], "direct": 1}, "turn.direct: expected true or false, got 1"),
    ]
    for turn, message in cases:
        assert position_error(board_pieces(pieces, turn=turn)) == message, turn
    read = position_from_json(
        board_pieces(pieces, turn={"moved": [4, 4], "direct": True, "steps": 2})
    )
    assert (read.turn.moved, read.turn.direct, read.turn.steps) == ((4, 4), True, 2)
    alone = position_from_json(board_pieces(pieces, turn={"steps": 1}))
    assert (alone.turn.moved, alone.turn.steps) == (None, 1)
    assert position_error({"phase": "prepare", "pieces": [], "turn": {"steps": 1}}) == (
        "turn: a turn of Play now! cannot be under way in Prepare now!"
    )
    assert position_error(board_pieces(pieces, phase="over")) == (
        "phase: 'over', but no player has lost and the game was not stopped"
    )


def test_prepare_now_is_read_in_its_order():
    def placed(*pieces, **extra):
        return {"phase": "prepare", "pieces": list(pieces), **extra}

    w_op = {"at": [4, 0], "side": "white", "piece": "+"}
    b_op = {"at": [4, 8], "side": "black", "piece": "+"}
    assert position_error(placed(w_op, {"at": [5, 0], "side": "white", "piece": "−"})) == (
        "pieces: in Prepare now! the players place in turn from White: white has placed 2 and "
        "black 0"
    )
    assert position_error(placed(w_op, to_move="white")) == "to_move: it is black's turn to place"
    assert position_error(placed({"at": [4, 0], "side": "white", "piece": "1"})) == (
        "pieces: white has placed a digit before every operator was placed (C-2)"
    )
    assert position_error(placed({"at": [4, 7], "side": "white", "piece": "+"})) == (
        "pieces: the white addition on (4,7) is not on its own half (C-2)"
    )
    anywhere = position_from_json(
        placed({"at": [4, 7], "side": "white", "piece": "+"}, settings={"placement": "anywhere"})
    )
    assert anywhere.to_move == 1 and anywhere.preparing
    both = position_from_json(placed(w_op, b_op))
    assert both.to_move == 0 and both.preparing


def test_a_position_written_reads_back_the_same():
    pos = Position.start(from_level(3, zero=True, digits=4, compare="digit-sum"))
    for place in (Place("+", (4, 0)), Place("+", (4, 8)), Place("−", (3, 0)), Place("−", (3, 8))):
        pos = pos.apply(place)
    data = position_to_json(pos)
    assert data["conditions"] == {
        "zero": True, "digits": [0, 1, 2, 3], "level": 3, "compare": "digit-sum",
    }  # fmt: skip
    assert data["phase"] == "prepare" and data["to_move"] == "white"
    assert [p["at"] for p in data["pieces"]] == [[3, 0], [4, 0], [3, 8], [4, 8]]
    assert position_from_json(json.dumps(data)) == pos


def test_conditions_given_by_their_own_mix():
    mix = own_level({"+": 2, "x": 1, "*": 1}, digits=[3, 1, 2])
    assert dict(mix.operators) == {Op.ADD: 2, Op.MUL: 2} and mix.level is None
    assert mix.digits == (1, 2, 3) and not mix.zero
    assert mix.as_json() == {
        "zero": False, "digits": [1, 2, 3], "operators": {"+": 2, "×": 2}, "compare": "last-digit",
    }  # fmt: skip
    for ops, message in [
        ({"%": 1}, "operators: '%' is not an operator (+ - x / P R)"),
        ({"5": 1}, "operators: '5' is not an operator (+ - x / P R)"),
        ({"+": 1.5}, "operators: expected a whole number for '+'"),
        ({"+": True}, "operators: expected a whole number for '+'"),
        ({"+": 5}, "operators: 5 addition pieces; a box holds 0 to 4 of each operator"),
        ({"+": 0}, "operators: each player needs at least one operator piece"),
    ]:
        with pytest.raises(ConditionsError) as info:
            own_level(ops)
        assert str(info.value) == message, ops
    with pytest.raises(ConditionsError) as info:
        own_level({"+": 1}, zero=False, digits=[0, 1])
    assert str(info.value) == "digits: 0 is out (condition 1) but the values are [0, 1]"
    with pytest.raises(ConditionsError) as info:
        own_level({"+": 1}, zero=True, digits=[1, 2])
    assert str(info.value) == "digits: 0 is in (condition 1) but the values are [1, 2]"


def test_digit_counts_by_condition_one():
    assert digit_values(True, 10) == tuple(range(10)) and digit_values(False, 9) == tuple(
        range(1, 10)
    )
    for zero, count, message in [
        (True, 11, "digits: 11 digit pieces; with 0 in a player has 1 to 10"),
        (False, 10, "digits: 10 digit pieces; with 0 out a player has 1 to 9"),
        (False, 0, "digits: 0 digit pieces; with 0 out a player has 1 to 9"),
    ]:
        with pytest.raises(ConditionsError) as info:
            digit_values(zero, count)
        assert str(info.value) == message


def record_error(data) -> str:
    with pytest.raises(NotationError) as info:
        game_from_record(data)
    return str(info.value)


def test_each_mistake_in_a_record_is_named_by_its_turn():
    assert record_error({"x": 1}) == "record: unknown key 'x'"
    assert record_error({"game": "chess"}) == "game: this reader is for 'mathchess', not 'chess'"
    assert record_error({"turns": {}}) == "turns: expected a list of turns"
    assert record_error({"turns": [1]}) == (
        "turns[0]: expected an object: place, move, removals or pass"
    )
    assert record_error({"turns": [{"place": 1, "at": [4, 0]}]}) == (
        "turns[0]: place: expected a piece's sign"
    )
    assert record_error({"turns": [{"place": "+", "at": [4]}]}) == (
        "turns[0]: at: expected [x, y], got [4]"
    )
    assert record_error({"turns": [{"place": "+", "at": [4, False]}]}) == (
        "turns[0]: at: expected [x, y], got [4, false]"
    )
    assert record_error({"turns": [{"place": "+", "at": "a1"}]}) == (
        'turns[0]: at: expected [x, y], got "a1"'
    )
    assert record_error({"turns": [{"place": "+", "at": [4, 0]}], "result": "2-0"}) == (
        "result: expected one of 1-0, 0-1, 1/2-1/2, *, got '2-0'"
    )
    assert record_error({"turns": [], "result": "1-0"}) == (
        "result: the record says 1-0 but the game replays to *"
    )
    assert record_error({"settings": {"size": 3}}) == (
        "setting size: a board of 3 lines; sizes are 6 to 12"
    )
    assert record_error({"turns": [], "stopped": "rain"}) == (
        "stopped: C-11: a game is stopped by time, agreement, arbiter"
    )
