"""Small stand-ins for MicroPython's `machine` and `rp2`, so the firmware runs on CPython.

`install()` puts them in sys.modules under their MicroPython names. They record what the firmware
does (pin levels, PIO words, watchdog feeds) and let a test decide what input pins read.
"""

import sys

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from types import ModuleType


def install() -> "tuple[ModuleType, ModuleType]":
    """Make `import machine` and `import rp2` give the fakes; returns (machine, rp2)."""
    from firmware.fakes import machine, rp2

    sys.modules["machine"] = machine
    sys.modules["rp2"] = rp2
    return machine, rp2
