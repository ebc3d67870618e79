"""A device that keeps failing, whatever the game: the scan loop reads the drivers' health once
a render, puts the problem on the display before the game's own lines and in the game's
problems (said once when it comes, once when it goes), and the game goes on from the last good
frame (drivers/health.py, controller/board/loop.py)."""

from __future__ import annotations

import pytest

from controller.board import BoardHost, ScanLoop
from controller.board.sim import sim_devices
from controller.games import GAMES
from drivers.health import CLEAR_AFTER, PROBLEM_AFTER


class Clock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("name", list(GAMES))
def test_a_failing_sensor_read_is_shown_on_the_display_and_clears_when_it_works(name, capsys):
    kind = GAMES[name]
    clock = Clock()
    devices, hands = sim_devices(clock, kind.geometry.size, kind.geometry.grid)
    game = BoardHost(None).open(kind, {}, 0.0)
    hands.set_occupied(game.expected())
    loop = ScanLoop(game, devices)
    source = devices.sensors.source  # the mock behind the driver interface
    reading = source.read_mask
    failing = [True]

    def read_mask() -> int:
        if failing[0]:
            raise OSError(121, "Remote I/O error")
        return reading()

    source.read_mask = read_mask  # type: ignore[method-assign]
    for n in range(PROBLEM_AFTER + 1):
        clock.t = n * 0.05
        loop.step(clock.t)
    loop.render(clock.t)
    shown = " ".join(devices.scoresheet.last)
    assert shown.startswith("sensor reading failing (Remote I/O error): check the sensors")
    assert loop.device_problem is not None and loop.device_problem in game.problems
    assert devices.health().errors == 3 * (PROBLEM_AFTER + 1)  # each scan tried three times
    failing[0] = False
    for _n in range(CLEAR_AFTER + 1):
        clock.t += 0.05
        loop.step(clock.t)
    loop.render(clock.t)
    assert loop.device_problem is None and "the devices work again" in game.problems
    assert not " ".join(devices.scoresheet.last).startswith("sensor reading failing")
    err = capsys.readouterr().err
    assert err.count("sensor reading failing") == 1  # said once, not at every render
    game.close(clock.t)
    devices.close()
