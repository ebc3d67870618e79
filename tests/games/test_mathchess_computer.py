"""Mathematical Chess's computer (``controller.games.mathchess.computer``): whole turns searched
in the game's points, on small positions whose best turn is known by hand."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from controller.games.computer import run
from controller.games.mathchess.computer import (
    COMPUTER,
    MathChessRules,
    turn_from_json,
)
from controller.games.mathchess.kind import MATHCHESS
from controller.games.search import Search
from controller.rules.mathchess import (
    Phase,
    Position,
    play_turn,
    position_from_json,
    position_to_json,
    turns,
)


def small(extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """R06 example 1 on 6 lines: White's + moving up to (3,3) makes 6 + 9 = 15 and 5, and
    removes Black's 9 and 5; Black's + stands far off on (5,5)."""
    pieces = [
        {"at": [0, 3], "side": "white", "piece": "1"},
        {"at": [1, 3], "side": "white", "piece": "6"},
        {"at": [2, 3], "side": "black", "piece": "9"},
        {"at": [4, 3], "side": "black", "piece": "5"},
        {"at": [3, 0], "side": "white", "piece": "+"},
        {"at": [5, 5], "side": "black", "piece": "+"},
    ]
    return {
        "game": "mathchess",
        "conditions": {"level": 1},
        "settings": {"size": 6},
        "phase": "play",
        "to_move": "white",
        "pieces": pieces + (extra or []),
    }


WIN_TURN = {
    "move": [[3, 0], [3, 3]],
    "removals": [{"rule": "R06", "points": [[2, 3], [4, 3]]}],
}
QUIET_TURN = {"move": [[3, 0], [3, 1]], "removals": []}
BLACK_THREE = {"at": [5, 0], "side": "black", "piece": "3"}
"""With a third black digit the removal no longer ends the game: it is worth 2 points."""


def test_the_search_finds_the_winning_removal() -> None:
    start = small()
    answer = run({"task": COMPUTER.choose, "start": start, "level": 3, "seed": 0})
    after = play_turn(position_from_json(start), turn_from_json(answer["move"]))
    ending = after.ending()
    assert ending is not None and ending.winner == 0 and ending.reason == "no-digits"
    assert answer["move"]["removals"][0]["pieces"] == ["9", "5"]


def test_the_top_level_takes_two_points_when_the_game_goes_on() -> None:
    start = small([BLACK_THREE])
    answer = run({"task": COMPUTER.choose, "start": start, "level": len(COMPUTER.levels)})
    before = position_from_json(start)
    after = play_turn(before, turn_from_json(answer["move"]))
    assert after.phase is Phase.PLAY
    assert after.score()[0] - before.score()[0] == 2  # Black's 9 and 5 taken (C-11)


def _random_positions(seed: int, plies: int) -> list[Position]:
    rng = random.Random(seed)
    position = Position.start(settings=position_from_json(small()).settings)
    out = []
    for _ in range(plies):
        if position.phase is Phase.OVER:
            break
        out.append(position)
        options = turns(position)
        noisy = [t for t in options if t.steps or (t.move is not None and t.move.rule)]
        position = play_turn(position, rng.choice(noisy or options))
    return out


def test_every_choice_is_a_legal_turn_of_its_position() -> None:
    positions = _random_positions(5, 60)[::6]
    assert any(p.phase is Phase.PLAY for p in positions)
    for n, position in enumerate(positions):
        answer = run(
            {"task": COMPUTER.choose, "start": position_to_json(position), "level": 1, "seed": n}
        )
        chosen = turn_from_json(answer["move"])
        play_turn(position, chosen)  # raises IllegalAction for an illegal turn
        legal = MathChessRules().moves(position)
        assert any(
            t.place == chosen.place
            and [p for _, p in t.steps] == [p for _, p in chosen.steps]
            and (t.move is None) == (chosen.move is None)
            for t in legal
        )


def test_choose_from_the_start_at_level_one_and_the_top_places_a_legal_piece() -> None:
    for level in (1, len(COMPUTER.levels)):
        answer = run({"task": COMPUTER.choose, "level": level, "seed": 1})
        position = play_turn(Position.start(), turn_from_json(answer["move"]))
        assert position.board.count(0)[answer["move"]["place"]] == 1
        assert answer["depth"] >= 1 and Fraction(answer["value"]) == Fraction(answer["value"])


def test_the_review_names_the_quiet_turn_a_blunder_and_the_removal_best() -> None:
    start = small([BLACK_THREE])
    quiet = run({"task": COMPUTER.review, "start": start, "moves": [QUIET_TURN], "depth": 1})
    assert quiet["unit"] == "points"
    entry = quiet["moves"][0]
    assert entry["side"] == "white" and not entry["best_found"] and entry["blunder"]
    assert entry["best"]["move"] == WIN_TURN["move"]
    assert entry["best"]["removals"][0]["points"] == [[2, 3], [4, 3]]
    # the removal scores 2 at once, and after the quiet turn Black's own threats count
    assert Fraction(entry["loss"]) > 2
    best = run({"task": COMPUTER.review, "start": start, "moves": [WIN_TURN], "depth": 1})
    assert best["moves"][0]["best_found"] and best["moves"][0]["loss"] == "0"


def test_a_seeded_choice_replays_and_seeds_vary_it() -> None:
    request = {"task": COMPUTER.choose, "level": 1, "seed": 7}
    assert run(request)["move"] == run(request)["move"]
    picks = {str(run({**request, "seed": s})["move"]) for s in range(8)}
    assert len(picks) > 1


def test_the_levels_run_from_a_warm_beginner_to_a_deeper_top() -> None:
    levels = COMPUTER.levels
    assert levels[0].temperature > levels[-1].temperature == 0
    assert levels[0].depth < levels[-1].depth and not levels[0].quiescence
    assert MATHCHESS.computer is COMPUTER
    assert Search(MathChessRules()).choose(position_from_json(small()), levels[0], 0).depth == 1


def test_a_bad_request_says_what_is_wrong_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"moves\[0\]: .*R01"):
        run({"task": COMPUTER.choose, "start": small(), "moves": [{"move": [[0, 3], [5, 4]]}]})
    with pytest.raises(ValueError, match="level: say which level"):
        run({"task": COMPUTER.choose, "start": small()})
