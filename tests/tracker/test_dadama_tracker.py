"""The Dadama tracker: the whole board matched against the steps the game allows."""

from __future__ import annotations

from controller.games.dadama.tracker import loose, occupied, read_board
from controller.rules.dadama import DadamaGame, Die, Quiet, Throw

FIG3 = {
    (3, 2): Die(0, 3),
    (0, 1): Die(0, 3),
    (4, 3): Die(1, 3),
    (2, 3): Die(1, 5),
    (6, 5): Die(1, 3),
}


def test_a_quiet_move_is_read_from_the_whole_board_and_a_lift_is_only_a_lift():
    g = DadamaGame.opening()
    board = occupied(g)
    assert read_board(g, board).ready
    assert read_board(g, board - {(1, 2)}).lifted == (1, 2)
    seen = read_board(g, (board - {(1, 2)}) | {(2, 3)})
    assert seen.step == Quiet((1, 2), (2, 3))
    wrong = read_board(g, (board - {(1, 2)}) | {(4, 3)})  # not one diagonal step
    assert wrong.step is None and wrong.missing == ((1, 2),) and wrong.extra == ((4, 3),)


def test_a_taking_is_read_only_where_the_throw_allows_it():
    g = DadamaGame(FIG3)
    board = occupied(g)
    to_b = (board - {(3, 2)}) | {(1, 4)}
    options3 = g.throw_options((3, 2), (3,))  # a 3 takes only A
    assert read_board(g, to_b, options3).step is None
    options5 = g.throw_options((3, 2), (5,))
    seen = read_board(g, to_b, options5)
    assert isinstance(seen.step, Throw) and seen.step.to == (1, 4)
    # the taken piece may already be off the board: the same taking
    assert read_board(g, to_b - {(2, 3)}, options5).step == seen.step


def test_a_piece_taken_in_a_move_going_on_may_lie_or_be_lifted():
    g = DadamaGame(FIG3)
    g.play(Throw((3, 2), (5,), 5, (5, 4)))
    assert loose(g) == {(4, 3)}
    board = (occupied(g) - {(3, 2)}) | {(5, 4)}
    assert read_board(g, board).ready
    assert read_board(g, board - {(4, 3)}).ready
    g.play(Throw((5, 4), (2,), 2, None))  # the move ends: the taken die must go now
    assert read_board(g, board).extra == ((4, 3),)
