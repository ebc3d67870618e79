"""Fake `machine`: Pin, WDT, UART enough for firmware/hw.py; inputs read through a hook.

Runs on CPython and under the MicroPython unix port (which has no `machine` of its own).
"""

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable

levels: dict[int, int] = {}  # pin id -> level last driven by an output
input_hook: "Callable[[int], int] | None" = None  # pin id -> 0/1 for input pins; None: the pull
resets = 0  # machine.reset() calls; the fake raises Reset so the caller's loop ends


class Reset(Exception):
    """What machine.reset() would do on the Pico: nothing after it runs."""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(
        self, pin_id: int, mode: int = IN, pull: int | None = None, value: int | None = None
    ) -> None:
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        if mode == Pin.OUT:
            levels[pin_id] = 1 if value else 0

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            if self.mode == Pin.OUT:
                return levels[self.id]
            if input_hook is not None:
                return input_hook(self.id)
            return 1 if self.pull == Pin.PULL_UP else 0
        levels[self.id] = 1 if v else 0
        return None

    def low(self) -> None:
        self.value(0)

    def high(self) -> None:
        self.value(1)


class WDT:
    last: "WDT | None" = None

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0
        WDT.last = self

    def feed(self) -> None:
        self.feeds += 1


def reset() -> None:
    global resets
    resets += 1
    raise Reset()


def clear() -> None:
    """Forget every pin level and the input hook (between tests)."""
    global input_hook, resets
    levels.clear()
    input_hook = None
    resets = 0
