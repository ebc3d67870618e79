"""The finder on known positions: a position where one taking clearly wins is a puzzle with its
themes, checked by a deeper search; a quiet position is none; a solution the deeper search
disagrees with is refused; a puzzle reads back from its JSON, and a damaged one is named."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from controller.puzzles.finder import FIND_DEPTH, VERIFY_EXTRA, find_in_game, puzzle_at, verify
from controller.puzzles.model import PuzzleError, from_json, read_lines, write_lines
from controller.puzzles.solve import judge
from controller.rules.game import Game
from controller.rules.notation import game_from_json


def position(pieces: list[tuple[tuple[int, int], str, str]], to_move: str = "blue") -> Game:
    return game_from_json(
        {
            "variant": "integer",
            "profile": "official",
            "to_move": to_move,
            "pieces": [
                {"square": list(sq), "side": side, "value": value, "dama": False}
                for sq, side, value in pieces
            ],
        }
    )


# Blue's −6 can take Red's −9 onto a × square (−6 × (−9) = 54), or Blue's 2 take Red's 1 onto
# the same square (2 × 1 = 2): one taking clearly wins.
TAKING = [
    ((2, 3), "blue", "-6"),
    ((6, 3), "blue", "2"),
    ((3, 4), "red", "-9"),
    ((5, 4), "red", "1"),
    ((0, 1), "blue", "7"),
    ((0, 7), "red", "3"),
    ((7, 6), "red", "5"),
]
BEST = ((2, 3), (4, 5))
SECOND = ((6, 3), (4, 5))


def test_the_taking_that_clearly_wins_is_a_puzzle_with_its_themes() -> None:
    found = puzzle_at(position(TAKING), {"kind": "test", "game": "known", "ply": 0})
    assert found is not None
    assert found.solution == (BEST,)
    assert set(found.themes) >= {"take_most", "multiply_negative"}
    assert found.source == {"kind": "test", "game": "known", "ply": 0}
    assert float(found.margin) >= 10  # two ordinary takings of Integer Damath, at least
    assert verify(found, FIND_DEPTH + VERIFY_EXTRA)


def test_a_quiet_position_is_no_puzzle() -> None:
    quiet = position(
        [((1, 0), "blue", "3"), ((3, 0), "blue", "4"), ((4, 7), "red", "3"), ((6, 7), "red", "4")]
    )
    assert len(quiet.legal_moves()) > 1
    assert puzzle_at(quiet, {"kind": "test"}) is None


def test_the_deeper_search_refuses_a_solution_it_does_not_choose() -> None:
    found = puzzle_at(position(TAKING), {"kind": "test"})
    assert found is not None
    wrong = replace(found, solution=(SECOND,))
    assert not verify(wrong, FIND_DEPTH + VERIFY_EXTRA)


def test_a_game_s_puzzles_are_each_verified_deeper() -> None:
    game = position(TAKING)
    found = find_in_game(game, [BEST], {"kind": "test", "game": "known"})
    assert found[0].source == {"kind": "test", "game": "known", "ply": 0}
    assert found[0].solution == (BEST,)
    assert all(p.verified == FIND_DEPTH + VERIFY_EXTRA > p.depth for p in found)


def test_the_answer_is_judged_with_its_arithmetic_and_the_reason() -> None:
    found = puzzle_at(position(TAKING), {"kind": "test"})
    assert found is not None
    right = judge(found, [], BEST)
    assert right.result == "right"
    assert any("−6 × (−9) = 54" in line for line in right.said), right.said
    wrong = judge(found, [], SECOND)
    assert wrong.result == "wrong"
    assert any("2 × 1 = 2" in line for line in wrong.said), wrong.said
    assert any("points less than the best one" in line for line in wrong.said), wrong.said
    with pytest.raises(ValueError, match="not a move of this puzzle"):
        judge(found, [], ((0, 1), (3, 4)))


def test_a_puzzle_reads_back_from_json_and_a_damaged_one_is_named() -> None:
    found = puzzle_at(position(TAKING), {"kind": "test"})
    assert found is not None
    assert read_lines(write_lines([found]), "set.jsonl") == [found]
    data = json.loads(json.dumps(found.json()))
    data["solution"] = [[[0, 1], [5, 6]]]
    with pytest.raises(PuzzleError, match=r"puzzle: solution\[0\]"):
        from_json(data)
    with pytest.raises(PuzzleError, match=r"set\.jsonl, line 2: not JSON"):
        read_lines(write_lines([found]) + "{broken\n", "set.jsonl")
