"""The RP2040's real hardware behind the small objects app.Firmware expects.

Imports `machine` and `rp2` (MicroPython); on CPython the tests install the fakes in fakes/.
"""

import time

import machine
import rp2

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

WORD_BITS = 16  # bits a scan word holds at most: well inside the RP2040's small integers


class Clock:
    """MicroPython's wrapping tick counters; falls back to the standard clock on CPython."""

    ticks_ms: "Callable[[], int]"
    ticks_us: "Callable[[], int]"
    ticks_diff: "Callable[[int, int], int]"
    sleep_us: "Callable[[int], None]"

    def __init__(self) -> None:
        if hasattr(time, "ticks_ms"):
            mp: ModuleType = time  # MicroPython's time, with its tick counters
            self.ticks_ms = mp.ticks_ms
            self.ticks_us = mp.ticks_us
            self.ticks_diff = mp.ticks_diff
            self.sleep_us = mp.sleep_us
        else:
            self.ticks_ms = lambda: int(time.monotonic() * 1000)
            self.ticks_us = lambda: int(time.monotonic() * 1_000_000)
            self.ticks_diff = lambda a, b: a - b
            self.sleep_us = lambda n: time.sleep(n / 1_000_000)


class MatrixPins:
    """N rows driven low one at a time, M columns read with pull-ups; a diode per switch.

    Switch (r, c) is point r * M + c. ``scan()`` leaves the closed switches in ``words``, a list
    made once: word k holds rows k * rows_per_word onwards, ``rows_per_word * M`` <= 16 bits
    each. One mask of 32 or more bits would not fit the RP2040's small integers (31 bits,
    values below 2**30), so every scan would allocate on the heap; the words are joined only
    when a change is reported. An 8 x 4 Damath matrix gives two 16-bit words (rows 0..3, 4..7),
    a 9 x 9 one nine 9-bit words, a 12 x 12 one twelve 12-bit words.

    After a row goes low the scan waits ``settle_us`` before reading: a column that the row
    before held low has to rise again through its pull-up (hardware/README.md, "Settle time").
    """

    def __init__(
        self, row_pins: tuple[int, ...], column_pins: tuple[int, ...], settle_us: int = 20
    ) -> None:
        width = len(column_pins)
        if not row_pins or not 1 <= width <= WORD_BITS:
            raise ValueError("a matrix needs rows and 1 to 16 columns")
        self.rows = [machine.Pin(p, machine.Pin.OUT, value=1) for p in row_pins]
        self.columns = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in column_pins]
        self.settle_us = settle_us
        self._sleep_us: Callable[[int], None] = getattr(time, "sleep_us", None) or _no_sleep
        self.width = width
        self.points = len(row_pins) * width
        self.rows_per_word = WORD_BITS // width
        self.word_bits = self.rows_per_word * width
        count = (len(row_pins) + self.rows_per_word - 1) // self.rows_per_word
        self.words = [0] * count

    def scan(self) -> None:
        rows = self.rows
        columns = self.columns
        words = self.words
        width = self.width
        per_word = self.rows_per_word
        last = len(rows) - 1
        settle = self.settle_us
        acc = 0
        k = 0
        w = 0
        for r in range(len(rows)):
            row = rows[r]
            row.value(0)
            if settle:
                self._sleep_us(settle)
            bits = 0
            for c in range(width):
                if not columns[c].value():
                    bits |= 1 << c
            acc |= bits << (k * width)
            row.value(1)
            k += 1
            if k == per_word or r == last:
                words[w] = acc
                w += 1
                acc = 0
                k = 0


def _no_sleep(us: int) -> None:
    pass


@rp2.asm_pio(  # type: ignore[untyped-decorator]  # rp2 is MicroPython's: no types
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=8,
)
def ws2812_bits() -> None:
    # One data bit is 10 state-machine cycles (1.25 us at 8 MHz): 2 high, then 5 high for a one
    # or low for a zero, then 3 low. Bytes arrive MSB first, one byte per FIFO word.
    wrap_target()  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    label("next")  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    out(x, 1).side(0)[2]  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    jmp(not_x, "low").side(1)[1]  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    jmp("next").side(1)[4]  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    label("low")  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    nop().side(0)[4]  # type: ignore[name-defined]  # noqa: F821  (PIO names)
    wrap()  # type: ignore[name-defined]  # noqa: F821  (PIO names)


class Ws2812:
    """The LED chain on one PIO state machine; write() takes the bytes in wire order (GRB)."""

    def __init__(self, pin: int, state_machine: int = 0) -> None:
        self.sm = rp2.StateMachine(
            state_machine, ws2812_bits, freq=8_000_000, sideset_base=machine.Pin(pin)
        )
        self.sm.active(1)

    def write(self, data: bytes) -> None:
        # Each byte goes into the top of a 32-bit FIFO word; the program shifts it out MSB first.
        self.sm.put(bytearray(data), 24)


class Watchdog:
    """Resets the RP2040 if the loop stops feeding it (max 8.3 s on this chip)."""

    def __init__(self, timeout_ms: int = 2000) -> None:
        self.wdt = machine.WDT(timeout=timeout_ms)

    def feed(self) -> None:
        self.wdt.feed()


class UartStream:
    """The link on a hardware UART (GP0 TX, GP1 RX by default)."""

    def __init__(self, uart_id: int = 0, baudrate: int = 115200, tx: int = 0, rx: int = 1) -> None:
        self.uart = machine.UART(uart_id, baudrate=baudrate, tx=machine.Pin(tx), rx=machine.Pin(rx))

    def read(self) -> bytes:
        n = self.uart.any()
        data: bytes = self.uart.read(n) if n else b""
        return data

    def write(self, data: bytes) -> None:
        self.uart.write(data)


def release(flag_path: str, settle_ms: int = 50) -> None:
    """The Pi asked for the REPL: leave a flag for the next boot and reboot into it.

    The watchdog cannot be stopped once started, so the loop cannot simply return to the REPL;
    main.py sees the flag at boot (startup.py), removes it and starts nothing, once.
    """
    with open(flag_path, "w") as f:
        f.write("release\n")
    sleep_ms = getattr(time, "sleep_ms", None)
    if sleep_ms is not None:
        sleep_ms(settle_ms)  # let the acknowledgement leave the USB buffer
    machine.reset()


class UsbStream:
    """The link on the USB CDC port (the REPL's port); Ctrl-C interpretation is switched off."""

    def __init__(self) -> None:
        import select
        import sys

        import micropython

        mp: ModuleType = micropython  # the port's own module, not the one the checker knows
        mp.kbd_intr(-1)  # 0x03 is an ordinary byte in our frames, not a KeyboardInterrupt
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)

    def read(self) -> bytes:
        data = bytearray()
        while self._poll.poll(0) and len(data) < 256:
            data.extend(self._in.read(1))
        return bytes(data)

    def write(self, data: bytes) -> None:
        self._out.write(data)
