"""Dadama against the computer on the simulated board, without a browser: chosen in the new
game message as the page's dialog sends it, a hint asked with the page's button, the
computer's move lit and then made by the child's clicks. The search runs inline (a Future
already done): the real ``choose`` task, in process."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest

from controller.sim.engine import SimBoard, SimError, static_facts


class Clock:
    t = 1000.0

    def __call__(self) -> float:
        return self.t


def inline(task: Any, request: dict[str, Any]) -> Future:
    done: Future = Future()
    done.set_result(task(request))
    return done


def test_the_page_offers_each_games_computer_and_its_levels():
    computers = static_facts()["computers"]
    assert [lv["number"] for lv in computers["dadama"]] == [1, 2, 3, 4, 5, 6]
    assert computers["dadama"][0]["name"] == "beginner"


def test_a_child_plays_dadama_against_the_computer_from_the_page(tmp_path):
    b = SimBoard("k", Clock(), state_dir=tmp_path)
    msg = {"type": "new_game", "variant": "dadama", "computer": "second", "computer_level": 1}
    b.act(msg)
    session = b.game.session  # type: ignore[attr-defined]
    session.opponent.submit = inline
    assert b.snapshot()["computer"]["side"] == 1 and b.snapshot()["computer"]["level"] == 1
    b.act({"type": "button", "name": "hint"})
    b.tick()
    snap = b.snapshot()
    assert snap["message"].startswith("Hint: move your 3 from")
    assert "shown_from" in snap["lights"].values()
    b.act({"type": "click", "square": [1, 2]})
    b.act({"type": "click", "square": [2, 3]})
    b.tick()
    snap = b.snapshot()
    assert snap["message"].startswith("The computer (level 1) moves its 3 from")
    start = next(sq for sq, name in snap["lights"].items() if name == "shown_from")
    end = next(sq for sq, name in snap["lights"].items() if name == "shown_path")
    b.act({"type": "click", "square": [int(v) for v in start.split(",")]})
    b.act({"type": "click", "square": [int(v) for v in end.split(",")]})
    snap = b.snapshot()
    assert f"({start})-({end})" in snap["record"] and snap["to_move"] == "white"


def test_a_computer_level_out_of_range_is_refused_in_one_line(tmp_path):
    b = SimBoard("l", Clock(), state_dir=tmp_path)
    with pytest.raises(SimError, match=r"^computer_level 7: the computer's levels in Dadama run"):
        b.act({"type": "new_game", "variant": "dadama", "computer": "second", "computer_level": 7})
