"""The physical table: what a player's hands can and cannot do, and what the sensors see."""

from __future__ import annotations

import pytest

from controller.rules.move import BLUE, RED
from controller.rules.variants import opening_chips
from controller.sim.table import Table, TableError


@pytest.fixture
def table() -> Table:
    return Table(opening_chips("integer"))


def test_the_sensors_see_the_opening(table: Table) -> None:
    assert table.occupied() == frozenset(opening_chips("integer"))
    assert len(table.occupied()) == 24


def test_lift_empties_the_square_and_fills_the_hand(table: Table) -> None:
    chip = table.lift((1, 2))
    assert (chip.side, chip.label) == (BLUE, "-9")
    assert (1, 2) not in table.occupied()
    assert table.hand == chip


def test_place_sets_the_held_chip_down(table: Table) -> None:
    held = table.lift((1, 2))
    table.place((2, 3))
    assert table.board[(2, 3)] == held
    assert table.hand is None


def test_click_lifts_the_movers_chip_and_takes_off_a_chip_being_taken(table: Table) -> None:
    assert "lifted" in table.click((1, 2), mover=BLUE)
    assert "set" in table.click((2, 3), mover=BLUE)
    assert "took" in table.click((2, 5), mover=BLUE, removable=frozenset({(2, 5)}))
    assert [c.label for c in table.trays[RED]] == ["-1"]
    assert (2, 5) not in table.occupied()


def test_a_click_never_puts_a_chip_in_the_tray_unless_it_is_being_taken(table: Table) -> None:
    # Red to move: a click on a blue chip lifts it (the board then says whose turn it is);
    # it never goes beside the board as if it had been taken
    assert "lifted" in table.click((1, 2), mover=RED)
    assert table.trays == {BLUE: [], RED: []} and table.hand is not None
    table.place((1, 2))
    assert "lifted" in table.click((2, 5), mover=BLUE)  # nothing being taken: lifted too
    assert table.trays == {BLUE: [], RED: []}


def test_a_chip_put_aside_can_be_put_back(table: Table) -> None:
    chip = table.remove((2, 5))
    table.take_from_tray(chip.id)
    table.place((2, 5))
    assert table.board[(2, 5)] == chip
    assert table.trays[RED] == []


def test_crowning_turns_the_chip_over(table: Table) -> None:
    table.lift((1, 2))
    assert table.turn_over().dama
    table.place((1, 2))
    assert table.board[(1, 2)].dama


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda t: t.lift((0, 0)), "light square"),
        (lambda t: t.lift((9, 9)), "off the board"),
        (lambda t: t.lift((3, 4)), "no chip on (3, 4)"),
        (lambda t: t.place((3, 4)), "hand is empty"),
        (lambda t: t.put_aside(), "nothing to put aside"),
        (lambda t: t.take_from_tray(999), "no chip 999"),
        (lambda t: t.turn_over(), "hand is empty"),
        (lambda t: t.click((3, 4), BLUE), "no chip on (3, 4)"),
    ],
)
def test_nonsense_is_refused_with_a_sentence(table: Table, action, message: str) -> None:
    with pytest.raises(TableError, match=message.replace("(", r"\(").replace(")", r"\)")):
        action(table)
    assert len(table.occupied()) == 24


def test_one_chip_in_hand_at_a_time_and_no_stacking(table: Table) -> None:
    table.lift((1, 2))
    with pytest.raises(TableError, match="already hold"):
        table.lift((3, 2))
    with pytest.raises(TableError, match="already holds"):
        table.place((3, 2))


def test_arrange_restores_a_position_and_keeps_chip_identity(table: Table) -> None:
    ids = {sq: c.id for sq, c in table.board.items()}
    table.lift((1, 2))
    table.place((2, 3))
    table.remove((2, 5))
    table.arrange(opening_chips("integer"))
    assert {sq: c.id for sq, c in table.board.items()} == ids
    assert table.hand is None and table.trays == {BLUE: [], RED: []}
