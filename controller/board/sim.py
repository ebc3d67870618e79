"""The simulated board's wiring, written once: its profile (every device a mock) shipped in the
package as ``sim.toml`` (``hardware/sim.toml`` links to it), and its devices with the hands that
move its chips and press its buttons (``drivers.factory.MockControls``). The simulator, the demo,
the tests and the benchmarks all build it here."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable
from importlib import resources

from drivers.factory import Devices, MockControls, build_devices
from drivers.ledmap import board_cells
from drivers.profile import BoardProfile, parse_profile

PROFILE_FILE = "sim.toml"


def sim_profile(size: int = 8, grid: str = "dark-squares") -> BoardProfile:
    """The simulated board's profile, read from the package (checked as any profile is); a
    board of another size or grid (a 12 × 12 Dam board, 9 × 9 points) has as many LEDs as
    cells, its devices mocks all the same."""
    text = resources.files(__package__).joinpath(PROFILE_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    if (size, grid) != (8, "dark-squares"):
        data["board"].update(size=size, grid=grid)
        data["leds"]["count"] = len(board_cells(size, grid))
    return parse_profile(data, f"{__package__}/{PROFILE_FILE}")


def sim_devices(
    clock: Callable[[], float] = time.monotonic, size: int = 8, grid: str = "dark-squares"
) -> tuple[Devices, MockControls]:
    """A simulated board's devices, and the controls of its mock sensors and buttons."""
    devices = build_devices(sim_profile(size, grid), clock=clock)
    return devices, devices.controls()
