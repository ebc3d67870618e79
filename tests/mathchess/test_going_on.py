"""R08 and R11 (C-9): after removals the line is looked at again, and the same operator or the
same digit may go on removing; the player may hold back a removal for a better one."""

from __future__ import annotations

from controller.rules.mathchess import Done, Move, explain

from .helpers import after_move, col, position, removable, remove, row, symbols, texts


def test_r08_example1_after_removing_four_digits_eight_matches_eight():
    pos = position(row(4, "b1 w8 b7 . b4 b8 b2"), col(3, "w+", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    assert "1 + 8 + 7 = 16 and 4 + 2 = 6: last digits 6 = 6" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b1", "b2", "b4", "b7"]
    pos = remove(pos, (0, 4), (2, 4), (4, 4), (6, 4))
    assert pos.match_rule() == "R08"
    assert texts(pos) == {"8 and 8: last digits 8 = 8"}
    assert symbols(pos, removable(pos)) == ["b8"]
    pos = remove(pos, (5, 4))
    assert pos.removal_options() == []


def test_r08_example2_holding_back_the_5_keeps_the_black_minus_off_the_white_plus():
    start = position(row(4, "w1 w6 b9 . b5 b−"), col(3, "w+", 1))
    moved = after_move(start, (3, 1), (3, 4))
    # both removed: the black − now meets the white + first and takes it (R02)
    both = remove(moved, (2, 4), (4, 4)).apply(Done())
    assert Move((5, 4), (3, 4), "R02") in both.legal_moves()
    # the 5 held back: the black − meets its own 5 first
    held = remove(moved, (2, 4)).apply(Done())
    assert all(m.end != (3, 4) for m in held.legal_moves())


def test_r08_example2_the_operator_cannot_move_again_in_the_same_turn():
    start = position(row(4, "w1 w6 b9 . b5 b−"), col(3, "w+", 1))
    pos = remove(after_move(start, (3, 1), (3, 4)), (2, 4), (4, 4))
    assert pos.legal_moves() == []
    try:
        pos.apply(Move((3, 4), (5, 4)))
    except ValueError as exc:
        assert str(exc).startswith("R01")
    else:
        raise AssertionError("a second move was allowed")


def test_r08_example3_denying_the_7_lets_the_2_be_removed_too():
    pos = position(row(4, "w5 b7 . b1 b2 b9", 1), col(3, "w−", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    assert {"(10 + 5) − 7 = 8 and 9 − 1 = 8: last digits 8 = 8",
            "7 − 5 = 2 and (10 + 1) − 9 = 2: last digits 2 = 2"} <= texts(pos)  # fmt: skip
    assert symbols(pos, removable(pos)) == ["b1", "b7", "b9"]  # the black 2 remains
    greedy = remove(pos, (2, 4), (4, 4), (6, 4))
    assert greedy.removal_options() == []  # 5 against 2: no match, the 2 stays
    held = remove(pos, (4, 4), (6, 4))
    assert texts(held) == {"7 − 5 = 2 and 2: last digits 2 = 2"}
    assert symbols(held, removable(held)) == ["b2", "b7"]
    lifted = frozenset({(2, 4), (4, 4), (5, 4), (6, 4)})
    assert explain(pos, lifted) == (
        ("R06", frozenset({(4, 4), (6, 4)})),
        ("R08", frozenset({(2, 4), (5, 4)})),
    )


def test_r08_example4_denying_the_4_keeps_the_jump_of_the_black_minus_away():
    start = position(row(4, "b1 w3 . b4 b+ b−", 1), col(3, "w+", 1))
    pos = after_move(start, (3, 1), (3, 4))
    assert texts(pos) == {"1 + 3 = 4 and 4: last digits 4 = 4"}
    assert symbols(pos, removable(pos)) == ["b1", "b4"]
    both = remove(pos, (1, 4), (4, 4)).apply(Done())
    assert Move((6, 4), (3, 4), "R04", (5, 4)) in both.legal_moves()
    held = remove(pos, (1, 4)).apply(Done())
    assert all(m.end != (3, 4) for m in held.legal_moves())


def test_r11_example1_a_digit_goes_on_after_its_first_removals():
    # roots: every ten (the seed's sum needs √64 = 8 for the white 4; docs/rules-mathchess.md)
    pos = position(row(4, "b7 w+ w5 w4 wR ."), col(5, "b2", 7), to_move="black", roots="every")
    pos = after_move(pos, (5, 7), (5, 4))
    assert texts(pos) == {"√(60 + 4) = 8 and ∛(510 + 2) = 8: last digits 8 = 8"}
    assert symbols(pos, removable(pos)) == ["w4", "wR"]
    pos = remove(pos, (3, 4), (4, 4))
    assert pos.match_rule() == "R11"
    assert texts(pos) == {"7 and 5 + 2 = 7: last digits 7 = 7"}
    assert symbols(pos, removable(pos)) == ["w+", "w5"]


def test_r11_example1_under_the_default_roots_the_4_has_no_root_8():
    pos = position(row(4, "b7 w+ w5 w4 wR ."), col(5, "b2", 7), to_move="black")
    pos = after_move(pos, (5, 7), (5, 4))
    assert pos.removal_options() == []


def test_r11_example2_holding_back_the_2_makes_the_next_sum():
    pos = position(row(4, "b9 b+ b2 b3 b6 b× . b8"), col(6, "w7", 1), to_move="white")
    # black's own + with 3 + 6 = 9 and 9 is no match white may use: no white digit in it
    assert pos.removable() == frozenset()
    pos = after_move(pos, (6, 1), (6, 4))
    assert "2 × 3 × 6 = 36 and 7 × 8 = 56: last digits 6 = 6" in texts(pos)
    assert symbols(pos, removable(pos)) == ["b2", "b3", "b6", "b8", "b×"]
    greedy = remove(pos, (2, 4), (3, 4), (4, 4), (5, 4), (7, 4))
    assert greedy.removal_options() == []
    held = remove(pos, (3, 4), (4, 4), (5, 4), (7, 4))
    assert texts(held) == {"9 and 2 + 7 = 9: last digits 9 = 9"}
    assert symbols(held, removable(held)) == ["b+", "b2", "b9"]
    every = frozenset({(0, 4), (1, 4), (2, 4), (3, 4), (4, 4), (5, 4), (7, 4)})
    steps = explain(pos, every)
    assert [rule for rule, _ in steps] == ["R09", "R11"]


def test_c9_the_player_may_decline_every_removal_and_end_the_turn():
    pos = position(row(4, "w1 w6 b9 . b5"), col(3, "w+", 1))
    pos = after_move(pos, (3, 1), (3, 4))
    assert pos.can_end_turn()
    after = pos.apply(Done())
    assert after.to_move == 1 and after.board.at((2, 4)) is not None
