"""The scan loop of a Dadama board: the same devices as a Damath board, its own session and
view (``session/dadama.py``, ``view/dice.py``). One pass: the sensors' frame and the buttons
into the session, then the LEDs, the display and the buzzer from the view."""

from __future__ import annotations

from controller.session.dadama import DadamaSession
from controller.view.dice import compose_dice
from drivers.factory import Devices


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
