"""The plain draughts games' computer (Dam, English, Italian draughts) through the one
interface: it finds the move that wins material, checked by a plain full-width search written
here; it plays only legal moves; its tasks answer through ``controller.games.computer.run``;
a review names a blunder; a seed replays a choice."""

from __future__ import annotations

import importlib
from fractions import Fraction
from typing import Any

import pytest

from controller.games.computer import Level, run
from controller.games.draughts.computer import Opponent
from controller.games.draughts.record import recorded_move
from controller.rules.game import Game
from controller.rules.move import Move

GAMES = ("dam", "english", "italian")

PUZZLES: dict[str, dict[str, Any]] = {
    "english": {"game": "english", "fen": "B:WK3,7,24:B4,K6,13"},
    "italian": {"game": "italian", "fen": "W:WK4,23,31:B9,K12,K27"},
    "dam": {"game": "dam", "to_move": "black", "pieces": [
        {"square": [7, 0], "side": "white", "king": True},
        {"square": [11, 4], "side": "white", "king": True},
        {"square": [2, 7], "side": "white", "king": False},
        {"square": [4, 7], "side": "black", "king": False},
        {"square": [9, 8], "side": "black", "king": False},
        {"square": [4, 11], "side": "black", "king": True},
    ]},
}  # fmt: skip
"""Small positions (found by a search of random ones) where one move keeps or wins a man that
every other move loses."""

DEPTH = 3
DEEP = Level(9, "test", DEPTH, None, 0.0)
GREEDY = Level(9, "greedy", 1, None, 0.0, quiescence=False)


def opponent(game: str) -> Opponent:
    found = importlib.import_module(f"controller.games.{game}.computer").OPPONENT
    assert isinstance(found, Opponent)
    return found


def task(game: str, name: str) -> str:
    computer = importlib.import_module(f"controller.games.{game}.kind")
    kind = getattr(computer, game.upper())
    assert kind.computer is not None
    return str(getattr(kind.computer, name))


def material(game: Game, king: Fraction) -> Fraction:
    """Side 0's material less side 1's."""
    total = Fraction(0)
    for chip in game.chips().values():
        worth = king if chip.dama else Fraction(1)
        total += worth if chip.side == 0 else -worth
    return total


def plain(game: Game, depth: int, king: Fraction) -> Fraction:
    """Full-width minimax on the game object itself, material only, from side 0's view; takings
    are followed past the horizon (a move with no reply loses)."""
    moves = game.legal_moves()
    if not moves:
        return Fraction(-100 if game.side_to_move == 0 else 100)
    if depth <= 0 and not moves[0].captures:
        return material(game, king)
    values = []
    for move in moves:
        game.push(move)
        values.append(plain(game, depth - 1, king))
        game.pop()
    return max(values) if game.side_to_move == 0 else min(values)


def as_move(game: Game, answer: dict[str, Any]) -> Move:
    move = recorded_move(game, answer)  # ValueError: not a legal move here
    assert move in game.legal_moves()
    return move


@pytest.mark.parametrize("name", GAMES)
def test_the_computer_finds_the_one_move_that_keeps_the_material(name: str) -> None:
    opp = opponent(name)
    game = opp.rules.from_json(PUZZLES[name], {})
    sign = 1 if game.side_to_move == 0 else -1
    weighed = {}
    for move in game.legal_moves():
        game.push(move)
        weighed[move] = sign * plain(game, DEPTH - 1, opp.weights.king)
        game.pop()
    best = max(weighed.values())
    found = as_move(game, opp.move_json(game, opp.search(game, DEEP).move))
    assert weighed[found] == best
    assert sorted(weighed.values())[-2] <= best - 1  # every other move loses a man at least
    greedy = as_move(game, opp.move_json(game, opp.search(game, GREEDY).move))
    assert weighed[greedy] < best  # one ply does not see it


@pytest.mark.parametrize("name", GAMES)
def test_a_short_game_of_its_choices_is_all_legal_and_replays_by_its_seeds(name: str) -> None:
    start = {"task": task(name, "choose"), "moves": []}
    for ply in range(12):
        game = opponent(name).game(start)
        if game.ending() is not None:
            break
        answer = run({**start, "level": 1 + ply % 3, "seed": ply})
        again = run({**start, "level": 1 + ply % 3, "seed": ply})
        assert again["move"] == answer["move"]
        move = as_move(game, answer["move"])
        played = {
            "path": [list(s) for s in move.path],
            "captures": [list(s) for s in move.captures],
        }
        start["moves"] = [*start["moves"], played]
    assert len(start["moves"]) == 12


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", [1, 6])
def test_choose_answers_a_legal_move_at_the_first_and_the_top_level(name: str, level: int) -> None:
    answer = run({"task": task(name, "choose"), "level": level, "seed": 3})
    game = opponent(name).game({})
    as_move(game, answer["move"])
    assert answer["depth"] >= 1 and answer["nodes"] > 0
    assert Fraction(answer["value"]) < 1  # the opening is level
    if level == 6:
        assert answer["depth"] >= 4


def test_a_warm_level_varies_with_its_seed_and_a_hint_is_the_top_levels() -> None:
    name = task("english", "choose")
    picks = {run({"task": name, "level": 1, "seed": s})["move"]["text"] for s in range(20)}
    assert len(picks) >= 2
    hint = run({"task": name, "hint": True})
    assert hint["seconds"] <= 2.5 and hint["depth"] >= 3


@pytest.mark.parametrize("name", GAMES)
def test_the_review_names_the_blunder_and_the_best_move_found(name: str) -> None:
    opp = opponent(name)
    game = opp.rules.from_json(PUZZLES[name], {})
    best = opp.move_json(game, opp.search(game, DEEP).move)
    bad = opp.move_json(game, opp.search(game, GREEDY).move)
    request = {"task": task(name, "review"), "start": PUZZLES[name], "depth": DEPTH}
    blunder = run({**request, "moves": [bad]})
    assert blunder["unit"] == "men"
    (entry,) = blunder["moves"]
    assert entry["blunder"] and not entry["best_found"] and not entry["forced"]
    assert Fraction(entry["loss"]) >= 1
    assert entry["best"]["path"] == best["path"]
    assert entry["side"] == opp.rules.colours[game.side_to_move]
    (good,) = run({**request, "moves": [best]})["moves"]
    assert good["best_found"] and good["loss"] == "0" and not good["blunder"]


def test_bad_requests_get_one_line() -> None:
    name = task("english", "choose")
    with pytest.raises(ValueError, match="levels run from 1 to 6"):
        run({"task": name, "level": 7})
    with pytest.raises(ValueError, match="level: say which level"):
        run({"task": name})
    with pytest.raises(ValueError, match=r"moves\[0\]"):
        run({"task": name, "level": 1, "moves": [{"path": [[0, 0], [1, 1]]}]})
    with pytest.raises(ValueError, match="over"):
        run({"task": name, "level": 1, "start": {"game": "english", "fen": "B:W21:B"}})
