"""Damath movement, clause by clause (RULES.md §1–3, §5, D-1 … D-5, D-9).

Each test builds a position by hand and names the clause it checks.
"""

from __future__ import annotations

import pytest

from controller.rules import damath_data
from controller.rules.game import Game, IllegalMove
from controller.rules.move import BLUE, RED
from controller.rules.notation import NotationError, game_from_json
from controller.rules.profiles import RulesProfileError, get_profile

from .helpers import make_game, paths

# ---------------------------------------------------------------- §1–2 board and placements


def test_s1_operator_grid_matches_the_rules_table():
    rows = {
        7: "× ÷ − +",
        6: "÷ × + −",
        5: "− + × ÷",
        4: "+ − ÷ ×",
        3: "× ÷ − +",
        2: "÷ × + −",
        1: "− + × ÷",
        0: "+ − ÷ ×",
    }
    for y, ops in rows.items():
        got = [damath_data.OPERATORS[(x, y)] for x in range(8) if (x + y) % 2 == 1]
        assert got == ops.split(), y
    assert len(damath_data.OPERATORS) == 32
    assert (0, 0) not in damath_data.OPERATORS


def test_s2_red_is_blue_rotated_with_the_same_values():
    for variant in damath_data.VARIANTS:
        game = Game.new(variant)
        chips = game.chips()
        assert len(chips) == 24
        for x, y in damath_data.BLUE_SQUARES:
            blue, red = chips[(x, y)], chips[(7 - x, 7 - y)]
            assert (blue.side, red.side) == (BLUE, RED)
            assert blue.value == red.value


def test_s2_placements_as_in_the_table():
    game = Game.new("integer")
    assert str(game.chip_at((1, 2)).value) == "-9"
    assert str(game.chip_at((6, 5)).value) == "-9"
    assert str(game.chip_at((4, 1)).value) == "10"
    assert str(Game.new("radical").chip_at((5, 2)).value) == "4√18"
    assert str(Game.new("polynomial").chip_at((1, 2)).value) == "-3x²y"
    assert str(Game.new("fraction").chip_at((1, 2)).value) == "10/10"


@pytest.mark.parametrize("variant", damath_data.VARIANTS)
def test_s8_seven_legal_moves_from_the_opening(variant):
    game = Game.new(variant)
    assert game.side_to_move == BLUE
    assert len(game.legal_moves()) == 7


def test_s2_manual_integer_sheet_opening_moves():
    """RULES.md §2: the manual's sheet starts -9 (0,3), -1 (1,4), -9 + (-1), 10 + (-9)."""
    game = Game.new("integer")
    game.push(game.find_move([(1, 2), (0, 3)]))
    game.push(game.find_move([(2, 5), (1, 4)]))
    take = game.push(game.find_move([(0, 3), (2, 5)]))
    (t,) = take.takings
    assert (str(t.taker.value), t.operator, str(t.taken.value), t.square) == (
        "-9",
        "+",
        "-1",
        (2, 5),
    )
    reply = game.push(game.find_move([(3, 6), (1, 4)]))
    (t,) = reply.takings
    assert (str(t.taker.value), t.operator, str(t.taken.value), t.square) == (
        "10",
        "+",
        "-9",
        (1, 4),
    )


# ---------------------------------------------------------------- §3 ordinary chips


def test_s3_ordinary_chip_steps_one_square_diagonally_forward_only():
    game = make_game({(3, 4): "b", (6, 1): "r"})
    assert {p for p in paths(game) if p[0] == (3, 4)} == {((3, 4), (2, 5)), ((3, 4), (4, 5))}


def test_s3_red_moves_forward_towards_row_zero():
    game = make_game({(3, 4): "r", (6, 1): "b"}, to_move="red")
    assert paths(game) == {((3, 4), (2, 3)), ((3, 4), (4, 3))}


def test_s3_step_needs_an_empty_square():
    game = make_game({(3, 4): "b", (2, 5): "b", (4, 5): "b", (0, 7): "R"})
    assert not any(p[0] == (3, 4) for p in paths(game))


def test_s3_taking_is_mandatory():
    game = make_game({(3, 4): "b", (4, 5): "r", (0, 1): "b"})
    moves = game.legal_moves()
    assert all(m.captures for m in moves)
    assert paths(game) == {((3, 4), (5, 6))}
    with pytest.raises(IllegalMove, match="taking is mandatory"):
        game.find_move([(0, 1), (1, 2)])


def test_s3_ordinary_chip_takes_backward():
    game = make_game({(3, 4): "b", (2, 3): "r", (7, 6): "r"})
    assert paths(game) == {((3, 4), (1, 2))}


def test_s3_ordinary_chip_goes_on_taking():
    game = make_game({(1, 0): "b", (2, 1): "r", (4, 3): "r", (4, 5): "r"})
    assert paths(game) == {((1, 0), (3, 2), (5, 4), (3, 6))}
    (move,) = game.legal_moves()
    assert move.captures == ((2, 1), (4, 3), (4, 5))


def test_s3_ordinary_chip_cannot_take_its_own_chip():
    game = make_game({(3, 4): "b", (4, 5): "b", (0, 7): "R"})
    assert not any(m.captures for m in game.legal_moves())


# ---------------------------------------------------------------- D-1 which capture must be made


def test_d1_mayor_dalawa_two_beat_one():
    game = make_game({(1, 0): "b", (2, 1): "r", (4, 3): "r", (6, 1): "b", (5, 2): "r"})
    assert paths(game) == {((1, 0), (3, 2), (5, 4))}


def test_d1_mayor_tatlo_three_beat_two():
    pieces = {(1, 0): "b", (2, 1): "r", (4, 3): "r", (4, 5): "r"}
    pieces |= {(7, 0): "b", (6, 1): "r", (4, 1): "r"}  # the other chip could take two
    game = make_game(pieces)
    assert {len(m.captures) for m in game.legal_moves()} == {3}


def test_d1_mayor_dama_a_dama_takes_before_a_chip_of_equal_count():
    game = make_game({(0, 1): "B", (2, 3): "r", (6, 1): "b", (5, 2): "r"})
    assert {m.start for m in game.legal_moves()} == {(0, 1)}


# The dama in the corner can take one chip; the chip on the left can take two.
DAMA_ONE_CHIP_TWO = {(7, 0): "B", (6, 1): "r", (4, 3): "b", (0, 5): "b", (1, 6): "r", (3, 6): "r"}


def test_d1_mayor_dalawa_over_dama_more_chips_first_in_official():
    game = make_game(DAMA_ONE_CHIP_TWO)
    assert paths(game) == {((0, 5), (2, 7), (4, 5))}


@pytest.mark.parametrize(
    ("setting", "value", "allowed"),
    [
        ("capture_priority", "any", "most-then-dama, dama-then-most"),
        ("capture_priority", "most", "most-then-dama, dama-then-most"),
        ("capture_priority", "italian", "most-then-dama, dama-then-most"),
        ("dama_trail", "free", "strict, loose"),
    ],
)
def test_d1_d3_a_damath_profile_refuses_the_draughts_rules_naming_its_own(setting, value, allowed):
    """English, International and Italian priorities (and the free trail) are other games' rules:
    a Damath game given one would play draughts' choice of takings under Damath's name."""
    expected = (
        f"profile setting {setting}: {value!r} is a draughts rule, not Damath's; "
        f"a Damath game takes one of {allowed}"
    )
    for profile in ("official", "online"):
        with pytest.raises(RulesProfileError) as err:
            get_profile(profile).with_settings({setting: value})
        assert str(err.value) == expected
    with pytest.raises(NotationError, match=expected):
        game_from_json({"settings": {setting: value}})
    for kept in allowed.split(", "):  # the Damath values are still taken, either way round
        assert (
            getattr(get_profile("official").with_settings({setting: kept}), setting).value == kept
        )


def test_d1_online_profile_dama_first_then_most():
    game = make_game(DAMA_ONE_CHIP_TWO, profile="online")
    assert paths(game) == {((7, 0), (5, 2))}


def test_d1_two_damas_taking_the_same_number_is_the_players_choice():
    game = make_game({(0, 1): "B", (2, 3): "r", (7, 0): "B", (5, 2): "r"})
    assert {m.start for m in game.legal_moves()} == {(0, 1), (7, 0)}


# ---------------------------------------------------------------- promotion and D-2


def test_s3_chip_becomes_dama_when_its_move_ends_on_the_back_row():
    game = make_game({(1, 6): "b", (7, 2): "r"})
    moves = {m.end: m for m in game.legal_moves()}
    assert moves[(0, 7)].promotes and moves[(2, 7)].promotes
    game.push(moves[(0, 7)])
    assert game.chip_at((0, 7)).dama


def test_s3_red_becomes_dama_on_blues_back_row():
    game = make_game({(2, 1): "r", (7, 6): "b"}, to_move="red")
    assert all(m.promotes for m in game.legal_moves())


def test_d2_chip_reaching_the_back_row_mid_capture_goes_on_as_ordinary_chip():
    game = make_game({(2, 5): "b", (3, 6): "r", (5, 6): "r", (0, 1): "r"})
    (move,) = game.legal_moves()
    assert move.path == ((2, 5), (4, 7), (6, 5))
    assert not move.promotes
    game.push(move)
    assert not game.chip_at((6, 5)).dama


def test_d2_capture_that_ends_on_the_back_row_promotes():
    game = make_game({(2, 5): "b", (3, 6): "r", (0, 1): "r"})
    (move,) = game.legal_moves()
    assert move.end == (4, 7) and move.promotes


# ---------------------------------------------------------------- the dama


def test_s3_dama_moves_any_distance_forward_and_backward_until_blocked():
    game = make_game({(3, 4): "B", (5, 6): "b", (0, 1): "r"})
    ends = {m.end for m in game.legal_moves() if m.start == (3, 4)}
    assert ends == {(4, 5), (2, 5), (1, 6), (0, 7), (4, 3), (5, 2), (6, 1), (7, 0), (2, 3), (1, 2)}
    assert (6, 7) not in ends  # behind its own chip


def test_s3_dama_takes_at_a_distance_and_lands_on_any_empty_square_beyond():
    game = make_game({(0, 1): "B", (3, 4): "r", (0, 7): "r"})
    assert paths(game) == {((0, 1), (4, 5)), ((0, 1), (5, 6)), ((0, 1), (6, 7))}


def test_s3_dama_changes_diagonal_at_a_landing_square():
    game = make_game({(0, 1): "B", (2, 3): "r", (2, 5): "r", (7, 2): "r"})
    # Only from (3, 4) can it turn up-left over (2, 5); then it lands where it likes beyond.
    assert paths(game) == {((0, 1), (3, 4), (1, 6)), ((0, 1), (3, 4), (0, 7))}


def test_s3_dama_cannot_jump_two_chips_in_a_row():
    game = make_game({(0, 1): "B", (2, 3): "r", (3, 4): "r", (7, 0): "b"})
    assert not any(m.captures for m in game.legal_moves())


# ---------------------------------------------------------------- D-3 the dama's trail


TRAIL = {(0, 1): "B", (3, 4): "r", (3, 6): "r", (1, 6): "r", (1, 4): "r"}


def test_d3_dama_never_crosses_its_own_trail_even_at_a_right_angle():
    game = make_game(TRAIL)
    assert paths(game) == {((0, 1), (4, 5), (2, 7), (0, 5))}


def test_d3_looser_reading_lets_it_cross_its_trail():
    game = make_game(TRAIL, dama_trail="loose")
    assert {len(m.captures) for m in game.legal_moves()} == {4}
    assert {m.end for m in game.legal_moves()} == {(2, 3), (3, 2), (4, 1), (5, 0)}


LOOP = {(0, 3): "B", (1, 4): "r", (3, 4): "r", (3, 2): "r", (1, 2): "r"}


def test_d3_dama_cannot_return_to_its_starting_square():
    for trail in ("strict", "loose"):
        game = make_game(LOOP, dama_trail=trail)
        assert {len(m.captures) for m in game.legal_moves()} == {3}, trail
        assert all((0, 3) not in m.path[1:] for m in game.legal_moves())


def test_d3_without_the_rule_the_dama_could_close_the_loop():
    """The generic core alone (International draughts' freedom) would allow it."""
    from controller.rules.game import Game as G
    from controller.rules.ruleset import Trail

    base = make_game(LOOP)
    free = G(
        base.rules.__class__(**{**base.rules.__dict__, "king_trail": Trail.FREE}),
        base.chips(),
        BLUE,
        variant="integer",
        profile=base.profile,
    )
    assert {len(m.captures) for m in free.legal_moves()} == {4}


# ---------------------------------------------------------------- D-4 and D-5


RING = {(2, 1): "b", (3, 2): "r", (3, 4): "r", (1, 4): "r", (1, 2): "r", (7, 6): "r"}


def test_d4_no_chip_is_jumped_twice_and_taken_chips_block_until_the_end():
    game = make_game(RING)
    for move in game.legal_moves():
        assert len(set(move.captures)) == len(move.captures) == 4
        assert move.end == (2, 1)  # back on its start: allowed for an ordinary chip


def test_d5_same_start_end_and_taken_chips_by_different_landings_are_different_moves():
    game = make_game(RING)
    moves = game.legal_moves()
    assert {m.path for m in moves} == {
        ((2, 1), (4, 3), (2, 5), (0, 3), (2, 1)),
        ((2, 1), (0, 3), (2, 5), (4, 3), (2, 1)),
    }
    a, b = moves
    assert set(a.captures) == set(b.captures) and a != b
    ops_a = {t.taken_square: t.operator for t in a.takings}
    ops_b = {t.taken_square: t.operator for t in b.takings}
    assert ops_a != ops_b  # the landing squares carry the operators, so the scores differ


# ---------------------------------------------------------------- takings for the scorer


def test_s4_taking_carries_taker_taken_square_operator_and_multiplier():
    game = make_game({(3, 4): "b:-5", (4, 5): "R:10", (0, 1): "b"})
    (move,) = game.legal_moves()
    (t,) = move.takings
    assert str(t.taker.value) == "-5" and not t.taker.dama
    assert str(t.taken.value) == "10" and t.taken.dama
    assert t.taken_square == (4, 5) and t.square == (5, 6)
    assert t.operator == damath_data.OPERATORS[(5, 6)]
    assert t.multiplier == 2


def test_s4_dama_takes_dama_multiplier_four_and_dama_takes_chip_two():
    game = make_game({(0, 1): "B", (2, 3): "R", (4, 5): "r", (7, 2): "r"})
    moves = game.legal_moves()
    assert {m.end for m in moves} == {(5, 6), (6, 7)}
    for move in moves:
        assert [t.multiplier for t in move.takings] == [4, 2]


# ---------------------------------------------------------------- §5 end of the game, D-9


def test_s5_game_ends_when_the_side_to_move_has_no_chip():
    game = make_game({(3, 4): "b"}, to_move="red")
    ending = game.ending()
    assert ending is not None and ending.reason == "no-chips" and ending.side == RED


def test_s5_a_cornered_chip_ends_the_game():
    game = make_game({(0, 1): "r", (1, 0): "b", (1, 2): "b", (2, 3): "b"}, to_move="red")
    assert game.legal_moves() == []
    assert game.ending().reason == "no-moves"


SHUFFLE = [[(1, 0), (0, 1)], [(6, 7), (7, 6)], [(0, 1), (1, 0)], [(7, 6), (6, 7)]]


def test_d9_third_occurrence_of_a_position_ends_the_game():
    game = make_game({(1, 0): "B", (6, 7): "R"})
    for i in range(8):
        assert game.ending() is None, i
        game.push(game.find_move(SHUFFLE[i % 4]))
    assert game.repetitions() == 3
    assert game.ending().reason == "repetition"


def test_d9_online_single_chip_five_repeated_moves():
    game = make_game({(1, 0): "B", (6, 7): "R"}, profile="online")
    for i in range(9):
        assert game.ending() is None, i
        game.push(game.find_move(SHUFFLE[i % 4]))
    assert game.ending().reason == "repetition"


# ---------------------------------------------------------------- push and pop


def test_pop_restores_the_position_values_and_repetition_counts():
    game = make_game(RING)
    before = (game.chips(), game.side_to_move, game.repetitions())
    game.push(game.legal_moves()[0])
    assert game.chips() != before[0]
    game.pop()
    assert (game.chips(), game.side_to_move, game.repetitions()) == before


def test_push_refuses_a_move_that_is_not_legal_with_a_reason():
    game = Game.new("integer")
    with pytest.raises(IllegalMove, match="no chip"):
        game.find_move([(2, 3), (3, 4)])
    with pytest.raises(IllegalMove, match="blue's turn"):
        game.find_move([(2, 5), (3, 4)])
    with pytest.raises(IndexError):
        game.pop()
