"""Fake `machine`: Pin, WDT, UART enough for firmware/hw.py; inputs read through a hook.

``mem32`` is the SIO over these pins of the chip ``chip_id`` names (SYSINFO's CHIP_ID, which
it also reads back: an RP2040's unless a test sets a Pico 2's RP2350, or another): GPIO_IN has a
bit for every input pin made (its level through ``input_hook``, or its pull), GPIO_OUT_SET and
GPIO_OUT_CLR drive the outputs whose bits are set (``levels``), as the real registers do, at
that chip's offsets (RP2040 datasheet, 2.3.1.7; RP2350's, 3.1.11: there 0x014 is GPIO_HI_OUT,
the pins above GP31, and 0x018 is GPIO_OUT_SET); any other address is refused. Runs on CPython
and under the MicroPython unix port.
"""

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable

SIO_BASE = 0xD0000000
GPIO_IN = SIO_BASE + 0x004
CHIP_ID = 0x40000000
RP2040 = 0x10002927  # what an RP2040 B1 reads there (PART 2, MANUFACTURER 0x927)
RP2350 = 0x20004927  # a Pico 2's (PART 4)
OUT_REGISTERS = {  # chip id -> (GPIO_OUT_SET, GPIO_OUT_CLR, registers that drive no GP0-GP29)
    RP2040: (SIO_BASE + 0x014, SIO_BASE + 0x018, ()),
    RP2350: (SIO_BASE + 0x018, SIO_BASE + 0x020, (SIO_BASE + 0x014, SIO_BASE + 0x01C)),
}
chip_id = RP2040

levels: dict[int, int] = {}  # pin id -> level last driven by an output
_inputs: list[int] = []  # input pins, as made (GPIO_IN reads these)
_pulls: list[int] = []
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
        elif pin_id not in _inputs:
            _inputs.append(pin_id)
            _pulls.append(pull or 0)

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            if self.mode == Pin.OUT:
                return levels[self.id]
            return _level(self.id, self.pull or 0)
        levels[self.id] = 1 if v else 0
        return None

    def low(self) -> None:
        self.value(0)

    def high(self) -> None:
        self.value(1)


def _level(pin: int, pull: int) -> int:
    if input_hook is not None:
        return input_hook(pin)
    return 1 if pull == Pin.PULL_UP else 0


class _Mem32:
    """``machine.mem32`` at the SIO's GPIO registers; allocates nothing (a scan reads it).
    ``reads`` counts the reads of GPIO_IN."""

    reads = 0

    def __getitem__(self, address: int) -> int:
        if address == CHIP_ID:
            return chip_id
        if address != GPIO_IN:
            raise ValueError("fake mem32: no register at " + hex(address))
        self.reads += 1
        word = 0
        for i in range(len(_inputs)):
            try:
                level = _level(_inputs[i], _pulls[i])
            except ValueError:  # a pin the test's hook does not wire (made by another test)
                level = 1 if _pulls[i] == Pin.PULL_UP else 0
            if level:
                word |= 1 << _inputs[i]
        return word

    def __setitem__(self, address: int, value: int) -> None:
        out_set, out_clr, elsewhere = OUT_REGISTERS.get(chip_id, (-1, -1, ()))
        if address == out_set:
            level = 1
        elif address == out_clr:
            level = 0
        elif address in elsewhere:
            return  # the chip's other GPIO bank: no pin here changes
        else:
            raise ValueError("fake mem32: no register at " + hex(address))
        pin = 0
        while value:
            if value & 1:
                levels[pin] = level
            value >>= 1
            pin += 1


mem32 = _Mem32()


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
    global input_hook, resets, chip_id
    chip_id = RP2040
    levels.clear()
    _inputs.clear()
    _pulls.clear()
    input_hook = None
    resets = 0
