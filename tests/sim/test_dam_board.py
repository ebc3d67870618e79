"""A simulated Dam board with a state folder (controller/sim/dam.py): its game resumes from the
journal after a restart, a finished game's PDN is kept once in ``games/``, and a wrong action
or button is refused with its reason."""

from __future__ import annotations

import pytest

from controller.session.dam import DamConfig
from controller.sim.dam import DamSim
from controller.sim.engine import SimError

from .test_browser_dam import EDGE


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def click(sim: DamSim, clock: Clock, x: int, y: int) -> None:
    sim.act({"type": "click", "square": [x, y]})
    clock.now += 1.0
    sim.tick()


def test_a_game_resumes_and_its_pdn_is_kept_once(tmp_path):
    clock = Clock()
    sim = DamSim(DamConfig(position=EDGE), clock, tmp_path)
    clock.now += 1.0
    sim.tick()
    assert sim.session.phase == "play"
    click(sim, clock, 5, 0)
    click(sim, clock, 11, 6)
    sim.close()
    again = DamSim(DamConfig(), clock, tmp_path)  # restarted: the journal's game stands,
    assert (5, 0) in again.squares  # the half-made move was never played: the king is back
    clock.now += 1.0
    again.tick()
    assert again.session.phase == "play"
    for sq in ((5, 0), (11, 6), (11, 6), (7, 10)):  # set down on the edge, lifted, on again
        click(again, clock, *sq)
    again.act({"type": "remove", "square": [7, 2]})
    again.act({"type": "remove", "square": [8, 9]})
    clock.now += 1.0
    again.tick()
    assert again.session.phase == "over"
    kept = list((tmp_path / "games").glob("*-dam.pdn"))
    assert len(kept) == 1
    assert '[Result "1-0"]' in kept[0].read_text(encoding="utf-8")
    again.tick()
    assert len(list((tmp_path / "games").glob("*-dam.pdn"))) == 1


def test_wrong_actions_are_refused_with_their_reason():
    sim = DamSim(DamConfig(), Clock(), None)
    with pytest.raises(SimError, match="next, confirm"):
        sim.act({"type": "button", "name": "takeback"})
    with pytest.raises(SimError, match="nothing to lift"):
        sim.act({"type": "click", "square": [0, 5]})
    with pytest.raises(SimError, match="not an action"):
        sim.act({"type": "crown", "square": [1, 0]})


def test_set_game_dam_starts_every_new_board_on_12x12_and_resumes_it(tmp_path):
    from controller.sim.engine import SimBoard

    clock = Clock()
    b = SimBoard("d", clock, state_dir=tmp_path, defaults={"game": "dam"})
    snap = b.snapshot()
    assert snap["game"] == "dam" and snap["size"] == 12 and len(snap["pieces"]) == 60
    assert len(snap["leds"]) == 72
    clock.now += 1.0
    b.tick()
    b.act({"type": "click", "square": [1, 4]})
    clock.now += 1.0
    b.tick()
    b.act({"type": "click", "square": [2, 5]})
    clock.now += 1.0
    b.tick()
    assert b.snapshot()["ply"] == 1
    b.close()
    again = SimBoard("d", clock, state_dir=tmp_path)  # restarted without --set: still Dam
    assert again.snapshot()["game"] == "dam" and again.snapshot()["ply"] == 1
    with pytest.raises(SimError, match="capture_priority"):
        again.act(
            {
                "type": "new_game",
                "variant": "dam",
                "rules": {"capture_priority": "x"},
                "confirm": True,
            }
        )
    assert again.snapshot()["ply"] == 1  # the game on the board is untouched
    again.close()
