"""Dadama, clause by clause (docs/rules-dadama.md: G-1 … G-9 and this project's GE-n).

Positions are drawn by hand on the 8×8 board (playable squares have x + y odd); White moves
first from y = 0, upward. Throws are given, never drawn: the engine is deterministic.
"""

from __future__ import annotations

import pytest

from controller.rules.dadama import (
    DadamaGame,
    Die,
    IllegalStep,
    Phase,
    Quiet,
    Stop,
    Throw,
)
from controller.rules.dadama_notation import dadama_from_json, dadama_to_json, play_turn, turn_text
from controller.rules.notation import NotationError
from controller.rules.perft import dadama_perft


def dd(pieces: dict[tuple[int, int], str], to_move: str = "white", **settings) -> DadamaGame:
    """``"w3"`` a white die showing 3, ``"W5"`` a white dadama showing 5; ``b``/``B`` black."""
    listed = [
        {
            "square": list(sq),
            "side": "white" if code[0].lower() == "w" else "black",
            "value": int(code[1]),
            "dadama": code[0].isupper(),
        }
        for sq, code in pieces.items()
    ]
    return dadama_from_json({"to_move": to_move, "pieces": listed, "settings": settings})


def state(game: DadamaGame):
    return (game.pieces(), game.side_to_move, game.phase, game.going_on, game.repetitions())


def figure3(**settings) -> DadamaGame:
    """The seed's Figure 3: White's die on (3, 2) may take A (a 3 on (4, 3)) or B (a 5 on
    (2, 3)); beyond A waits C (a 3 on (6, 5)). (0, 1) could move if nothing could take."""
    pieces = {(3, 2): "w3", (0, 1): "w3", (4, 3): "b3", (2, 3): "b5", (6, 5): "b3"}
    return dd(pieces, **settings)


# ---------------------------------------------------------------- G-1 values


def test_g1_every_die_starts_at_three_on_italian_squares():
    game = DadamaGame.opening()
    pieces = game.pieces()
    assert len(pieces) == 24
    assert {d.value for d in pieces.values()} == {3}
    assert {y for (_, y), d in pieces.items() if d.side == 0} == {0, 1, 2}
    assert {y for (_, y), d in pieces.items() if d.side == 1} == {5, 6, 7}
    assert game.side_to_move == 0 and game.phase is Phase.MOVE


def test_g1_a_die_moves_with_its_value_unchanged():
    game = dd({(2, 3): "w5", (7, 6): "b2"})
    played = game.play(Quiet((2, 3), (3, 4)))
    assert game.piece_at((3, 4)).value == 5 and played.turn_ends
    assert game.side_to_move == 1


def test_g1_a_die_moves_one_square_forward_only():
    game = dd({(2, 3): "w5", (7, 6): "b2"})
    assert set(game.quiet_moves()) == {Quiet((2, 3), (1, 4)), Quiet((2, 3), (3, 4))}
    with pytest.raises(IllegalStep, match="forward"):
        game.play(Quiet((2, 3), (1, 2)))


# ---------------------------------------------------------------- G-2 the throw


def test_g2_a_die_that_can_take_must_throw():
    game = figure3()
    assert game.phase is Phase.THROW
    assert game.throwers() == ((3, 2),)
    assert game.quiet_moves() == []
    before = state(game)
    with pytest.raises(IllegalStep, match="taking is compulsory"):
        game.play(Quiet((0, 1), (1, 2)))
    with pytest.raises(IllegalStep, match=r"may not throw now; throw one on \(3,2\)"):
        game.play(Throw((0, 1), (5,)))
    assert state(game) == before


def test_g2_figure3_what_each_throw_allows():
    game = figure3()
    options = {t: {o.to for o in game.throw_options((3, 2), (t,))} for t in range(1, 7)}
    assert options[1] == options[2] == {None}
    assert options[3] == options[4] == {(5, 4)}
    assert options[5] == options[6] == {(5, 4), (1, 4)}


def test_g2_a_throw_too_low_leaves_the_die_with_the_new_value_and_the_turn_passes():
    game = figure3()
    played = game.play(Throw((3, 2), (2,)))
    assert played.turn_ends and played.taken is None
    assert game.piece_at((3, 2)).value == 2
    assert game.piece_at((4, 3)).value == 3  # nothing taken
    assert game.side_to_move == 1


def test_g2_a_throw_high_enough_must_take():
    game = figure3()
    with pytest.raises(IllegalStep, match="taking is compulsory"):
        game.play(Throw((3, 2), (4,), to=None))
    with pytest.raises(IllegalStep, match=r"cannot take by \(1,4\)"):
        game.play(Throw((3, 2), (4,), to=(1, 4)))


def test_g2_the_player_chooses_which_piece_to_take():
    game = figure3()
    played = game.play(Throw((3, 2), (6,), to=(1, 4)))
    assert played.taken == (2, 3) and played.taken_piece.value == 5
    assert played.turn_ends and (2, 3) not in game.pieces()


def _two_takers(**settings) -> DadamaGame:
    # (0, 3) can take one die; (5, 2) could take two in a row.
    pieces = {(0, 3): "w3", (1, 4): "b1", (5, 2): "w3", (6, 3): "b1", (6, 5): "b1", (0, 7): "b3"}
    return dd(pieces, **settings)


def test_g2_any_die_that_can_take_may_throw_the_italian_priorities_do_not_apply():
    assert _two_takers().throwers() == ((5, 2), (0, 3))


def test_g2_setting_italian_lets_only_the_dice_the_italian_priorities_prefer_throw():
    assert _two_takers(throw_choice="italian").throwers() == ((5, 2),)


def test_g2_a_die_never_takes_a_dadama_a_dadama_does():
    game = dd({(3, 2): "w5", (4, 3): "B1", (0, 7): "b3"})
    assert game.throwers() == () and game.phase is Phase.MOVE
    game = dd({(3, 2): "W6", (4, 3): "B1", (0, 7): "b3"})
    assert game.throwers() == ((3, 2),)


def test_g2_a_die_that_has_taken_cannot_go_on_over_a_dadama():
    game = dd({(1, 2): "w3", (0, 1): "w3", (2, 3): "b1", (4, 5): "B1", (0, 7): "b3"})
    assert game.jumps((1, 2)) == [((3, 4), (2, 3))]
    played = game.play(Throw((1, 2), (6,), to=(3, 4)))
    assert played.turn_ends and game.jumps((3, 4)) == []


def test_g2_bad_throws_are_refused_and_change_nothing():
    game = figure3()
    before = state(game)
    for step, message in [
        (Throw((3, 2), (7,)), "a die shows 1 to 6"),
        (Throw((3, 2), (3, 4)), "a die throws one die"),
        (Stop((3, 2)), "only a die that has just taken"),
    ]:
        with pytest.raises(IllegalStep, match=message):
            game.play(step)
    assert state(game) == before


# ---------------------------------------------------------------- G-3, G-4 going on


def test_g3_g4_after_a_taking_the_die_shows_the_throw_and_may_go_on_or_stop():
    game = figure3()
    played = game.play(Throw((3, 2), (5,), to=(5, 4)))
    assert not played.turn_ends
    assert game.phase is Phase.GO_ON and game.can_stop
    assert game.throwers() == ((5, 4),)
    assert game.going_on == ((5, 4), ((4, 3),))
    assert game.piece_at((5, 4)).value == 5
    assert game.piece_at((4, 3)) is not None  # taken pieces leave when the move ends
    game.play(Stop((5, 4)))
    assert game.piece_at((5, 4)).value == 5 and game.piece_at((4, 3)) is None
    assert game.side_to_move == 1


def test_g3_going_on_with_a_throw_too_low_ends_the_move_with_that_value():
    game = figure3()
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    played = game.play(Throw((5, 4), (2,)))
    assert played.turn_ends
    assert game.piece_at((5, 4)).value == 2
    assert game.piece_at((6, 5)).value == 3 and game.piece_at((4, 3)) is None


def test_g3_going_on_with_a_throw_high_enough_takes_again():
    game = figure3()
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    played = game.play(Throw((5, 4), (3,), to=(7, 6)))
    assert played.turn_ends and played.taken == (6, 5) and not played.promoted
    assert game.piece_at((7, 6)) == Die(0, 3)
    assert (4, 3) not in game.pieces() and (6, 5) not in game.pieces()


def test_g3_setting_compulsory_refuses_to_stop():
    game = figure3(go_on="compulsory")
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    assert game.phase is Phase.GO_ON and not game.can_stop
    with pytest.raises(IllegalStep, match="compulsory"):
        game.play(Stop((5, 4)))


def test_g3_a_stop_names_the_taking_die():
    game = figure3()
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    with pytest.raises(IllegalStep, match=r"stands on \(5,4\)"):
        game.play(Stop((3, 2)))
    with pytest.raises(IllegalStep, match="must throw again or stop"):
        game.play(Quiet((0, 1), (1, 2)))


# ---------------------------------------------------------------- G-5, G-6 dadamas


def _dadama_between() -> DadamaGame:
    # White's dadama (2) on (3, 4): a 3 behind it on (2, 3), a 5 ahead on (4, 5).
    return dd({(3, 4): "W2", (1, 0): "w3", (2, 3): "b3", (4, 5): "b5", (0, 7): "b3"})


def test_g5_a_dadama_throws_two_dice_and_takes_forward_or_backward():
    game = _dadama_between()
    assert game.dice_to_throw((3, 4)) == 2
    assert set(game.jumps((3, 4))) == {((1, 2), (2, 3)), ((5, 6), (4, 5))}
    with pytest.raises(IllegalStep, match="a dadama throws both its dice"):
        game.throw_options((3, 4), (6,))


def test_g5_the_player_keeps_one_of_the_two_values():
    game = _dadama_between()
    options = {(o.keep, o.to) for o in game.throw_options((3, 4), (4, 6))}
    assert options == {(4, (1, 2)), (6, (1, 2)), (6, (5, 6))}


def test_g5_if_one_die_shows_enough_the_dadama_must_take():
    """The seed: "if at least one of the dice shows a three or more the dadama must capture"."""
    game = _dadama_between()
    assert {(o.keep, o.to) for o in game.throw_options((3, 4), (3, 1))} == {(3, (1, 2))}
    with pytest.raises(IllegalStep, match="taking is compulsory"):
        game.play(Throw((3, 4), (3, 1), keep=1))
    failed = {(o.keep, o.to) for o in game.throw_options((3, 4), (1, 2))}
    assert failed == {(1, None), (2, None)}
    game.play(Throw((3, 4), (1, 2), keep=2))
    assert game.piece_at((3, 4)) == Die(0, 2, dadama=True)


def test_g5_a_dadama_must_say_which_value_it_keeps():
    game = _dadama_between()
    with pytest.raises(IllegalStep, match="say which of the two values"):
        game.play(Throw((3, 4), (4, 6), to=(1, 2)))
    with pytest.raises(IllegalStep, match="keeps one of the values thrown"):
        game.play(Throw((3, 4), (4, 6), keep=5, to=(1, 2)))
    played = game.play(Throw((3, 4), (6, 6), to=(5, 6)))
    assert played.value == 6


def test_g5_a_die_reaching_the_far_row_becomes_a_dadama_showing_three():
    game = dd({(3, 6): "w5", (0, 7): "b3"})
    played = game.play(Quiet((3, 6), (4, 7)))
    assert played.promoted
    assert game.piece_at((4, 7)).dadama and game.piece_at((4, 7)).value == 3


def test_g6_a_taking_that_reaches_the_far_row_crowns_and_ends_the_move():
    # As a dadama on (4, 7) it could take the 1 on (5, 6) backward: the move ends anyway.
    game = dd({(2, 5): "w4", (3, 6): "b2", (5, 6): "b1", (0, 7): "b3"})
    played = game.play(Throw((2, 5), (4,), to=(4, 7)))
    assert played.promoted and played.turn_ends
    assert game.piece_at((4, 7)).dadama and game.piece_at((4, 7)).value == 3
    assert game.side_to_move == 1


# ---------------------------------------------------------------- G-7 end of the game


def _sixes(white_taker: str = "w3", black_extra: str = "b3") -> DadamaGame:
    return dd({(1, 0): "w6", (3, 2): white_taker, (4, 3): "b2", (0, 7): black_extra})


def test_g7_a_throw_that_makes_all_the_throwers_dice_show_six_loses_at_once():
    game = _sixes()
    assert game.throw_options((3, 2), (6,)) == [Throw((3, 2), (6,), 6, None)]
    played = game.play(Throw((3, 2), (6,)))
    assert played.turn_ends and played.taken is None
    ending = game.ending()
    assert (ending.reason, ending.side, ending.winner) == ("all-sixes", 0, 1)
    assert ending.describe() == "every die of White shows 6"
    assert game.phase is Phase.OVER and game.piece_at((4, 3)) is not None
    with pytest.raises(IllegalStep, match="the game is over"):
        game.play(Quiet((1, 0), (0, 1)))


def test_g7_a_throw_of_five_takes_as_usual():
    game = _sixes()
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    assert game.ending() is None and game.piece_at((4, 3)) is None


def test_ge3_a_dadama_is_never_forced_into_the_loss_by_the_duty_to_take():
    game = dd({(1, 0): "w6", (3, 2): "W3", (4, 3): "b5", (0, 7): "b3"})
    options = {(o.keep, o.to) for o in game.throw_options((3, 2), (6, 2))}
    assert options == {(2, None), (6, None)}
    game.play(Throw((3, 2), (6, 2), keep=2))
    assert game.ending() is None and game.piece_at((3, 2)).value == 2
    game = dd({(1, 0): "w6", (3, 2): "W3", (4, 3): "b5", (0, 7): "b3"})
    assert game.throw_options((3, 2), (6, 6)) == [Throw((3, 2), (6, 6), 6, None)]


def test_g7_taking_the_last_die_not_showing_six_makes_the_opponent_lose():
    game = dd({(3, 2): "w3", (4, 3): "b2", (0, 7): "b6", (2, 7): "b6"})
    game.play(Throw((3, 2), (4,), to=(5, 4)))
    ending = game.ending()
    assert (ending.reason, ending.side, ending.winner) == ("all-sixes", 1, 0)


def test_ge2_a_single_die_left_is_all_the_players_dice():
    game = dd({(3, 2): "w3", (4, 3): "b2", (0, 7): "b3"})
    assert game.throw_options((3, 2), (6,)) == [Throw((3, 2), (6,), 6, None)]
    game.play(Throw((3, 2), (6,)))
    assert game.ending().reason == "all-sixes"


def test_g7_setting_turns_the_sixes_rule_off():
    game = dd({(3, 2): "w3", (4, 3): "b2", (0, 7): "b6", (2, 7): "b6"}, all_sixes_loses=False)
    game.play(Throw((3, 2), (4,), to=(5, 4)))
    assert game.ending() is None
    game = dd({(1, 0): "w6", (3, 2): "w3", (4, 3): "b2", (0, 7): "b3"}, all_sixes_loses=False)
    game.play(Throw((3, 2), (6,), to=(5, 4)))
    assert game.ending() is None


def test_g7_a_player_without_dice_loses():
    game = dd({(3, 2): "w3", (4, 3): "b2"})
    game.play(Throw((3, 2), (2,), to=(5, 4)))
    ending = game.ending()
    assert (ending.reason, ending.winner) == ("no-chips", 0)
    assert ending.describe() == "Black has no die left"


def test_g7_a_position_whose_other_side_has_no_dice_is_over_whatever_the_values():
    game = dd({(3, 2): "w6"})
    assert (game.ending().reason, game.ending().winner) == ("no-chips", 0)


def test_g7_a_position_where_the_side_that_just_moved_shows_all_sixes_is_over():
    game = dd({(3, 2): "w3", (0, 1): "w2", (4, 7): "b6", (2, 7): "b6"})
    ending = game.ending()
    assert (ending.reason, ending.side, ending.winner) == ("all-sixes", 1, 0)


def test_g7_a_player_who_cannot_move_loses():
    game = dd({(0, 1): "b3", (1, 0): "w3"}, to_move="black")
    assert game.phase is Phase.OVER
    assert (game.ending().reason, game.ending().winner) == ("no-moves", 0)


def test_g7_threefold_repetition_is_a_draw_and_can_be_turned_off():
    for rule, expected in (("threefold", "repetition"), ("off", None)):
        game = dd({(1, 0): "W3", (6, 7): "B3"}, repetition=rule)
        shuffle = [((1, 0), (0, 1)), ((6, 7), (7, 6)), ((0, 1), (1, 0)), ((7, 6), (6, 7))]
        for _ in range(2):
            for start, end in shuffle:
                game.play(Quiet(start, end))
        assert game.repetitions() == 3
        ending = game.ending()
        assert (ending.reason if ending else None) == expected
        if ending:
            assert ending.winner is None


# ---------------------------------------------------------------- undo, G-9 written turns


def test_undo_takes_back_every_step_exactly():
    game = figure3()
    before = state(game)
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    middle = state(game)
    game.play(Throw((5, 4), (3,), to=(7, 6)))
    game.undo()
    assert state(game) == middle
    game.undo()
    assert state(game) == before
    with pytest.raises(IndexError):
        game.undo()


@pytest.mark.parametrize(
    ("turn", "written"),
    [
        ([Throw((3, 2), (5,), to=(5, 4)), Stop((5, 4))], "(3,2)x(5,4) [5]"),
        ([Throw((3, 2), (5,), to=(5, 4)), Throw((5, 4), (2,))], "(3,2)x(5,4) [5] [2]"),
        (
            [Throw((3, 2), (5,), to=(5, 4)), Throw((5, 4), (3,), to=(7, 6))],
            "(3,2)x(5,4) [5] x(7,6) [3]",
        ),
        ([Throw((3, 2), (2,))], "(3,2) [2]"),
    ],
)
def test_g9_a_turn_is_written_with_its_throws_and_read_back(turn, written):
    game = figure3()
    played = [game.play(step) for step in turn]
    assert turn_text(played) == written
    again = figure3()
    replayed = play_turn(again, written)
    assert [p.step for p in replayed] == [p.step for p in game.history]
    assert state(again) == state(game)


def test_g9_a_dadamas_throw_shows_both_dice_and_the_kept_value():
    game = _dadama_between()
    played = game.play(Throw((3, 4), (4, 6), keep=4, to=(1, 2)))
    assert turn_text([played]) == "(3,4)x(1,2) [4,6→4]"
    again = _dadama_between()
    play_turn(again, "(3,4)x(1,2) [4,6->4]")
    assert state(again) == state(game)


def test_g9_a_quiet_move_is_written_as_in_draughts():
    game = dd({(2, 3): "w5", (7, 6): "b2"})
    assert turn_text([game.play(Quiet((2, 3), (3, 4)))]) == "(2,3)-(3,4)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(3,2)x(5,4) [2]", "too low to take"),
        ("(3,2) [5]", "taking is compulsory"),
        ("(3,2)x(5,4) [5] x(7,6)", "followed by its throw"),
        ("(0,1)-(1,2)", "taking is compulsory"),
        ("(3,2)y(5,4) [5]", "cannot read 'y"),
        ("(3,2) [2] [5]", "the turn had already ended"),
        ("(3,2) [9]", "a throw is written"),
    ],
)
def test_g9_a_wrong_turn_is_refused_and_nothing_is_played(text, message):
    game = figure3()
    before = state(game)
    with pytest.raises(NotationError, match=message):
        play_turn(game, text)
    assert state(game) == before and game.history == []


# ---------------------------------------------------------------- the JSON position


def test_json_position_round_trips_a_multiple_taking_under_way():
    game = figure3(go_on="compulsory")
    game.play(Throw((3, 2), (5,), to=(5, 4)))
    data = dadama_to_json(game)
    assert data["going_on"] == {"square": [5, 4], "taken": [[4, 3]]}
    again = dadama_from_json(data)
    assert state(again) == state(game) and again.settings == game.settings


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pieces": [{"square": [3, 2], "side": "white", "value": 7}]}, "a die shows 1 to 6"),
        ({"pieces": [{"square": [3, 2], "side": "white", "value": "six"}]}, "a die shows 1 to 6"),
        ({"pieces": [{"square": [2, 7], "side": "white"}]}, "becomes a dadama"),
        ({"pieces": [{"square": [3, 3], "side": "white"}]}, "not a playable square"),
        ({"pieces": [{"square": [3, 2], "side": "red"}]}, "expected 'white' or 'black'"),
        ({"going_on": {"square": [0, 1], "taken": [[4, 3]]}}, "cannot take again"),
        ({"going_on": {"square": [4, 3], "taken": [[2, 3]]}}, "must be a white piece"),
        ({"going_on": {"square": [3, 2], "taken": [[1, 2]]}}, "no black piece on"),
        ({"settings": {"go_on": "maybe"}}, "not one of choice, compulsory"),
        ({"dice": 12}, "unknown key 'dice'"),
    ],
)
def test_bad_json_positions_name_the_offending_part(change, message):
    base = dadama_to_json(figure3())
    base.update(change)
    with pytest.raises(NotationError, match=message):
        dadama_from_json(base)


def test_more_than_twelve_dice_a_side_is_refused():
    pieces = dadama_to_json(DadamaGame.opening())["pieces"]
    pieces.append({"square": [0, 3], "side": "white", "value": 3})
    with pytest.raises(NotationError, match="more than 12"):
        dadama_from_json({"pieces": pieces})


# ---------------------------------------------------------------- perft with throws


def test_perft_counts_turns_summed_over_every_throw_outcome():
    # One die must throw at a 3: throws 1-2 fail, 3-6 take; no further taking.
    game = dd({(3, 2): "w3", (4, 3): "b3", (0, 7): "b3"})
    assert dadama_perft(game, 1) == 6
    assert dadama_perft(game, 1, throw=6) == 1
    # A dadama's two dice: 21 unordered pairs; both values kept when neither takes.
    game = dd({(3, 2): "W3", (1, 0): "w3", (4, 3): "b6", (0, 7): "b3"})
    pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    expected = sum(1 if 6 in (a, b) else len({a, b}) for a, b in pairs)
    assert dadama_perft(game, 1) == expected


def test_perft_of_the_opening():
    game = DadamaGame.opening()
    assert [dadama_perft(game, d) for d in range(1, 5)] == [7, 49, 357, 2810]


def test_perft_with_every_throw_a_six_is_italian_draughts_this_shallow():
    game = DadamaGame.opening()
    assert [dadama_perft(game, d, throw=6) for d in range(1, 6)] == [7, 49, 302, 1469, 7361]


def test_g9_a_taking_still_going_on_is_marked_and_replays_to_the_same_moment():
    game = figure3()
    played = game.play(Throw((3, 2), (5,), to=(5, 4)))
    assert turn_text([played]) == "(3,2)x(5,4) [5] ..."
    again = figure3()
    play_turn(again, "(3,2)x(5,4) [5] ...")
    assert again.phase is Phase.GO_ON and state(again) == state(game)
    with pytest.raises(NotationError, match="has ended"):
        play_turn(figure3(), "(3,2) [2] ...")
