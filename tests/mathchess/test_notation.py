"""The JSON position of Mathematical Chess (docs/notation-mathchess.md): written and read back
equal, and every malformed or impossible position refused with where and why."""

from __future__ import annotations

import json

import pytest

from controller.rules.mathchess import (
    Move,
    NotationError,
    Place,
    Position,
    Remove,
    position_from_json,
    position_to_json,
)

from .helpers import after_move, col, position, row

PLAY = {
    "game": "mathchess",
    "conditions": {"level": 9},
    "phase": "play",
    "to_move": "white",
    "pieces": [
        {"at": [1, 4], "side": "white", "piece": 1},
        {"at": [2, 4], "side": "white", "piece": "6"},
        {"at": [3, 4], "side": "black", "piece": "9"},
        {"at": [5, 4], "side": "black", "piece": "5"},
        {"at": [4, 1], "side": "white", "piece": "+"},
        {"at": [0, 8], "side": "black", "piece": "x"},
    ],
}


def test_a_play_position_is_read_and_written_back_equal():
    pos = position_from_json(PLAY)
    assert pos.board.at((4, 1)).symbol == "+" and pos.board.at((0, 8)).symbol == "×"
    again = position_from_json(json.dumps(position_to_json(pos)))
    assert again == pos
    moved = pos.apply(Move((4, 1), (4, 4)))
    assert position_from_json(position_to_json(moved)) == moved
    assert position_to_json(moved)["turn"] == {"moved": [4, 4], "direct": False, "steps": 0}
    removed = moved.apply(Remove(frozenset({(3, 4), (5, 4)})))
    assert position_from_json(position_to_json(removed)) == removed


def test_prepare_positions_keep_the_order_of_placing():
    pos = Position.start().apply(Place("+", (4, 1)))
    written = position_to_json(pos)
    assert written["phase"] == "prepare" and written["to_move"] == "black"
    assert position_from_json(written) == pos
    assert position_from_json({"game": "mathchess"}) == Position.start()


def test_conditions_and_settings_round_trip():
    obj = {"conditions": {"operators": {"+": 2, "-": 1}, "digits": 7, "zero": False,
                          "compare": "digit-sum"},
           "settings": {"size": 6, "placement": "anywhere", "without_moving": "any-match"},
           "phase": "prepare"}  # fmt: skip
    pos = position_from_json(obj)
    assert pos.board.size == 6 and pos.conditions.compare == "digit-sum"
    assert pos.conditions.box()["+"] == 2 and pos.conditions.level is None
    assert position_from_json(position_to_json(pos)) == pos


def test_a_finished_game_is_written_as_over():
    pos = position(row(4, "w+ b+", 3), fill=False)
    written = position_to_json(pos)
    assert written["phase"] == "over"
    assert position_from_json(written) == pos


def _with(**changes):
    obj = json.loads(json.dumps(PLAY))
    obj.update(changes)
    return obj


def _piece(n, **changes):
    obj = json.loads(json.dumps(PLAY))
    obj["pieces"][n].update(changes)
    return obj


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (_with(colour="red"), "unknown key 'colour'"),
        (_with(game="dam"), "reader is for 'mathchess'"),
        (_with(phase="middle"), "phase"),
        (_with(to_move="red"), "to_move"),
        (_with(pieces="all"), "pieces: expected a list"),
        (_piece(0, at=[9, 0]), "pieces[0].at: (9,0) is off the board"),
        (_piece(0, at=[1]), "pieces[0].at: expected [x, y]"),
        (_piece(1, at=[1, 4]), "two pieces on (1,4)"),
        (_piece(0, piece="%"), "pieces[0].piece"),
        (_piece(0, piece="P"), "has 0 P pieces"),
        (_piece(0, piece="6"), "has 1 6 piece under these conditions, and this is one more"),
        (_piece(0, side="green"), "pieces[0].side"),
        (_with(conditions={"level": 12}), "conditions: level"),
        (_with(conditions={"levels": 1}), "conditions: unknown key"),
        (_with(conditions={"level": 1, "operators": {}}), "not both"),
        (_with(conditions={"digits": True}), "conditions.digits"),
        (_with(settings={"size": 99}), "size"),
        (_with(settings={"colour": 1}), "unknown setting"),
        (_with(turn={"moved": [3, 4]}), "turn.moved"),
        (_with(turn={"moved": None}), "steps >= 1"),
        (_with(turn={"moved": [4, 1], "steps": -1}), "turn.steps"),
        (_with(phase="over"), "no player has lost"),
        (_with(stopped="lunch"), "stopped"),
        ({"phase": "prepare", "turn": {"moved": [4, 1]}}, "Prepare now!"),
    ],
)
def test_bad_positions_are_refused_with_where_and_why(bad, words):
    with pytest.raises(NotationError) as refused:
        position_from_json(bad)
    assert words in str(refused.value)


def test_prepare_positions_that_break_the_order_of_placing_are_refused():
    two_white = {"phase": "prepare", "pieces": [
        {"at": [0, 0], "side": "white", "piece": "+"},
        {"at": [1, 0], "side": "white", "piece": "-"}]}  # fmt: skip
    with pytest.raises(NotationError, match="in turn from White"):
        position_from_json(two_white)
    early_digit = {"phase": "prepare", "pieces": [{"at": [0, 0], "side": "white", "piece": "5"}]}
    with pytest.raises(NotationError, match="before every operator"):
        position_from_json(early_digit)
    wrong_half = {"phase": "prepare", "pieces": [{"at": [0, 6], "side": "white", "piece": "+"}]}
    with pytest.raises(NotationError, match="own half"):
        position_from_json(wrong_half)
    with pytest.raises(NotationError, match="black's turn"):
        position_from_json({"phase": "prepare", "to_move": "white", "pieces": [
            {"at": [0, 0], "side": "white", "piece": "+"}]})  # fmt: skip


def test_a_prepare_position_with_every_piece_placed_is_play_now():
    pieces = [{"at": [0, 0], "side": "white", "piece": "+"},
              {"at": [0, 8], "side": "black", "piece": "+"},
              {"at": [1, 1], "side": "white", "piece": "1"},
              {"at": [1, 7], "side": "black", "piece": "1"}]  # fmt: skip
    obj = {"conditions": {"operators": {"+": 1}, "digits": 1}, "phase": "prepare",
           "pieces": pieces}  # fmt: skip
    pos = position_from_json(obj)
    assert pos.phase.value == "play" and pos.to_move == 0 and pos.legal_moves()


def test_a_turn_under_way_is_part_of_the_position():
    pos = after_move(position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1)), (3, 1), (3, 4))
    back = position_from_json(position_to_json(pos))
    assert back.removal_options() == pos.removal_options()
