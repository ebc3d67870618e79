"""``selftest`` on every profile the project ships, on mock pins: the 32 squares of the 8 × 8
builds (the Pi's own matrix, the hall sensors behind expanders, the Pico), the 72 of the 12 × 12
Dam board and the 81 points of the Mathematical Chess board, each LED walked, every button
pressed, the display shown. A board on a Pico runs the real firmware (fake ``machine``) over a
pty; the test's hands wait until the board has read each change before making the next."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from controller.cli.selftest import check_board
from drivers.link import _open_serial
from drivers.occupancy import Layout
from drivers.profile import load_profile
from drivers.virtual import VirtualPi
from firmware import config as pico8
from firmware.boards import dam12, mathchess
from tests.firmware.test_wide_link import Board, Runner

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = tuple(sorted(p.stem for p in (ROOT / "hardware").glob("*.toml") if p.stem != "sim"))
"""Every board profile the project ships (``hardware/*.toml``, the simulator's aside), one for
each game and each build; the service's tests take the same list."""
PICO_CONFIG = {"pico": pico8, "dam-pico": dam12, "mathchess-pico": mathchess}
"""The firmware config each Pico board's profile is built with (firmware/README.md)."""
PRESS_SECONDS = 0.04  # longer than gpiozero's 20 ms bounce


class Hands:
    """One change at a time: a single cell covered, then a button pressed; the next change only
    once the board has read the last one (the Pico's report acknowledged by the Pi)."""

    def __init__(
        self, pi: VirtualPi, cells: list, pico: Runner | None, board: Board | None, layout: Layout
    ) -> None:
        self.pi = pi
        self.pico = pico
        self.board = board
        self.layout = layout
        self.moves = [({c}, None) for c in cells] + [(set(), b) for b in pi.profile.buttons.pins]
        self.pending: list = []
        self.want: int | None = None
        self.held = 0
        """Passes of the selftest's loop since the last change: the Pi's own scanner debounces
        over ``debounce_scans`` scans, one a pass."""
        self.read_passes = 0
        """Passes of the selftest's loop since the Pi acknowledged the Pico's report of the last
        change: the loop reads the link's newest state at its next pass, and a loaded machine
        may run the link's thread long before it (a change made before that pass is lost)."""

    def seen(self) -> bool:
        if self.pico is None or self.want is None:
            return self.held > self.pi.profile.sensors.debounce_scans
        fw = self.pico.firmware
        reported = all(fw._sent[k] == fw.words[k].stable for k in range(len(fw.words)))
        return fw.stable_mask == self.want and reported and fw.endpoint.pending() == 0

    def __call__(self, t: float) -> None:
        for pin, since in list(self.pending):
            if time.monotonic() - since > PRESS_SECONDS:
                pin.drive_high()
                self.pending.remove((pin, since))
        self.held += 1
        if self.pending or not self.moves or not self.seen():
            return
        self.read_passes += 1
        if self.pico is not None and self.read_passes < 2:
            return
        self.held = self.read_passes = 0
        cells, button = self.moves.pop(0)
        if self.board is not None:
            self.want = self.layout.encode(cells)
            columns = len(self.board.config.COLUMN_PINS)
            self.board.closed = {divmod(self.layout.index(c), columns) for c in cells}
        else:
            self.pi.set_board(cells)
        if button is not None:
            pin = self.pi.button_pin(button)
            pin.drive_low()
            self.pending.append((pin, time.monotonic()))


@pytest.fixture
def pty():
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_selftest_passes_on_mock_pins(name, pty):
    profile = load_profile(ROOT / "hardware" / f"{name}.toml")
    pi = VirtualPi(profile)
    hardware = dict(pi.hardware)
    pico = board = None
    layout = Layout(profile.size, profile.grid)
    if name in PICO_CONFIG:
        fd, path = pty
        board = Board(PICO_CONFIG[name])
        pico = Runner(fd, board)
        hardware["open_port"] = lambda _url, baud: _open_serial(path, baud)
    cells = sorted(profile.cells, key=lambda c: (c[1], c[0]))
    hands = Hands(pi, cells, pico, board, layout)
    lines: list[str] = []
    try:
        report = check_board(
            profile, hardware, time.monotonic, time.sleep, 120.0, 0.0, lines.append,
            lambda _node: True, hands,
        )  # fmt: skip
    finally:
        if pico is not None:
            pico.stop()
        pi.close()
    text = "\n".join(report.lines())
    assert report.ok, text
    assert report.walked == len(profile.cells) == profile.squares
    assert set(report.seen_occupied) == set(profile.cells) == set(report.seen_empty)
    assert f"lit {profile.squares} squares in turn" in text
    for button in profile.buttons.pins:
        assert f"ok   button {button}: pressed" in text
    assert len(report.sensor_board()) == profile.size + 1  # the board drawn, row by row
    assert text.endswith("selftest: all OK")
