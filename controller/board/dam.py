"""The scan loop of a 12×12 Dam board (72 dark squares, hardware/dam-12x12.md): the same
devices as a Damath board, its own session and view (``session/dam.py``, ``view/dam.py``).
One pass: the sensors' frame, time and the buttons into the session, then the LEDs, the
display and the buzzer from the view; a finished game's PDN is kept in ``games/``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.session.dam import DamSession, config_from_settings
from controller.view.dam import compose_dam
from drivers.factory import Devices

from .loop import run_loop


class DamLoop:
    def __init__(self, session: DamSession, devices: Devices, games: Path | None = None) -> None:
        self.session = session
        self.games = games
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
        s.tick(t)
        self.render(t)
        if self.games is not None:
            keep_pdn(s, self.games)

    def render(self, t: float) -> None:
        out = compose_dam(self.session.view(), t, *self.page_size)
        d = self.devices
        if d.leds is not None:
            d.leds.show(out.leds)
        if d.scoresheet is not None:
            d.scoresheet.show(list(out.page))
        for cue in self.session.take_cues():
            if d.buzzer is not None:
                d.buzzer.play(cue)


def keep_pdn(session: DamSession, games: Path) -> Path | None:
    """A finished game's PDN written once into ``games/`` (named by its journal's start), so
    it can be read by any draughts program; None while the game goes on or when kept."""
    if session.phase != "over" or session.saved is not None:
        return None
    games.mkdir(parents=True, exist_ok=True)
    path = games / f"dam-{session.game_id}.pdn"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(session.pdn({"Event": "Dam"}), encoding="utf-8")
    tmp.replace(path)
    session.saved = path
    return path


JOURNAL = "dam.jsonl"
"""A Dam game's journal in the board's state folder (beside a Damath game's)."""


def run_dam(
    profile_name: str,
    devices: Devices,
    settings: dict[str, Any],
    state: Path,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    period: float,
    running: Callable[[], bool],
) -> int:
    """``run --set game=dam``: the board plays Dam, its game resumed from its journal;
    the same devices and scan loop period as a Damath game, no clocks (docs/rules-dam.md)."""
    config = config_from_settings(settings)  # a wrong setting fails here, clearly
    session = DamSession.open(config, str(state / JOURNAL))
    for problem in session.problems:
        print(f"damath-board run: {problem}", file=sys.stderr)
    with devices:
        loop = DamLoop(session, devices, state / "games")
        print(_("damath-board run: board {name} plays Dam").format(name=profile_name), flush=True)
        try:
            run_loop(loop, clock, sleep, period, running)
        finally:
            session.close()
    return 0
