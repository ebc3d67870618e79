"""Fake `machine`: Pin, WDT, UART enough for firmware/hw.py; inputs read through a hook.

Runs on CPython and under the MicroPython unix port (which has no `machine` of its own).
"""

levels = {}  # pin id -> level last driven by an output
input_hook = None  # callable(pin_id) -> 0/1 for input pins; None reads the pull
resets = 0  # machine.reset() calls; the fake raises Reset so the caller's loop ends


class Reset(Exception):
    """What machine.reset() would do on the Pico: nothing after it runs."""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=IN, pull=None, value=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        if mode == Pin.OUT:
            levels[pin_id] = 1 if value else 0

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT:
                return levels[self.id]
            if input_hook is not None:
                return input_hook(self.id)
            return 1 if self.pull == Pin.PULL_UP else 0
        levels[self.id] = 1 if v else 0
        return None

    def low(self):
        self.value(0)

    def high(self):
        self.value(1)


class WDT:
    last = None

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.last = self

    def feed(self):
        self.feeds += 1


def reset():
    global resets
    resets += 1
    raise Reset()


def clear():
    """Forget every pin level and the input hook (between tests)."""
    global input_hook, resets
    levels.clear()
    input_hook = None
    resets = 0
