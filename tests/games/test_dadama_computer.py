"""Dadama's computer: its pruned expectiminimax against a plain one written here, and its tasks."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from controller.games.computer import Level
from controller.games.dadama.computer import COMPUTER, choose, review, weigh
from controller.games.dadama.evaluation import HIGH, LOW, WIN, evaluate
from controller.games.dadama.expectimax import Expectimax, Roll, choices
from controller.games.dadama.record import step_from_json, step_to_json
from controller.rules.dadama import DadamaGame, Die, Phase, Stop, Throw
from controller.rules.dadama_notation import dadama_to_json

# ---------------------------------------------------------------------- a plain expectimax


def plain(game: DadamaGame, depth: int, quiescence: bool) -> Fraction:
    """Full width, no pruning, exact: every ordered pair of a dadama's dice, a fresh copy of
    the game for every step (White's view, a turn a ply)."""
    if game.phase is Phase.OVER:
        ending = game.ending()
        assert ending is not None
        return Fraction(0) if ending.winner is None else (WIN if ending.winner == 0 else -WIN)
    if depth <= 0 and (not quiescence or game.phase is not Phase.THROW or depth <= -2):
        return evaluate(game)
    values = [plain_choice(game, c, depth, quiescence) for c in plain_choices(game)]
    return max(values) if game.side_to_move == 0 else min(values)


def plain_choices(game: DadamaGame) -> list[Any]:
    if game.phase is Phase.MOVE:
        return list(game.quiet_moves())
    out: list[Any] = [("roll", s) for s in game.throwers()]
    if game.can_stop:
        out.append(Stop(game.throwers()[0]))
    return out


def plain_choice(game: DadamaGame, choice: Any, depth: int, quiescence: bool) -> Fraction:
    if isinstance(choice, tuple):
        square = choice[1]
        n = game.dice_to_throw(square)
        throws = (
            [(a,) for a in range(1, 7)]
            if n == 1
            else [(a, b) for a in range(1, 7) for b in range(1, 7)]
        )
        total = Fraction(0)
        for dice in throws:
            options = game.throw_options(square, dice)
            values = [plain_choice(game, o, depth, quiescence) for o in options]
            total += max(values) if game.side_to_move == 0 else min(values)
        return total / len(throws)
    after = game.copy()
    played = after.play(choice)
    return plain(after, depth - 1 if played.turn_ends else depth, quiescence)


def position(pieces: dict[tuple[int, int], Die], to_move: int = 0, **kw: Any) -> DadamaGame:
    return DadamaGame(pieces, to_move, **kw)


W, B = 0, 1
SMALL = [
    # a White die that must throw at a Black die, another Black die behind
    position({(2, 3): Die(W, 3), (3, 4): Die(B, 4), (5, 6): Die(B, 2), (6, 1): Die(W, 5)}),
    # Black to move, a White dadama among Black dice
    position({(3, 4): Die(W, 3, True), (2, 5): Die(B, 2), (4, 5): Die(B, 5), (1, 2): Die(W, 6)}, 1),
    # quiet moves only at the start, takings one turn later
    position({(1, 2): Die(W, 3), (4, 5): Die(B, 3), (6, 5): Die(B, 1), (5, 2): Die(W, 2)}),
    # a Black dadama that throws two dice, and a White die showing 6 near the all-sixes loss
    position({(3, 2): Die(B, 4, True), (2, 1): Die(W, 6), (4, 1): Die(W, 2)}, 1),
    # a taking under way: go on or stop
    position(
        {(4, 5): Die(W, 4), (5, 6): Die(B, 3), (3, 4): Die(B, 1)},
        0,
        going_on=((4, 5), ((3, 4),)),
    ),
]


@pytest.mark.parametrize("n", range(len(SMALL)))
@pytest.mark.parametrize(("depth", "quiescence"), [(1, False), (2, False), (1, True), (2, True)])
def test_search_equals_a_plain_expectimax(n: int, depth: int, quiescence: bool) -> None:
    game = SMALL[n]
    search = Expectimax(quiescence)
    for choice in choices(game):
        mine = search.value(game, choice, depth, LOW - 1, HIGH + 1)
        theirs = plain_choice(
            game, ("roll", choice.square) if isinstance(choice, Roll) else choice, depth, quiescence
        )
        assert mine == theirs, choice
    # the windows the root gives (Star1 and alpha-beta cutting) keep the best value exact
    best = plain(game, depth, quiescence)
    level = Level(9, "test", depth, None, 0.0, quiescence)
    found = weigh(game, choices(game), level)
    if len(choices(game)) > 1:  # a single choice is played at once, after the first depth
        assert found.depth == depth
        assert found.value == (best if game.side_to_move == 0 else -best)
    assert dadama_to_json(game) == dadama_to_json(SMALL[n])  # undone exactly


def test_after_a_throw_equals_the_plain_choice() -> None:
    game = SMALL[3]
    options = list(game.throw_options((3, 2), (2, 5)))
    assert len(options) > 1
    level = Level(9, "test", 2, None, 0.0)
    found = weigh(game, options, level, weigh_all=True)
    for option, value in found.values:
        assert value == -plain_choice(game, option, 2, True)


# ---------------------------------------------------------------------- the tasks


def test_a_seed_replays_and_a_level_1_varies() -> None:
    start = dadama_to_json(DadamaGame.opening())

    def move(seed: int) -> str:
        return str(choose({"start": start, "moves": [], "level": 1, "seed": seed})["move"])

    assert move(3) == move(3)
    assert len({move(seed) for seed in range(12)}) > 1


def test_a_game_of_choices_is_always_legal() -> None:
    dice = random.Random(41)
    game = DadamaGame.opening()
    moves: list[dict[str, Any]] = []
    for turn in range(60):
        if game.phase is Phase.OVER:
            break
        request: dict[str, Any] = {"moves": moves, "level": 1 + turn % 2, "seed": turn}
        move = choose(request)["move"]
        if "roll" in move:
            square = tuple(move["roll"])
            assert square in game.throwers()
            faces = [dice.randint(1, 6) for _ in range(game.dice_to_throw(square))]
            move = choose({**request, "thrown": {"square": move["roll"], "dice": faces}})["move"]
            assert step_from_json(move) in [
                Throw(o.square, o.dice, o.kept, o.to) for o in game.throw_options(square, faces)
            ]
        game.play(step_from_json(move))  # raises on an illegal step
        moves.append(step_to_json(step_from_json(move)))
    assert len(moves) >= 20


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"level": 9}, "level 9: levels run from 1 to 6"),
        ({}, "level: say which level"),
        ({"level": "two"}, "level: expected a whole number"),
        ({"level": 1, "moves": [{"move": [[0, 0], [1, 1]]}]}, "moves[0]: "),
        ({"level": 1, "moves": "e4"}, "moves: expected a list"),
        ({"level": 1, "start": {"pieces": 3}}, "pieces"),
        ({"level": 1, "thrown": {"square": [1, 2], "dice": [4]}}, "thrown: "),
        ({"level": 1, "thrown": {"square": [1, 2]}}, "thrown: expected an object"),
    ],
)
def test_a_bad_request_gets_one_line(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[")) as caught:
        choose(request_)
    assert "\n" not in str(caught.value)


def test_review_marks_a_blunder_with_its_loss() -> None:
    start = position({(2, 3): Die(W, 3), (6, 1): Die(W, 3), (4, 5): Die(B, 1), (7, 6): Die(B, 3)})
    hangs = {"move": [[2, 3], [3, 4]]}  # next to the Black die: any throw of 3 or more takes it
    assert {"move": [[2, 3], [3, 4]]} in [step_to_json(q) for q in start.quiet_moves()]
    answer = review({"start": dadama_to_json(start), "moves": [hangs], "depth": 2})
    assert answer["unit"] == "pieces"
    (entry,) = answer["moves"]
    assert entry["played"] == hangs and entry["side"] == "white"
    assert entry["blunder"] and not entry["best_found"]
    assert Fraction(entry["loss"]) >= Fraction(1, 2)
    assert entry["best"] != hangs


def test_dadamas_kind_offers_its_computer() -> None:
    from controller.games.dadama.kind import DADAMA

    assert DADAMA.computer is COMPUTER
    assert [lv.depth for lv in COMPUTER.levels] == sorted(lv.depth for lv in COMPUTER.levels)
