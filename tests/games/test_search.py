"""The one search every game's computer plays with (``controller.games.search``), on a game
small enough to know by heart: Nim with takes of 1 to 3, where a pile of 4k loses."""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller.games.computer import Computer, Level, run
from controller.games.search import WIN, Search


class Nim:
    """Take 1, 2 or 3 from the pile; who cannot take loses. Every move is quiet."""

    def moves(self, pile: int) -> list[int]:
        return [k for k in (1, 2, 3) if k <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def end(self, pile: int) -> Fraction | None:
        return -WIN if pile == 0 else None

    def evaluate(self, pile: int) -> Fraction:
        return Fraction(0)

    def noisy(self, pile: int, take: int) -> bool:
        return False


BEST = Level(1, "best", 12, None, 0.0)


@pytest.mark.parametrize("pile", [5, 6, 7, 9, 10, 11])
def test_the_search_leaves_a_multiple_of_four(pile: int) -> None:
    found = Search(Nim()).choose(pile, BEST)
    assert (pile - found.move) % 4 == 0
    assert found.value > 0


def test_a_lost_pile_is_valued_lost_and_the_quickest_win_is_taken() -> None:
    assert Search(Nim()).choose(8, BEST).value < 0
    assert Search(Nim()).choose(3, BEST).move == 3  # the win now, not a longer one


def test_a_weighed_root_gives_every_move_its_exact_value() -> None:
    found = Search(Nim()).choose(5, BEST, weigh_all=True)
    values = dict(found.values)
    assert values[1] > 0 > values[2] and values[3] < 0


def test_a_warm_level_replays_with_its_seed_and_varies_without() -> None:
    warm = Level(1, "warm", 3, None, 2e9)  # every move near the best
    picks = {Search(Nim()).choose(9, warm, seed=s).move for s in range(30)}
    assert picks == {1, 2, 3}
    assert {Search(Nim()).choose(9, warm, seed=7).move for _ in range(5)} == {
        Search(Nim()).choose(9, warm, seed=7).move
    }


def test_a_game_over_has_no_move_to_choose() -> None:
    with pytest.raises(ValueError, match="over"):
        Search(Nim()).choose(0, BEST)


def test_a_level_out_of_range_says_the_range_and_run_finds_a_task_by_name() -> None:
    computer = Computer((BEST,), "tests.games.test_search:nim_task")
    with pytest.raises(ValueError, match="levels run from 1 to 1"):
        computer.level(2)
    assert run({"task": computer.choose, "pile": 6}) == {"move": 2}


def nim_task(request: dict[str, object]) -> dict[str, object]:
    pile = request["pile"]
    assert isinstance(pile, int)
    return {"move": Search(Nim()).choose(pile, BEST).move}
