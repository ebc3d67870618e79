"""The scoresheet of Mathematical Chess: every removal of a turn with its rule, the pieces taken,
their points (2 an operator, 1 a digit) and the arithmetic that allowed it."""

from __future__ import annotations

from controller.games.mathchess.sheet import points_of, sheet_json, sheet_text, sheet_turns
from controller.rules.mathchess import (
    Done,
    MathChessGame,
    Move,
    Place,
    Position,
    Remove,
    from_level,
    position_from_json,
)
from tests.sim.test_browser_mathchess import PLAY


def played() -> MathChessGame:
    game = MathChessGame(position_from_json(PLAY))
    for action in (
        Move((0, 2), (5, 2)),
        Done(),
        Remove(frozenset({(4, 7), (5, 7), (7, 7)})),
        Done(),
        Move((3, 1), (3, 4)),
        Remove(frozenset({(4, 4), (6, 4)})),
        Remove(frozenset({(2, 4), (5, 4)})),
        Done(),
    ):
        game.play(action)
    return game


def test_points_are_two_for_an_operator_and_one_for_a_digit() -> None:
    assert points_of(["+", "7", "R"]) == 5 and points_of([]) == 0


def test_each_turn_lists_its_removals_with_rule_pieces_points_and_arithmetic() -> None:
    turns = sheet_turns(played())
    assert [t.text for t in turns] == ["(0,2)x(5,2)", "removal without moving", "(3,1)-(3,4)"]
    direct = turns[0].removals[0]
    assert (direct.rule, direct.pieces, direct.score) == ("R02", ("×",), 2)
    (r12,) = turns[1].removals
    assert (r12.rule, r12.pieces, r12.score) == ("R12", ("1", "3", "4"), 3)
    assert r12.arithmetic == ("1 + 3 = 4 and 4: last digits 4 = 4",)
    first, second = turns[2].removals
    assert (first.rule, first.pieces, second.rule, second.pieces) == (
        "R06",
        ("1", "9"),
        "R08",
        ("7", "2"),
    )
    assert "9 − 1 = 8: last digits 8 = 8" in first.arithmetic[0]
    assert second.arithmetic == ("7 − 5 = 2 and 2: last digits 2 = 2",)
    assert turns[2].score == 4


def test_the_sheet_carries_the_rules_score_and_what_the_position_began_with() -> None:
    game = played()
    sheet = sheet_json(game)
    assert sheet["start_score"] == [6, 1]
    assert sheet["score"] == [6 + 2 + 4, 1 + 3]
    text = sheet_text(game)
    assert "R08 (2,4),(5,4) 7 2 +2  [7 − 5 = 2 and 2: last digits 2 = 2]" in text
    assert text.endswith("score: white 12, black 4; result *\n")


def test_placements_are_turns_of_their_own() -> None:
    game = MathChessGame(Position.start(from_level(9)))
    game.play(Place("+", (4, 1)))
    (turn,) = sheet_turns(game)
    assert (turn.side, turn.removals, turn.score) == (0, [], 0)
    assert turn.text == Place("+", (4, 1)).text()
