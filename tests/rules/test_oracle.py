"""The engine against the reference generator (tests/oracles/moves.py), move for move.

Two kinds of position, in every rule set (Damath official, online and the loose D-3 reading;
English, Italian, International, Brazilian): positions reached by random play from the
opening, and positions built at random (men and kings anywhere, either side to move), which
reach what play from the opening rarely does: several kings and damas taking at once, long
captures round the board, ties for the capture priority. The legal-move lists must be equal as
lists of paths with their captures, promotion and mover (a duplicate counts), and in Damath
each taking must carry the same chips, landing square, operator and multiplier.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Chip, Game, game_from_json
from controller.rules.draughts import GAMES
from tests.oracles.moves import (
    RULES,
    OracleMove,
    Piece,
    damath_takings,
    legal_moves,
    play,
    start_position,
)

DAMATH = {
    "damath-official": ("official", {}),
    "damath-online": ("online", {}),
    "damath-loose": ("official", {"dama_trail": "loose"}),
}
NAMES = tuple(RULES)
LABELS = ("-11", "-9", "-7", "-5", "-3", "-1", "0", "2", "4", "6", "8", "10")
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def engine_game(name: str, pieces: dict, side: int, values: dict | None = None) -> Game:
    """The engine's game for a position given as square -> Piece (values: Damath labels)."""
    if name in DAMATH:
        profile, changes = DAMATH[name]
        listed = [
            {
                "square": list(sq),
                "side": "blue" if p.side == 0 else "red",
                "value": (values or {}).get(sq, "2"),
                "dama": p.king,
            }
            for sq, p in pieces.items()
        ]
        position = {
            "variant": "integer",
            "profile": profile,
            "to_move": "blue" if side == 0 else "red",
            "pieces": listed,
        }
        if changes:
            position["settings"] = changes
        return game_from_json(position)
    rules = GAMES[name].rules
    return Game(rules, {sq: Chip(p.side, None, p.king) for sq, p in pieces.items()}, side)


def position_of(game: Game) -> tuple[dict, dict, dict]:
    chips = game.chips()
    pieces = {sq: Piece(c.side, c.dama) for sq, c in chips.items()}
    values = {sq: str(c.value) for sq, c in chips.items()}
    kings = {sq: c.dama for sq, c in chips.items()}
    return pieces, values, kings


def assert_same_moves(name: str, game: Game) -> list:
    pieces, values, kings = position_of(game)
    expected = legal_moves(RULES[name], pieces, game.side_to_move)
    engine = game.legal_moves()
    got = sorted(OracleMove(m.path, m.captures, m.promotes, m.chip.dama) for m in engine)
    assert got == expected, (name, game.side_to_move, sorted(pieces.items()))
    if name in DAMATH:
        for m in engine:
            move = OracleMove(m.path, m.captures, m.promotes, m.chip.dama)
            written = [
                (str(t.taker.value), str(t.taken.value), t.square, t.operator, t.multiplier)
                for t in m.takings
            ]
            assert written == damath_takings(move, values, kings), m
    return engine


def start_game(name: str) -> Game:
    if name in DAMATH:
        profile, changes = DAMATH[name]
        game = Game.new("integer", profile)
        if changes:
            return game_from_json(
                {
                    "variant": "integer",
                    "profile": profile,
                    "settings": changes,
                    "to_move": "blue",
                    "pieces": [
                        {"square": list(sq), "side": "blue" if c.side == 0 else "red",
                         "value": str(c.value), "dama": c.dama}
                        for sq, c in game.chips().items()
                    ],
                }
            )  # fmt: skip
        return game
    return engine_game(name, start_position(RULES[name]), 0)


# ---------------------------------------------------------------------------- reachable


@pytest.mark.parametrize("name", NAMES)
@settings(SETTINGS, max_examples=8)
@given(seed=st.integers(0, 2**32), plies=st.integers(20, 150))
def test_positions_reached_by_play_have_the_reference_moves(name, seed, plies):
    rng = random.Random(seed)
    game = start_game(name)
    pieces, values, _ = position_of(game)  # the reference keeps its own board from here on
    for _ in range(plies):
        moves = assert_same_moves(name, game)
        if not moves:
            break
        move = game.push(rng.choice(moves))
        mine = OracleMove(move.path, move.captures, move.promotes, move.chip.dama)
        pieces = play(pieces, mine)
        values = {sq: v for sq, v in values.items() if sq not in move.captures}
        values[move.end] = values.pop(move.start)
        now, now_values, _ = position_of(game)
        assert now == pieces, (name, move)
        if name in DAMATH:
            assert now_values == values, (name, move)


# ---------------------------------------------------------------------------- constructed

# A square holds nothing, a man or a king of either side; kings are common enough that most
# boards have several, and captures by kings are the rule rather than the exception. Boards
# range from crowded to nearly empty (long flying captures round the board).
PIECE_CODES = ("m0", "m1", "m0", "m1", "k0", "k1")


@st.composite
def boards(draw, name: str):
    rules = RULES[name]
    size = rules.size
    squares = [(x, y) for y in range(size) for x in range(size) if (x + y) % 2 == 1]
    codes_here = ("",) * draw(st.integers(2, 24)) + PIECE_CODES
    n = len(squares)
    codes = draw(st.lists(st.sampled_from(codes_here), min_size=n, max_size=n))
    pieces = {}
    for sq, code in zip(squares, codes, strict=True):
        if not code:
            continue
        side, king = int(code[1]), code[0] == "k"
        if not king and sq[1] == (size - 1 if side == 0 else 0):
            king = True  # a man cannot stand on the row where it would have been crowned
        pieces[sq] = Piece(side, king)
    if name in DAMATH:  # at most 12 chips a side (docs/rules.md E-3)
        for side in (0, 1):
            mine = [sq for sq, p in pieces.items() if p.side == side]
            for sq in mine[12:]:
                del pieces[sq]
    values = {sq: draw(st.sampled_from(LABELS)) for sq in sorted(pieces)}
    side = draw(st.integers(0, 1))
    return pieces, values, side


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@settings(SETTINGS, max_examples=150)
@given(data=st.data())
def test_positions_built_at_random_have_the_reference_moves(name, data):
    pieces, values, side = data.draw(boards(name))
    assert_same_moves(name, engine_game(name, pieces, side, values))


@st.composite
def lone_kings(draw, name: str):
    """One king of the side to move among the other side's scattered pieces: the long,
    winding capture sequences where a flying king's trail (D-3) and every tie-break show."""
    rules = RULES[name]
    size = rules.size
    squares = [(x, y) for y in range(size) for x in range(size) if (x + y) % 2 == 1]
    chosen = draw(st.lists(st.sampled_from(squares), min_size=4, max_size=11, unique=True))
    side = draw(st.integers(0, 1))
    pieces = {chosen[0]: Piece(side, True)}
    for sq in chosen[1:]:
        king = draw(st.booleans()) or sq[1] == (size - 1 if side == 1 else 0)
        pieces[sq] = Piece(1 - side, king)
    values = {sq: draw(st.sampled_from(LABELS)) for sq in sorted(pieces)}
    return pieces, values, side


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@settings(SETTINGS, max_examples=150)
@given(data=st.data())
def test_a_lone_king_among_scattered_pieces_has_the_reference_moves(name, data):
    pieces, values, side = data.draw(lone_kings(name))
    assert_same_moves(name, engine_game(name, pieces, side, values))
