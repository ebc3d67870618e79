"""The scan loop of a Dadama board: the same devices as a Damath board, its own session and
view (``session/dadama.py``, ``view/dice.py``). One pass: the sensors' frame and the buttons
into the session, then the LEDs, the display and the buzzer from the view."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.session.dadama import DadamaSession, config_from_settings
from controller.view.dice import compose_dice
from drivers.factory import Devices

from .loop import run_loop


class DadamaLoop:
    def __init__(self, session: DadamaSession, devices: Devices) -> None:
        self.session = session
        self.devices = devices
        size = devices.scoresheet.size if devices.scoresheet is not None else (128, 64)
        from drivers.scoresheet import capacity

        self.page_size = capacity(size)
        if devices.sensors is not None:  # the board as it stands: the scanner reports changes
            current = devices.sensors.current
            session.feed_frame(current.t, current.occupied)

    def step(self, t: float) -> None:
        s, d = self.session, self.devices
        if d.sensors is not None:
            frame = d.sensors.scan()
            if frame is not None:
                s.feed_frame(frame.t, frame.occupied)
        if d.buttons is not None:
            for press in d.buttons.poll():
                s.press(press.t, press.name, press.kind)
        self.render(t)

    def render(self, t: float) -> None:
        out = compose_dice(self.session.view(), t, *self.page_size)
        d = self.devices
        if d.leds is not None:
            d.leds.show(out.leds)
        if d.scoresheet is not None:
            d.scoresheet.show(list(out.page))
        for cue in self.session.take_cues():
            if d.buzzer is not None:
                d.buzzer.play(cue)


JOURNAL = "dadama.jsonl"
"""A Dadama game's journal in the board's state folder (beside a Damath game's)."""


def run_dadama(
    profile_name: str,
    devices: Devices,
    settings: dict[str, Any],
    state: Path,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    period: float,
    running: Callable[[], bool],
) -> int:
    """``run --set game=dadama``: the board plays Dadama, its game resumed from its journal;
    the same devices and scan loop period as a Damath game, no clocks (docs/rules-dadama.md)."""
    config = config_from_settings(settings)  # a wrong setting fails here, clearly
    session = DadamaSession.open(config, str(state / JOURNAL))
    for problem in session.problems:
        print(f"damath-board run: {problem}", file=sys.stderr)
    with devices:
        loop = DadamaLoop(session, devices)
        print(
            _("damath-board run: board {name} plays Dadama").format(name=profile_name), flush=True
        )
        try:
            run_loop(loop, clock, sleep, period, running)
        finally:
            session.close()
    return 0
