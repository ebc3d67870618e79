"""Dam's JSON position, its PDN numbering and whole games in PDN (docs/notation.md)."""

from __future__ import annotations

import json
import random

import pytest

from controller.rules.dam import DamGame, DamSettings
from controller.rules.dam_notation import dam_from_json, dam_to_json
from controller.rules.draughts import number_map
from controller.rules.notation import NotationError
from controller.rules.pdn import board_from_fen, fen_of
from controller.rules.pdn_game import read_pdn, write_pdn


def _random_game(seed: int, plies: int = 120, **settings) -> tuple[DamGame, DamGame]:
    rng = random.Random(seed)
    game = DamGame.opening(DamSettings(**settings))
    start = game.copy()
    while not game.is_over() and game.ply < plies:
        game.push(rng.choice(game.legal_moves()))
    return game, start


def test_json_position_round_trips_with_kings_and_settings():
    game, _ = _random_game(3, capture_priority="most")
    text = json.dumps(dam_to_json(game))
    again = dam_from_json(text)
    assert again.chips() == game.chips()
    assert again.side_to_move == game.side_to_move
    assert again.settings == game.settings
    assert json.loads(text)["settings"] == {"capture_priority": "most"}


def test_json_without_pieces_is_the_opening():
    game = dam_from_json('{"game": "dam"}')
    assert game.chips() == DamGame.opening().chips() and game.side_to_move == 0


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"pieces": [{"square": [12, 1], "side": "black"}]}, "off the board"),
        ({"pieces": [{"square": [2, 2], "side": "black"}]}, "not a playable square"),
        ({"pieces": [{"square": [1, 0], "side": "blue"}]}, "expected 'black' or 'white'"),
        ({"pieces": [{"square": [1, 0], "side": "white"}]}, "a white man cannot stand on"),
        ({"pieces": [{"square": [1, 0], "side": "white", "kng": True}]}, "unknown key 'kng'"),
        ({"to_move": "red"}, "to_move: expected"),
        ({"settings": {"priority": "most"}}, "unknown setting 'priority'"),
        ({"game": "dadama"}, "this reader is for 'dam'"),
    ],
)
def test_bad_positions_name_the_offending_part(position, message):
    with pytest.raises(NotationError, match=message):
        dam_from_json(position)


def test_more_than_thirty_pieces_a_side_is_refused():
    squares = [sq for sq in DamGame.opening().geo.squares if sq[1] < 11][:31]
    pieces = [{"square": list(sq), "side": "black"} for sq in squares]
    with pytest.raises(NotationError, match="more than 30"):
        dam_from_json({"pieces": pieces})


def test_pdn_numbering_runs_like_english_draughts_on_twelve_rows():
    by_number, _ = number_map("dam")
    assert len(by_number) == 72
    assert (by_number[1], by_number[6], by_number[7]) == ((1, 0), (11, 0), (0, 1))
    assert (by_number[30], by_number[43], by_number[72]) == ((11, 4), (0, 7), (10, 11))
    assert fen_of(board_from_fen("dam", "B:W43-72:B1-30")) == fen_of(board_from_fen("dam"))


def test_a_whole_game_round_trips_through_pdn():
    game, start = _random_game(7, plies=200, capture_priority="most", quiet_move_limit=20)
    text = write_pdn(game, start, "*", {"Event": "Colombo club"})
    assert '[GameType "Dam"]' in text
    assert '[Settings "capture_priority=most; quiet_move_limit=20"]' in text
    read = read_pdn(text)
    assert read.game.move_stack == game.move_stack
    assert read.game.settings == game.settings
    assert read.tags["Event"] == "Colombo club"


def test_pdn_from_a_set_up_position_carries_its_fen_and_the_second_mover_starts():
    start = dam_from_json(
        {
            "to_move": "white",
            "pieces": [
                {"square": [5, 0], "side": "black", "king": True},
                {"square": [7, 2], "side": "white"},
                {"square": [8, 9], "side": "white"},
            ],
        }
    )
    game = start.copy()
    game.push(game.find_move(((7, 2), (6, 1))))
    text = write_pdn(game, start)
    assert '[FEN "W:W' in text and "1... " in text
    assert read_pdn(text).game.chips() == game.chips()


def test_pdn_reads_a_capture_written_short_when_it_is_the_only_one():
    start = dam_from_json(
        {
            "pieces": [
                {"square": [5, 6], "side": "black"},
                {"square": [4, 5], "side": "white"},
                {"square": [4, 3], "side": "white"},
            ]
        }
    )
    fen = fen_of(start.generator_board())
    _, num = number_map("dam")
    short = f"{num[(5, 6)]}x{num[(5, 2)]}"
    read = read_pdn(f'[GameType "Dam"]\n[FEN "{fen}"]\n\n1. {short} *\n')
    assert read.game.move_stack[0].path == ((5, 6), (3, 4), (5, 2))


@pytest.mark.parametrize(
    ("movetext", "message"),
    [
        ("1. 25-32 44-51 *", "move 2 '44-51'"),
        ("1. 25-99 *", "squares run from 1 to 72"),
        ("1. 25+31 *", "not a move"),
    ],
)
def test_pdn_errors_name_the_move(movetext, message):
    with pytest.raises(NotationError, match=message):
        read_pdn(f'[GameType "Dam"]\n\n{movetext}\n')


def test_pdn_game_type_must_match():
    with pytest.raises(NotationError, match="this reader knows"):
        read_pdn('[GameType "Chess"]\n\n1. 25-32 *\n')
    with pytest.raises(NotationError, match="is english, not dam"):
        read_pdn('[GameType "21"]\n\n1. 9-14 *\n', "dam")


def test_result_is_refused_when_not_pdn():
    game, start = _random_game(1, plies=4)
    with pytest.raises(NotationError, match="expected one of"):
        write_pdn(game, start, "black wins")


def test_pdn_refuses_a_short_capture_that_fits_several_takings():
    ring = [[2, 1, "black"], [3, 2, "white"], [3, 4, "white"], [1, 4, "white"], [1, 2, "white"]]
    start = dam_from_json({"pieces": [{"square": [x, y], "side": s} for x, y, s in ring]})
    fen = fen_of(start.generator_board())
    _, num = number_map("dam")
    short = f"{num[(2, 1)]}x{num[(2, 1)]}"
    with pytest.raises(NotationError, match="several takings go so; write the path"):
        read_pdn(f'[GameType "Dam"]\n[FEN "{fen}"]\n\n1. {short} *\n')
