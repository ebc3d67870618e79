"""Whether the Pico starts the board at power-up, or leaves its USB port to the REPL.

The running firmware switches Ctrl-C off and reads every byte on USB, so `mpremote` cannot reach
the REPL while it runs. Two ways back, both checked before the watchdog starts:
- the Pi sends RELEASE on the link (`damath-board pico release`): the firmware leaves the flag
  file and reboots; this boot removes the flag and starts nothing (the next boot runs again);
- a jumper from RELEASE_PIN to GND at power-up: nothing starts for as long as it is fitted.
"""

import os

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from types import ModuleType


def take_flag(path: str) -> bool:
    """True if the release flag was there (it is removed: it holds for one boot)."""
    try:
        os.stat(path)
    except OSError:
        return False
    try:  # noqa: SIM105  (MicroPython has no contextlib)
        os.remove(path)
    except OSError:
        pass
    return True


def should_run(release_pin_level: int, flag_taken: bool) -> bool:
    """Run the board unless the release pin is held low or the Pi left the flag."""
    return release_pin_level != 0 and not flag_taken


def board_should_run(config: "ModuleType", machine: "ModuleType") -> bool:
    pin = machine.Pin(config.RELEASE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return should_run(pin.value(), take_flag(config.RELEASE_FLAG))
