"""R12 (C-10): removals without moving. By default (C-10) a player may make, without moving,
the removals of matches around their own operators; the seed's two R12 examples remove an
opponent's operator by a digit's match without moving, which the ``any-match`` setting allows."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import Done, IllegalAction, Move, Pass

from .helpers import after_move, col, position, removable, remove, row, symbols, texts


def _example1(**settings: str):
    pos = position(row(4, "w6 b9 . b4 b1 b7 w− w7", 1), col(3, "w+", 1), **settings)
    pos = after_move(pos, (3, 1), (3, 4))
    assert "6 + 9 = 15 and 4 + 1 = 5: last digits 5 = 5" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b1", "b4", "b9"]
    return remove(pos, (2, 4), (4, 4), (5, 4)).apply(Done())


def test_r12_example1_black_7_removes_the_white_minus_and_7_without_moving():
    pos = _example1(without_moving="any-match")
    assert pos.to_move == 1 and pos.turn is None
    assert texts(pos) == {"7 and 7: last digits 7 = 7"}
    assert symbols(pos, removable(pos)) == ["w7", "w−"]
    assert pos.match_rule() == "R12"
    after = remove(pos, (7, 4), (8, 4))
    assert after.turn is not None and after.turn.moved is None
    with pytest.raises(IllegalAction) as again:
        after.apply(Move((6, 4), (6, 5)))
    assert again.value.rule == "C-3"
    assert after.apply(Done()).to_move == 0


def test_c10_by_default_only_matches_around_own_operators_without_moving():
    pos = _example1()
    assert pos.removal_options() == []
    with pytest.raises(IllegalAction) as refused:
        remove(pos, (7, 4))
    assert refused.value.rule == "R12"


def test_c10_own_operator_matches_without_moving_by_default():
    pos = position(row(4, "w6 b9 w+ b5", 1))
    assert pos.turn is None
    assert texts(pos) == {"6 + 9 = 15 and 5: last digits 5 = 5"}
    after = remove(pos, (2, 4), (4, 4))
    assert after.board.at((2, 4)) is None and after.can_end_turn()


def test_r12_example2_a_held_back_7_then_removes_the_white_times():
    pos = position(row(4, "w7 w× b8 b7 b4 . b6 b3", 1), col(6, "w+", 1), without_moving="any-match")
    pos = after_move(pos, (6, 1), (6, 4))
    assert "8 + 7 + 4 = 19 and 6 + 3 = 9: last digits 9 = 9" in texts(pos)
    pos = remove(pos, (3, 4), (5, 4), (7, 4), (8, 4)).apply(Done())  # the black 7 held back
    assert texts(pos) == {"7 and 7: last digits 7 = 7"}
    assert symbols(pos, removable(pos)) == ["w7", "w×"]
    pos = remove(pos, (1, 4), (2, 4)).apply(Done())
    assert Move((6, 4), (4, 4), "R02") in pos.legal_moves()  # the + finally takes the 7


def test_c3_a_player_who_can_neither_move_nor_remove_passes():
    # the white + meets the black + (its own kind) and its own 1; the 1 meets the black 1
    # (same value) and the black 2 (three pieces on the row: no R03)
    blocked = position({**row(0, "w+ w1 b2"), **row(1, "b+ b1")}, fill=False)
    assert blocked.legal_moves() == [] and blocked.removal_options() == []
    assert blocked.can_pass()
    after = blocked.apply(Pass())
    assert after.to_move == 1 and after.passes == 1
    with pytest.raises(IllegalAction) as refused:
        position(row(4, "w+ . b2", 1)).apply(Pass())
    assert refused.value.rule == "C-3"
    with pytest.raises(IllegalAction, match="not an action"):
        blocked.apply("pass")  # type: ignore[arg-type]
