"""Dam, clause by clause (docs/rules-dam.md: M-1 … M-9 and this project's ME-n).

Positions are drawn by hand on the 12×12 board (playable squares have x + y odd); Black (the
first mover) sits at y = 0 and moves up.
"""

from __future__ import annotations

import pytest

from controller.rules.dam import COLOURS, DEFAULT, DamGame, DamSettings
from controller.rules.dam_notation import dam_from_json


def dam(pieces: dict[tuple[int, int], str], to_move: int = 0, **settings) -> DamGame:
    """``b``/``w`` a black/white man, ``B``/``W`` a king; read through the checked JSON format."""
    listed = [
        {
            "square": list(sq),
            "side": "black" if code.lower() == "b" else "white",
            "king": code.isupper(),
        }
        for sq, code in pieces.items()
    ]
    position = {"game": "dam", "to_move": COLOURS[to_move], "pieces": listed, "settings": settings}
    return dam_from_json(position)


def paths(game: DamGame) -> set[tuple[tuple[int, int], ...]]:
    return {m.path for m in game.legal_moves()}


# ---------------------------------------------------------------- M-1 board and men


def test_m1_thirty_men_a_side_on_the_first_five_rows_leaving_two_rows_empty():
    game = DamGame.opening()
    chips = game.chips()
    assert game.geo.count == 72
    assert all(len(game.geo.row(y)) == 6 for y in range(12))
    black = [sq for sq, c in chips.items() if c.side == 0]
    white = [sq for sq, c in chips.items() if c.side == 1]
    assert len(black) == len(white) == 30
    assert {y for _, y in black} == {0, 1, 2, 3, 4}
    assert {y for _, y in white} == {7, 8, 9, 10, 11}
    assert not any(y in (5, 6) for _, y in chips)
    assert all((x + y) % 2 == 1 for x, y in chips)
    assert not any(c.dama for c in chips.values())


def test_m1_three_rows_could_not_hold_thirty_men():
    """The other summary's "first three ranks" leaves eighteen places: not thirty."""
    game = DamGame.opening()
    assert sum(len(game.geo.row(y)) for y in range(3)) == 18 < 30


def test_me_black_moves_first_as_in_english_draughts():
    game = DamGame.opening()
    assert game.side_to_move == 0
    assert {m.start[1] for m in game.legal_moves()} == {4}
    assert len(game.legal_moves()) == 11


# ---------------------------------------------------------------- M-2 men


def test_m2_a_man_steps_forward_or_backward():
    game = dam({(5, 6): "b", (0, 11): "w"})
    assert paths(game) == {((5, 6), (4, 7)), ((5, 6), (6, 7)), ((5, 6), (4, 5)), ((5, 6), (6, 5))}


def test_m2_a_man_takes_backward_and_goes_on_to_the_end_of_its_sequence():
    game = dam({(5, 6): "b", (4, 5): "w", (4, 3): "w", (0, 11): "w"})
    assert paths(game) == {((5, 6), (3, 4), (5, 2))}
    (move,) = game.legal_moves()
    assert move.captures == ((4, 5), (4, 3))


def test_m2_a_man_cannot_jump_its_own_piece_nor_two_in_a_row():
    game = dam({(5, 6): "b", (6, 7): "b", (4, 5): "w", (3, 4): "w", (0, 11): "w"})
    assert not any(m.captures for m in game.legal_moves())


# ---------------------------------------------------------------- M-3 taking


def _two_takings(**settings) -> DamGame:
    # (1,2) can take one man; (7,2) can take two.
    pieces = {(1, 2): "b", (2, 3): "w", (7, 2): "b", (8, 3): "w", (8, 5): "w", (0, 11): "w"}
    return dam(pieces, **settings)


def test_m3_taking_is_compulsory_and_the_player_chooses_freely():
    assert paths(_two_takings()) == {((1, 2), (3, 4)), ((7, 2), (9, 4), (7, 6))}


def test_m3_setting_most_keeps_only_the_takings_of_the_most_pieces():
    assert paths(_two_takings(capture_priority="most")) == {((7, 2), (9, 4), (7, 6))}


# ---------------------------------------------------------------- M-4 crowning


def test_m4_a_man_that_ends_on_the_far_row_is_crowned():
    game = dam({(3, 10): "b", (0, 1): "w"})
    moves = {m.path: m for m in game.legal_moves()}
    assert moves[((3, 10), (2, 11))].promotes and moves[((3, 10), (4, 11))].promotes
    game.push(moves[((3, 10), (2, 11))])
    assert game.chip_at((2, 11)).dama


def test_m4_crowning_during_a_taking_ends_the_move():
    # From (6, 11) the man could go on backward over (7, 10): crowned, it stops.
    pieces = {(4, 9): "b", (5, 10): "w", (7, 10): "w", (0, 1): "w"}
    (move,) = dam(pieces).legal_moves()
    assert move.path == ((4, 9), (6, 11)) and move.promotes


def test_m4_setting_lets_the_man_go_on_as_a_man_instead():
    pieces = {(4, 9): "b", (5, 10): "w", (7, 10): "w", (0, 1): "w"}
    (move,) = dam(pieces, crowning_ends_move=False).legal_moves()
    assert move.path == ((4, 9), (6, 11), (8, 9)) and not move.promotes


# ---------------------------------------------------------------- M-5 kings fly


def test_m5_a_king_moves_any_distance_over_empty_squares():
    game = dam({(0, 1): "B", (11, 2): "w"})
    ends = {m.end for m in game.legal_moves()}
    assert ends == {(1, 0)} | {(k, k + 1) for k in range(1, 11)}


def test_m5_a_king_stops_before_a_piece():
    game = dam({(0, 1): "B", (4, 5): "b", (11, 2): "w"})
    king_ends = {m.end for m in game.legal_moves() if m.start == (0, 1)}
    assert king_ends == {(1, 0), (1, 2), (2, 3), (3, 4)}


# ---------------------------------------------------------------- M-6 the king's taking


def test_m6_a_king_takes_at_a_distance_and_may_stop_on_any_empty_square_beyond():
    game = dam({(0, 1): "B", (4, 5): "w"})
    assert paths(game) == {((0, 1), (k, k + 1)) for k in range(5, 11)}
    assert all(m.captures == ((4, 5),) for m in game.legal_moves())
    # a king is crowned already: its taking never "promotes", not even ending on the far row
    assert not any(m.promotes for m in game.legal_moves())


def test_m6_a_king_turns_at_a_right_angle_only_on_the_edge():
    # The leg up-right from (5, 0) over (7, 2) reaches the right edge at (11, 6); from there the
    # diagonal up-left runs over (8, 9). (10, 3) could only be reached by turning on (9, 4).
    game = dam({(5, 0): "B", (7, 2): "w", (8, 9): "w", (10, 3): "w"})
    assert paths(game) == {
        ((5, 0), (8, 3)),
        ((5, 0), (9, 4)),
        ((5, 0), (10, 5)),
        ((5, 0), (11, 6)),
        ((5, 0), (11, 6), (7, 10)),
        ((5, 0), (11, 6), (6, 11)),
    }
    assert not any((10, 3) in m.captures for m in game.legal_moves())


def test_m6_a_king_goes_on_along_the_same_diagonal_over_a_further_piece():
    game = dam({(5, 0): "B", (7, 2): "w", (9, 4): "w"})
    assert paths(game) == {
        ((5, 0), (8, 3)),
        ((5, 0), (8, 3), (10, 5)),
        ((5, 0), (8, 3), (11, 6)),
    }
    longest = next(m for m in game.legal_moves() if m.path == ((5, 0), (8, 3), (11, 6)))
    assert longest.captures == ((7, 2), (9, 4))


def test_m6_a_leg_after_the_edge_must_take():
    game = dam({(5, 0): "B", (7, 2): "w"})
    assert all(len(m.path) == 2 for m in game.legal_moves())
    assert {m.end for m in game.legal_moves()} == {(8, 3), (9, 4), (10, 5), (11, 6)}


def test_m6_no_turn_in_a_corner():
    # (11, 0) is a corner: no diagonal at a right angle leads back into the board.
    game = dam({(6, 5): "B", (8, 3): "w", (10, 3): "w"})
    assert paths(game) == {((6, 5), (9, 2)), ((6, 5), (10, 1)), ((6, 5), (11, 0))}


def test_m6_a_king_never_jumps_its_own_piece_nor_two_pieces_in_a_row():
    assert not any(m.captures for m in dam({(5, 0): "B", (7, 2): "b", (10, 11): "w"}).legal_moves())
    game = dam({(5, 0): "B", (7, 2): "w", (8, 3): "w"})
    assert not any(m.captures for m in game.legal_moves())


def test_m6_going_on_at_the_edge_is_a_choice():
    game = dam({(5, 0): "B", (7, 2): "w", (8, 9): "w"})
    assert ((5, 0), (11, 6)) in paths(game)
    assert ((5, 0), (11, 6), (7, 10)) in paths(game)


# ---------------------------------------------------------------- M-7, M-8


def test_m7_no_piece_is_jumped_twice_and_taken_pieces_stay_until_the_end():
    ring = {(2, 1): "b", (3, 2): "w", (3, 4): "w", (1, 4): "w", (1, 2): "w"}
    game = dam(ring)
    for move in game.legal_moves():
        assert len(set(move.captures)) == len(move.captures) == 4
        assert move.end == (2, 1)
    assert len(game.legal_moves()) == 2
    game.push(game.legal_moves()[0])
    assert set(game.chips()) == {(2, 1)}


def test_m7_a_king_that_runs_round_the_board_is_stopped_by_the_piece_it_took_first():
    # Legs (5,0)->(11,6)->(6,11)->(0,5)->(5,0) take one man each; back on its start square the
    # king may turn onto its first diagonal again, where the man taken on (7, 2) still stands.
    pieces = {(5, 0): "B", (7, 2): "w", (8, 9): "w", (3, 8): "w", (2, 3): "w"}
    game = dam(pieces)
    assert ((5, 0), (11, 6), (6, 11), (0, 5), (5, 0)) in paths(game)
    assert max(len(m.captures) for m in game.legal_moves()) == 4
    for move in game.legal_moves():
        assert len(set(move.captures)) == len(move.captures)


def test_m8_a_move_is_its_path_and_perft_counts_every_path():
    game = dam({(5, 0): "B", (7, 2): "w", (9, 4): "w"})
    assert len(game.legal_moves()) == len(paths(game)) == 3


# ---------------------------------------------------------------- M-9 end of the game


def test_m9_a_player_without_pieces_loses():
    game = dam({(1, 2): "b", (2, 3): "w"})
    game.push(game.legal_moves()[0])
    ending = game.ending()
    assert ending.reason == "no-chips" and ending.side == 1 and ending.winner == 0
    assert ending.describe() == "White has no piece left"


def test_m9_a_player_who_cannot_move_loses():
    # White's king in the corner (0, 11) faces two black men in a row on its only diagonal.
    blocked = dam({(0, 11): "W", (1, 10): "b", (2, 9): "b"}, to_move=1)
    assert blocked.legal_moves() == []
    assert blocked.ending().reason == "no-moves" and blocked.ending().winner == 0
    assert blocked.ending().describe() == "White cannot move"


def test_m9_threefold_repetition_is_a_draw():
    game = dam({(0, 1): "B", (11, 10): "W"})
    shuffle = [((0, 1), (1, 2)), ((11, 10), (10, 11)), ((1, 2), (0, 1)), ((10, 11), (11, 10))]
    for _ in range(2):
        for path in shuffle:
            assert game.ending() is None
            game.push(game.find_move(path))
    assert game.repetitions() == 3
    assert game.ending().reason == "repetition" and game.ending().winner is None


def test_m9_moves_without_a_taking_or_a_man_moved_end_in_a_draw():
    game = dam({(0, 1): "B", (11, 10): "W", (6, 1): "b"}, repetition="off", quiet_move_limit=2)
    king_moves = [((0, 1), (1, 2)), ((11, 10), (10, 11)), ((1, 2), (0, 1))]
    for path in king_moves:
        game.push(game.find_move(path))
    assert game.ending() is None and game.quiet_run() == 3
    game.push(game.find_move(((10, 11), (11, 10))))
    assert game.ending().reason == "quiet-moves"


def test_m9_a_man_moved_starts_the_quiet_count_again():
    game = dam({(0, 1): "B", (11, 10): "W", (6, 1): "b"}, repetition="off", quiet_move_limit=2)
    for path in [((0, 1), (1, 0)), ((11, 10), (10, 11)), ((6, 1), (7, 2)), ((10, 11), (11, 10))]:
        game.push(game.find_move(path))
    assert game.quiet_run() == 1 and game.ending() is None


def test_m9_settings_turn_the_draw_rules_off():
    game = dam({(0, 1): "B", (11, 10): "W"}, repetition="off", quiet_move_limit=0)
    shuffle = [((0, 1), (1, 2)), ((11, 10), (10, 11)), ((1, 2), (0, 1)), ((10, 11), (11, 10))]
    for _ in range(30):
        for path in shuffle:
            game.push(game.find_move(path))
    assert game.ending() is None


# ---------------------------------------------------------------- settings


def test_settings_defaults_are_the_documented_ones():
    assert DamSettings() == DamSettings(
        capture_priority="any", crowning_ends_move=True, quiet_move_limit=50, repetition="threefold"
    )


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"capture_priorty": "most"}, "unknown setting 'capture_priorty'"),
        ({"capture_priority": "most-then-king"}, "not one of any, most"),
        ({"crowning_ends_move": "yes"}, "expected true or false"),
        ({"quiet_move_limit": -1}, "whole number >= 0"),
    ],
)
def test_bad_settings_are_refused_with_the_choices(settings, message):
    with pytest.raises(ValueError, match=message):
        DEFAULT.with_settings(settings)


def test_undo_restores_the_position_and_the_counts():
    game = DamGame.opening()
    before = (game.chips(), game.repetitions())
    game.push(game.legal_moves()[3])
    game.pop()
    assert (game.chips(), game.repetitions()) == before
