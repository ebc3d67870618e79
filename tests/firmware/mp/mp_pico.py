"""The Pico's own main.py under the MicroPython unix port, its USB port being this process's
standard input and output (a pty in the tests), its switch matrix read from a file.

``micropython mp_pico.py ROOT [--pin-low] [--board NAME] [--set NAME=VALUE] [--chip-id N]``
puts firmware/ and firmware/fakes/
on the path flat, as the files sit on a Pico, and imports main. The current directory plays the
Pico's filesystem (the release flag is left there); ``--board mathchess`` runs it with
firmware/boards/mathchess.py as its config.py, as copied onto that board's Pico; ``--set``
changes one setting of it (an integer), ``--chip-id`` the chip the fake SYSINFO names. The test
writes
the occupied points as a decimal mask to ./board (read again every 20 ms) and finds the LED
chain's last bytes in ./leds (hex).
"""

import sys
import time

ROOT = sys.argv[1]
sys.path.insert(0, ROOT + "/firmware/fakes")
sys.path.insert(0, ROOT + "/firmware")

if "--board" in sys.argv:  # another board's config.py, as mpremote would copy it
    name = sys.argv[sys.argv.index("--board") + 1]
    sys.modules["config"] = __import__("boards." + name, None, None, [name])

import config  # noqa: E402
import machine  # noqa: E402
import rp2  # noqa: E402

if "--set" in sys.argv:  # a setting changed, as a person editing config.py might
    name, _, value = sys.argv[sys.argv.index("--set") + 1].partition("=")
    setattr(config, name, int(value))
if "--chip-id" in sys.argv:
    machine.chip_id = int(sys.argv[sys.argv.index("--chip-id") + 1], 0)


class BoardFile:
    def __init__(self, pin_low):
        self.pin_low = pin_low
        self.mask = 0
        self.read_at = -1000

    def _refresh(self):
        now = time.ticks_ms()
        if time.ticks_diff(now, self.read_at) < 20:
            return
        self.read_at = now
        try:
            with open("board") as f:
                self.mask = int(f.read().strip() or "0")
        except (OSError, ValueError):
            pass

    def level(self, pin):
        if pin == config.RELEASE_PIN:
            return 0 if self.pin_low else 1
        self._refresh()
        c = config.COLUMN_PINS.index(pin)
        width = len(config.COLUMN_PINS)
        for r, row in enumerate(config.ROW_PINS):
            if machine.levels.get(row) == 0 and self.mask >> (r * width + c) & 1:
                return 0
        return 1


machine.input_hook = BoardFile("--pin-low" in sys.argv).level
_put = rp2.StateMachine.put


def put(self, value, shift=0):
    _put(self, value, shift)
    data = bytes((w >> 24) & 0xFF for w in self.words[-len(value) :])
    with open("leds", "w") as f:
        f.write("".join(f"{b:02x}" for b in data))


rp2.StateMachine.put = put

try:
    import main  # noqa: F401  (runs the board, as on the Pico)
except machine.Reset:
    sys.stderr.write("machine.reset()\n")
