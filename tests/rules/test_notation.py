"""The JSON position format and PDN FEN: round trips, and errors that name what is wrong."""

from __future__ import annotations

import json

import pytest

from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.notation import NotationError, game_from_json, game_to_json
from controller.rules.pdn import FenError, board_from_fen, fen_of


@pytest.mark.parametrize("variant", damath_data.VARIANTS)
def test_json_position_round_trips(variant):
    game = Game.new(variant)
    game.push(game.legal_moves()[3])
    data = game_to_json(game)
    again = game_from_json(json.dumps(data))
    assert again.chips() == game.chips()
    assert again.side_to_move == game.side_to_move
    assert game_to_json(again) == data


def test_json_position_example_from_the_issue():
    game = game_from_json(
        '{"variant": "integer", "profile": "official", "to_move": "blue", "pieces": '
        '[{"square": [1, 2], "side": "blue", "value": "-9", "dama": false},'
        ' {"square": [6, 5], "side": "red", "value": "-9", "dama": true}]}'
    )
    assert str(game.chip_at((1, 2)).value) == "-9"
    assert game.chip_at((6, 5)).dama


def test_json_without_pieces_is_the_opening():
    game = game_from_json({"variant": "fraction"})
    assert game.chips() == Game.new("fraction").chips()


def test_ascii_value_forms_are_accepted():
    pieces = [
        {"square": [1, 2], "side": "blue", "value": "4*sqrt(18)"},
        {"square": [6, 5], "side": "red", "value": "-9√2"},
    ]
    game = game_from_json({"variant": "radical", "pieces": pieces})
    assert str(game.chip_at((1, 2)).value) in ("4√18", "4*sqrt(18)")
    poly = game_from_json(
        {
            "variant": "polynomial",
            "pieces": [{"square": [1, 2], "side": "blue", "value": "-3*x^2*y"}],
        }
    )
    assert (
        poly.chip_at((1, 2)).value
        == game_from_json(
            {
                "variant": "polynomial",
                "pieces": [{"square": [1, 2], "side": "blue", "value": "-3x²y"}],
            }
        )
        .chip_at((1, 2))
        .value
    )


BAD_POSITIONS = [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"variant": "chess"}', "variant: unknown variant 'chess'"),
    ('{"variant": "integer", "to_move": "green"}', "to_move: expected 'blue' or 'red'"),
    ('{"variant": "integer", "profile": "casual"}', "unknown profile 'casual'"),
    ('{"variant": "integer", "colour": 1}', "unknown key 'colour'"),
    ('{"pieces": {"a": 1}}', "pieces: expected a list"),
    ('{"pieces": [{"square": [0, 0], "side": "blue", "value": "1"}]}', "pieces[0].square: (0, 0)"),
    ('{"pieces": [{"square": [9, 2], "side": "blue", "value": "1"}]}', "off the board"),
    ('{"pieces": [{"square": "a1", "side": "blue", "value": "1"}]}', "expected [x, y]"),
    ('{"pieces": [{"square": [1, 2], "side": "pink", "value": "1"}]}', "pieces[0].side"),
    ('{"pieces": [{"square": [1, 2], "side": "blue"}]}', "pieces[0].value: missing"),
    ('{"pieces": [{"square": [1, 2], "side": "blue", "value": "1/x"}]}', "pieces[0].value"),
    ('{"pieces": [{"square": [1, 2], "side": "blue", "value": "1", "dama": "yes"}]}', ".dama"),
    (
        '{"pieces": [{"square": [1, 2], "side": "blue", "value": "1"},'
        ' {"square": [1, 2], "side": "red", "value": "2"}]}',
        "pieces[1].square: two pieces on (1, 2)",
    ),
    ('{"pieces": [{"square": [0, 7], "side": "blue", "value": "1"}]}', "becomes a dama"),
    ('{"settings": {"dama_trail": "wobbly"}}', "dama_trail"),
    ('{"settings": {"speed": 3}}', "unknown profile setting 'speed'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_POSITIONS)
def test_bad_json_position_names_the_offending_part(text, message):
    with pytest.raises(NotationError) as info:
        game_from_json(text)
    assert message in str(info.value)


def test_more_than_twelve_chips_a_side_is_refused():
    squares = [sq for sq in damath_data.OPERATORS if sq[1] < 7][:13]
    pieces = [{"square": list(sq), "side": "blue", "value": "1"} for sq in squares]
    with pytest.raises(NotationError, match="more than 12"):
        game_from_json({"pieces": pieces})


# ---------------------------------------------------------------- PDN FEN


def test_fen_reads_ranges_and_kings_and_round_trips():
    board = board_from_fen("international", "W:W31-50:B1-20")
    assert fen_of(board) == "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(
        map(str, range(1, 21))
    )
    kings = board_from_fen("english", "B:WK5,30:BK26,3")
    assert board_from_fen("english", fen_of(kings)).cells == kings.cells


def test_fen_start_position_is_the_standard_one():
    assert board_from_fen("english").cells == board_from_fen("english", "B:W21-32:B1-12").cells
    assert board_from_fen("italian").cells == board_from_fen("italian", "W:W21-32:B1-12").cells


BAD_FENS = [
    ("english", "X:W1:B2", "must start with the side to move"),
    ("english", "B:W33:B1", "squares run from 1 to 32"),
    ("english", "B:W1,1:B2", "given twice"),
    ("english", "B:W5-2:B9", "runs backwards"),
    ("english", "B:Wfoo:B1", "expected a number"),
    ("english", "B:W1:W2", "appears twice"),
    ("brazilian", "W:Wa2:Bb8", "not a dark square"),
    ("shogi", "W:W1:B2", "unknown game"),
]


@pytest.mark.parametrize(("game", "fen", "message"), BAD_FENS)
def test_bad_fen_names_the_offending_part(game, fen, message):
    with pytest.raises(FenError) as info:
        board_from_fen(game, fen)
    assert message in str(info.value)
