"""Capture rules in the positions where a one-word slip in the generator shows.

Each position was found by mutation testing (docs/testing.md): with the slip named in the
test's docstring, the engine lists other moves there, and no other test in the suite noticed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.rules import Chip, Game
from controller.rules.draughts import GAMES
from controller.rules.movegen import Board
from tests.rules.helpers import make_game, paths


def draughts(name: str, pieces: dict[tuple[int, int], str], side: int = 0) -> Game:
    """``pieces``: square -> ``m0``/``m1`` (a man of the first/second mover) or ``k0``/``k1``."""
    chips = {sq: Chip(int(code[1]), None, code[0] == "k") for sq, code in pieces.items()}
    return Game(GAMES[name].rules, chips, side)


def test_a_chip_at_the_edge_still_takes_the_other_way():
    """Slip: the look in one direction stopping the look in the others (``continue`` to
    ``break``) when that direction runs off the board."""
    game = make_game({(7, 2): "b", (6, 3): "r", (0, 7): "r"})
    assert paths(game) == {((7, 2), (5, 4))}
    game = make_game({(6, 7): "r", (7, 6): "b", (5, 6): "b", (1, 0): "b"}, to_move="red")
    assert paths(game) == {((6, 7), (4, 5))}


def test_d3_a_dama_never_lands_where_it_slid_before_its_first_taking():
    """The dama slides over (4,1) and (3,2) to take on (2,3); three takings later the jump
    over (5,2) would land on (4,1) or beyond it: its own trail. Slip: keeping only the last
    square slid over (``passed |=`` to ``passed =``)."""
    pieces = {(5, 0): "B", (2, 3): "r", (3, 6): "r", (5, 2): "r", (5, 6): "r"}
    assert paths(make_game(pieces)) == {
        ((5, 0), (1, 4), (4, 7), (6, 5)),
        ((5, 0), (1, 4), (4, 7), (7, 4)),
    }
    assert paths(make_game(pieces, dama_trail="loose")) == {
        ((5, 0), (1, 4), (4, 7), (7, 4), (3, 0)),
        ((5, 0), (1, 4), (4, 7), (7, 4), (4, 1)),
    }


def test_d3_a_dama_never_crosses_the_squares_of_an_earlier_leg():
    """The first leg crosses (5,6); the fourth taking, over (6,5), would land there. Slips:
    the trail not growing with the squares of a leg (``passed |=`` to ``passed =`` on
    landing), or not handed to the next leg at all."""
    pieces = {(6, 7): "B", (2, 1): "r", (2, 3): "r", (4, 7): "r", (5, 2): "r", (6, 5): "r"}
    assert paths(make_game(pieces)) == {
        ((6, 7), (1, 2), (3, 0), (6, 3)),
        ((6, 7), (1, 2), (3, 0), (7, 4)),
    }
    assert paths(make_game(pieces, dama_trail="loose")) == {
        ((6, 7), (1, 2), (3, 0), (7, 4), (5, 6)),
    }


def test_d1_taking_a_dama_or_a_chip_is_the_players_choice_in_both_profiles():
    """Equal counts, both by a dama: neither profile prefers taking a dama (that is Italian
    draughts' rule). Slip: the Italian tie-breaks applied to other rule sets."""
    pieces = {(3, 2): "B", (4, 3): "r", (2, 3): "R", (0, 7): "r"}
    for profile in ("official", "online"):
        moves = paths(make_game(pieces, profile=profile))
        assert ((3, 2), (5, 4)) in moves and ((3, 2), (1, 4)) in moves, profile
        assert {m[1] for m in moves} == {(5, 4), (6, 5), (7, 6), (1, 4), (0, 5)}


def test_italian_men_may_not_take_kings_but_kings_may():
    man = draughts("italian", {(3, 2): "m0", (4, 3): "k1", (7, 6): "m1"})
    assert {m.path for m in man.legal_moves()} == {((3, 2), (2, 3))}
    king = draughts("italian", {(3, 2): "k0", (4, 3): "k1", (7, 6): "m1"})
    assert {m.path for m in king.legal_moves()} == {((3, 2), (5, 4))}


def test_italian_a_king_takes_the_kings_first():
    """Two sequences of two takings by a king, each taking one king: the one that meets the
    king first must be played."""
    game = draughts("italian", {(3, 2): "k0", (4, 3): "k1", (6, 5): "m1", (2, 3): "m1",
                                (2, 5): "k1"})  # fmt: skip
    assert {m.path for m in game.legal_moves()} == {((3, 2), (5, 4), (7, 6))}


def test_italian_a_king_takes_the_most_kings():
    game = draughts("italian", {(3, 2): "k0", (4, 3): "k1", (6, 5): "k1", (2, 3): "m1",
                                (2, 5): "m1"})  # fmt: skip
    assert {m.path for m in game.legal_moves()} == {((3, 2), (5, 4), (7, 6))}


def test_english_king_takes_backward_and_forward_in_one_sequence():
    """A king (not flying) jumps only an adjacent piece, in any direction, and goes on."""
    game = draughts("english", {(3, 2): "k0", (4, 1): "m1", (6, 1): "m1", (6, 3): "m1",
                                (0, 7): "m1"})  # fmt: skip
    moves = game.legal_moves()
    assert [(m.path, m.captures, m.chip.dama) for m in moves] == [
        (((3, 2), (5, 0), (7, 2), (5, 4)), ((4, 1), (6, 1), (6, 3)), True)
    ]
    man = draughts("english", {(3, 2): "m0", (4, 1): "m1", (0, 7): "m1"})
    assert all(not m.captures for m in man.legal_moves())


def test_english_king_does_not_fly():
    game = draughts("english", {(0, 1): "k0", (3, 4): "m1", (7, 6): "m1"})
    assert {m.path for m in game.legal_moves()} == {((0, 1), (1, 2)), ((0, 1), (1, 0))}


def test_d3_the_trail_keeps_growing_leg_after_leg():
    """Red's dama: every fifth taking would land on or pass a square it slid over in its
    second leg ((2,1) or (2,5)); the strict trail forbids it, the loose reading allows it.
    Slip: a trail that stops growing after the first leg (the strict rule not handed on)."""
    pieces = {(1, 2): "b", (1, 4): "b", (3, 2): "b", (3, 4): "B", (4, 1): "B", (4, 5): "b",
              (6, 3): "R"}  # fmt: skip
    strict = paths(make_game(pieces, to_move="red"))
    assert strict == {
        ((6, 3), (3, 0), (0, 3), (2, 5), (4, 3)),
        ((6, 3), (3, 0), (0, 3), (3, 6), (5, 4)),
        ((6, 3), (3, 6), (0, 3), (2, 1), (4, 3)),
        ((6, 3), (3, 6), (0, 3), (3, 0), (5, 2)),
    }
    loose = paths(make_game(pieces, to_move="red", dama_trail="loose"))
    assert len(loose) == 10 and all(len(p) == 6 for p in loose)


def test_the_generator_lists_only_complete_capture_sequences():
    """Before any priority rule, ``captures()`` lists sequences played to their end: a dama
    that can go on taking from a landing square never stops there."""
    game = make_game({(0, 1): "B", (2, 3): "r", (5, 6): "r", (0, 7): "r"})
    board = game.generator_board()
    squares = board.geo.squares
    listed = {tuple(squares[i] for i in raw[0]) for raw in board.captures()}
    assert listed == {((0, 1), (3, 4), (6, 7)), ((0, 1), (4, 5), (6, 7))}


def test_a_promoted_chip_stays_on_its_own_side_and_keeps_its_value():
    """Slip: the new dama given the wrong colour (``KING``/``-KING`` mixed up on promotion)."""
    for side, start, pieces in (
        ("blue", (1, 6), {(1, 6): "b:-9", (7, 2): "r:4"}),
        ("red", (2, 1), {(2, 1): "r:-9", (7, 6): "b:4"}),
    ):
        game = make_game(pieces, to_move=side)
        move = next(m for m in game.legal_moves() if m.start == start)
        game.push(move)
        chip = game.chip_at(move.end)
        assert (chip.side, str(chip.value), chip.dama) == (0 if side == "blue" else 1, "-9", True)
        game.pop()
        assert game.chip_at(start) == move.chip


def test_italian_a_man_beside_a_king_it_may_not_take_still_takes_a_man():
    """Slip: a king it may not take ending the man's look in the other directions."""
    for side, man, king, other, landing in (
        (0, (3, 2), (4, 3), (2, 3), (1, 4)),
        (1, (4, 5), (5, 4), (3, 4), (2, 3)),
    ):
        enemy = str(1 - side)
        game = draughts("italian", {man: f"m{side}", king: "k" + enemy, other: "m" + enemy},
                        side)  # fmt: skip
        assert {m.path for m in game.legal_moves()} == {(man, landing)}


def test_a_board_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="a 8x8 board has 32 squares"):
        Board(GAMES["english"].rules, [0] * 50, 0)


def test_a_rule_set_on_the_other_colour_plays_on_those_squares():
    """``parity`` chooses the playable squares: (0, 0) is one when parity is 0."""
    rules = replace(GAMES["english"].rules, name="english-light", parity=0)
    board = Board(rules, [0] * 32, 0)
    assert board.geo.is_playable((0, 0)) and not board.geo.is_playable((1, 0))
    game = Game(rules, {(0, 0): Chip(0), (7, 7): Chip(1)}, 0)
    assert {m.path for m in game.legal_moves()} == {((0, 0), (1, 1))}


def test_raw_moves_say_whether_a_king_moves():
    """The generator's raw moves end with "moved piece is a king", quiet moves too."""
    game = make_game({(1, 2): "b", (5, 2): "B", (6, 7): "r"})
    board = game.generator_board()
    squares = board.geo.squares
    flags = {(squares[raw[0][0]], raw[3]) for raw in board.quiet_moves()}
    assert flags == {((1, 2), False), ((5, 2), True)}
