"""Select now! (the four conditions, the ten levels), Prepare now! (C-2, C-12) and the start of
Play now! (C-1, C-3)."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import (
    LEVELS,
    Conditions,
    ConditionsError,
    Done,
    IllegalAction,
    Move,
    Op,
    Phase,
    Place,
    Position,
    from_level,
    own_level,
)
from controller.rules.mathchess.settings import MathChessSettings
from controller.rules.settings import SettingsError


def test_select_the_ten_levels():
    assert LEVELS[1] == {Op.ADD: 4} and LEVELS[3] == {Op.ADD: 2, Op.SUB: 2}
    assert LEVELS[9] == {Op.ADD: 1, Op.SUB: 1, Op.MUL: 1, Op.DIV: 1}
    assert LEVELS[10] == {Op.MUL: 1, Op.DIV: 1, Op.POW: 1, Op.ROOT: 1}
    assert sorted(LEVELS) == list(range(1, 11))
    assert Conditions().level == 9 and Conditions().digits == tuple(range(1, 10))


def test_select_the_four_conditions_of_the_seeds_samples():
    sample1 = own_level({"+": 2, "-": 1}, zero=False, digits=7)
    assert sample1.digits == (1, 2, 3, 4, 5, 6, 7) and not sample1.zero
    assert sample1.box()["+"] == 2 and sample1.box()["−"] == 1
    sample2 = from_level(4, digits=9)
    assert sample2.box()["×"] == 4 and sum(sample2.box().values()) == 13
    sample3 = from_level(10, zero=True, digits=10)
    assert sample3.digits == tuple(range(10)) and sample3.compare == "last-digit"
    assert from_level(9, digits=[0, 2, 4], zero=True).digits == (0, 2, 4)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: from_level(11), "level"),
        (lambda: from_level(9, digits=10), "1 to 9"),
        (lambda: from_level(9, digits=[0, 1]), "0 is out"),
        (lambda: own_level({"+": 5}), "0 to 4"),
        (lambda: own_level({"%": 1}), "not an operator"),
        (lambda: own_level({}), "at least one operator"),
        (lambda: from_level(9, compare="sum"), "compare"),
    ],
)
def test_select_conditions_that_cannot_be_agreed_are_refused_with_the_reason(make, words):
    with pytest.raises(ConditionsError, match=words):
        make()


def test_c1_the_grid_size_is_a_setting():
    assert Position.start().board.size == 9
    assert Position.start(settings=MathChessSettings(size=6)).board.size == 6
    with pytest.raises(SettingsError):
        MathChessSettings(size=3)


def test_c2_white_places_first_operators_first_in_turn_on_their_own_half():
    pos = Position.start()
    assert pos.phase is Phase.PREPARE and pos.to_move == 0
    placements = pos.legal_placements()
    assert {p.symbol for p in placements} == {"+", "−", "×", "÷"}
    assert {p.at[1] for p in placements} == {0, 1, 2, 3}
    with pytest.raises(IllegalAction) as digit_first:
        pos.apply(Place("5", (0, 0)))
    assert digit_first.value.rule == "C-2"
    with pytest.raises(IllegalAction) as other_half:
        pos.apply(Place("+", (0, 5)))
    assert other_half.value.rule == "C-2"
    pos = pos.apply(Place("+", (4, 1)))
    assert pos.to_move == 1 and {p.at[1] for p in pos.legal_placements()} == {5, 6, 7, 8}
    with pytest.raises(IllegalAction) as taken:
        pos.apply(Place("+", (4, 1)))
    assert taken.value.rule == "C-2"


def test_c2_placing_anywhere_is_a_setting():
    pos = Position.start(settings=MathChessSettings(placement="anywhere"))
    assert {p.at[1] for p in pos.legal_placements()} == set(range(9))


def test_c2_the_first_placer_moves_first_and_placed_pieces_stay():
    conditions = own_level({"+": 1}, digits=2)
    pos = Position.start(conditions)
    order = [("+", (0, 0)), ("+", (0, 8)), ("1", (3, 1)), ("1", (3, 7)), ("2", (5, 2)),
             ("2", (5, 6))]  # fmt: skip
    for symbol, at in order:
        assert pos.phase is Phase.PREPARE
        with pytest.raises(IllegalAction):
            pos.apply(Move((0, 0), (1, 0)))
        pos = pos.apply(Place(symbol, at))
    assert pos.phase is Phase.PLAY and pos.to_move == 0
    with pytest.raises(IllegalAction) as late:
        pos.apply(Place("1", (4, 4)))
    assert late.value.rule == "C-2"


def test_c12_each_placed_piece_is_named_and_must_be_in_the_players_box():
    pos = Position.start()
    with pytest.raises(IllegalAction) as unknown:
        pos.apply(Place("%", (0, 0)))
    assert unknown.value.rule == "C-12"
    with pytest.raises(IllegalAction) as not_in_level:
        pos.apply(Place("P", (0, 0)))  # level 9 has no power
    assert not_in_level.value.rule == "C-12"
    pos = pos.apply(Place("x", (2, 2)))  # typed as x, kept as ×
    assert pos.board.at((2, 2)).symbol == "×"
    pos = pos.apply(Place("-", (2, 6)))
    assert pos.board.at((2, 6)).symbol == "−" and pos.box(0)["×"] == 0
    with pytest.raises(IllegalAction):
        pos.apply(Place("×", (3, 2)))  # White's only × is already on the board


def test_c3_the_turn_is_a_move_or_removals_and_ends_by_the_player():
    conditions = own_level({"+": 1}, digits=2)
    pos = Position.start(conditions)
    for symbol, at in [("+", (0, 0)), ("+", (8, 8)), ("1", (3, 1)), ("1", (3, 7)),
                       ("2", (5, 2)), ("2", (5, 6))]:  # fmt: skip
        pos = pos.apply(Place(symbol, at))
    with pytest.raises(IllegalAction) as nothing:
        pos.apply(Done())
    assert nothing.value.rule == "C-3"
    moved = pos.apply(Move((3, 1), (3, 2)))
    assert moved.can_end_turn() and moved.to_move == 0
