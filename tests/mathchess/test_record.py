"""The game record: every turn with its move, its removal steps and the rule of each, replayed
exactly; a forged or mistyped record is refused at the first turn the rules do not allow."""

from __future__ import annotations

import json

import pytest

from controller.rules.mathchess import (
    Done,
    MathChessGame,
    Move,
    NotationError,
    Place,
    Position,
    Remove,
    Stop,
    game_from_record,
    own_level,
    position_to_json,
)

from .helpers import col, position, row


def small_game() -> MathChessGame:
    game = MathChessGame(Position.start(own_level({"+": 1}, digits=4)))
    for symbol, at in [("+", (4, 1)), ("+", (4, 7)), ("1", (1, 2)), ("1", (1, 5)),
                       ("2", (2, 2)), ("2", (2, 5)), ("3", (6, 2)), ("3", (6, 5)),
                       ("4", (7, 2)), ("4", (7, 7))]:  # fmt: skip
        game.play(Place(symbol, at))
    return game


def test_a_game_with_placements_moves_and_removals_replays_exactly():
    game = small_game()
    # White's + comes up between the black 1, 2 (its left) and the black 3: 1 + 2 = 3 and 3
    game.play(Move((4, 1), (4, 5)))
    assert [m.text() for m in game.position.removal_options()] == [
        "1 + 2 = 3 and 3: last digits 3 = 3"
    ]
    game.play(Remove(frozenset({(1, 5), (2, 5)})))  # the 3 held back
    game.play(Done())
    game.play(Move((7, 7), (7, 6)))
    game.play(Done())
    game.play(Move((6, 2), (6, 3)))  # a turn under way
    record = game.record_json()
    back = game_from_record(json.dumps(record))
    assert back.positions == game.positions
    assert [t.get("place") for t in record["turns"][:2]] == ["+", "+"]
    assert record["turns"][10]["removals"][0]["rule"] == "R06"
    assert record["turns"][-1] == {"move": [[6, 2], [6, 3]], "removals": [], "done": False}
    assert back.position.score() == (2, 0)


def test_the_record_names_the_rule_of_every_removal():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    game = MathChessGame(pos)
    game.play(Move((3, 1), (3, 4)))
    game.play(Remove(frozenset({(2, 4), (4, 4)})))
    game.play(Done())
    record = game.record_json()
    assert record["start"] == position_to_json(pos)
    assert record["turns"] == [
        {"move": [[3, 1], [3, 4]],
         "removals": [{"rule": "R06", "points": [[2, 4], [4, 4]], "pieces": ["9", "5"]}]}
    ]  # fmt: skip
    assert game.record_text() == "white: (3,1)-(3,4) R06:(2,4),(4,4)\nresult *\n"
    assert game_from_record(record).position == game.position


def test_a_record_of_a_finished_game_keeps_its_result():
    pos = position({**row(3, "b5 w9 b+ .", 1), **col(4, "w4", 1)}, row(0, "w÷"), fill=False)
    game = MathChessGame(pos)
    game.play(Move((4, 1), (4, 3)))
    game.play(Remove(frozenset({(1, 3), (3, 3)})))
    record = game.record_json()
    assert record["result"] == "1-0" and record["termination"] == "no-operators"
    assert game_from_record(record).position == game.position
    stopped = MathChessGame(position(row(4, "w+ . b2", 1)))
    stopped.play(Stop("time"))
    again = game_from_record(stopped.record_json())
    assert again.position.stopped == "time" and again.result() == stopped.result()


def _record():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    game = MathChessGame(pos)
    game.play(Move((3, 1), (3, 4)))
    game.play(Remove(frozenset({(2, 4), (4, 4)})))
    game.play(Done())
    return game.record_json()


@pytest.mark.parametrize(
    ("forge", "words"),
    [
        (lambda r: r["turns"][0]["removals"][0].update(rule="R07"), "this step is R06, not R07"),
        (lambda r: r["turns"][0]["removals"][0].update(pieces=["9", "4"]), "held"),
        (lambda r: r["turns"][0]["removals"][0].update(points=[[1, 4]]), "C-3"),
        (lambda r: r["turns"][0].update(move=[[3, 1], [5, 3]]), "R01"),
        (lambda r: r["turns"][0].update(takes="R02"), "takes nothing"),
        (lambda r: r.update(result="1-0"), "replays to *"),
        (lambda r: r.update(result="win"), "result: expected"),
        (lambda r: r.update(turns={}), "turns: expected a list"),
        (lambda r: r["turns"].append({"jump": 1}), "places, moves, removes or passes"),
        (
            lambda r: r["turns"].insert(0, {"move": [[3, 1], [3, 4]], "done": False}),
            "only the last turn",
        ),
        (lambda r: r.update(extra=1), "unknown key"),
    ],
)
def test_a_forged_record_is_refused_at_the_turn_that_breaks_the_rules(forge, words):
    record = _record()
    forge(record)
    with pytest.raises(NotationError) as refused:
        game_from_record(record)
    assert words in str(refused.value)


def test_undo_returns_exactly_to_the_position_before():
    game = small_game()
    before = game.position
    game.play(Move((4, 1), (4, 5)))
    assert game.undo() == Move((4, 1), (4, 5))
    assert game.position == before
    with pytest.raises(IndexError):
        MathChessGame().undo()
