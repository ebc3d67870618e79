"""C-13: on the board a turn is read as a move, the opposing pieces lifted, then the player's
button. The engine explains a lifted set as removal steps in an order the rules allow, refuses
a wrong one with the rule it breaks, and says what could still be lifted."""

from __future__ import annotations

import pytest

from controller.rules.mathchess import (
    IllegalAction,
    explain,
    removal_sets,
    still_removable,
    still_removable_rules,
)

from .helpers import after_move, col, position, row

ONE, TWO, SEVEN, NINE = (4, 4), (5, 4), (2, 4), (6, 4)


def r08_example3():
    pos = position(row(4, "w5 b7 . b1 b2 b9", 1), col(3, "w−", 1))
    return after_move(pos, (3, 1), (3, 4))


def test_c13_any_lifting_order_of_a_valid_set_is_explained_in_an_order_the_rules_allow():
    pos = r08_example3()
    steps = explain(pos, frozenset({TWO, SEVEN, ONE, NINE}))
    assert steps == (("R06", frozenset({ONE, NINE})), ("R08", frozenset({SEVEN, TWO})))
    assert explain(pos, frozenset({ONE})) == (("R06", frozenset({ONE})),)
    assert explain(pos, frozenset()) == ()


def test_c13_a_wrong_set_is_refused_with_the_rule_it_breaks():
    pos = r08_example3()
    with pytest.raises(IllegalAction) as alone:
        explain(pos, frozenset({SEVEN, TWO}))  # the 2 needs the 1 and the 9 gone first
    assert alone.value.rule == "R06" and "(5,4)" in alone.value.text
    with pytest.raises(IllegalAction) as own:
        explain(pos, frozenset({ONE, (1, 4)}))
    assert own.value.rule == "C-3"
    with pytest.raises(IllegalAction) as operator:
        explain(pos, frozenset({(0, 8)}))
    assert operator.value.rule == "R06"


def test_c13_what_could_still_be_lifted():
    pos = r08_example3()
    assert still_removable(pos, frozenset()) == {ONE, TWO, SEVEN, NINE}
    assert still_removable(pos, frozenset({TWO})) == {ONE, SEVEN, NINE}
    assert still_removable(pos, frozenset({SEVEN, ONE, NINE})) == {TWO}
    assert still_removable(pos, frozenset({ONE, TWO, SEVEN, NINE})) == frozenset()
    assert still_removable_rules(pos, frozenset({TWO})) == {ONE: "R06", NINE: "R06", SEVEN: "R08"}


def test_c13_every_reachable_set_and_the_steps_that_reach_it():
    pos = r08_example3()
    sets = removal_sets(pos)
    assert frozenset({ONE, TWO, SEVEN, NINE}) in sets
    assert frozenset({TWO}) not in sets and frozenset({SEVEN, TWO}) not in sets
    for taken, steps in sets.items():
        assert frozenset().union(*(part for _, part in steps)) == taken
        assert explain(pos, taken) is not None
