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
    from typing import Any

WORD_BITS = 16  # bits a scan word holds at most: well inside the RP2040's small integers
SIO_BASE = 0xD0000000  # the single-cycle IO block (RP2040 datasheet, 2.3.1.7)
GPIO_IN = 0x004  # offsets: every GPIO's input level, one read
SYSINFO_CHIP_ID = 0x40000000  # which chip this is (both datasheets: SYSINFO, CHIP_ID)
SIO_OUT = {  # chip -> the offsets of GPIO_OUT_SET (a 1 drives that GPIO high), GPIO_OUT_CLR (low)
    "RP2040": (0x014, 0x018),  # a Pico (RP2040 datasheet, 2.3.1.7)
    "RP2350": (0x018, 0x020),  # a Pico 2: GPIO_HI_* sit between (RP2350 datasheet, 3.1.11)
}
PARTS = {0x0002: "RP2040", 0x0004: "RP2350"}  # CHIP_ID's PART field (bits 27:12)


def chip_name(chip_id: int) -> str:
    """CHIP_ID -> "RP2040" or "RP2350"; ValueError in one line for any other chip (its SIO
    registers are unknown: a scan there would read no square at all)."""
    name = PARTS.get(chip_id >> 12 & 0xFFFF) if chip_id & 0xFFF == 0x927 else None
    if name is None:
        raise ValueError(
            "this board's chip is neither an RP2040 nor an RP2350 (CHIP_ID "
            + hex(chip_id)
            + "): the firmware knows no other (firmware/README.md)"
        )
    return name


def chip(mem: "Any" = None) -> str:
    """The chip the firmware runs on, read from its SYSINFO block (``machine.mem32``)."""
    return chip_name((machine.mem32 if mem is None else mem)[SYSINFO_CHIP_ID])


TICKS_PERIOD = 1 << 30
"""MicroPython's tick counters on the RP2040 wrap here: 2**30 us is 17 min 53.7 s. Only
``ticks_add`` and ``ticks_diff`` may do sums on ticks: a plain ``+`` past the wrap makes a
number the counters never give (a heap integer on the Pico, garbage to ``ticks_diff``)."""


def ticks_add(ticks: int, delta: int) -> int:
    """MicroPython's ``time.ticks_add`` as the RP2040 computes it (for CPython and the tests)."""
    _check_ticks(ticks)
    if not -TICKS_PERIOD // 2 < delta < TICKS_PERIOD // 2:
        raise OverflowError("ticks interval overflow")
    return (ticks + delta) & (TICKS_PERIOD - 1)


def ticks_diff(end: int, start: int) -> int:
    """MicroPython's ``time.ticks_diff`` on the RP2040, refusing what no tick counter gives
    (MicroPython's would read such a value as garbage)."""
    _check_ticks(end)
    _check_ticks(start)
    half = TICKS_PERIOD // 2
    return ((end - start + half) & (TICKS_PERIOD - 1)) - half


def _check_ticks(value: int) -> None:
    if not 0 <= value < TICKS_PERIOD:
        raise ValueError("not a tick value (0 to 2**30 - 1): " + str(value))


class Clock:
    """MicroPython's wrapping tick counters; on CPython, counters that wrap at 2**30 as the
    RP2040's do (``start_us``: where the microsecond counter starts, e.g. just before its wrap)."""

    ticks_ms: "Callable[[], int]"
    ticks_us: "Callable[[], int]"
    ticks_diff: "Callable[[int, int], int]"
    ticks_add: "Callable[[int, int], int]"
    sleep_us: "Callable[[int], None]"

    def __init__(self, start_us: int = 0) -> None:
        if hasattr(time, "ticks_ms"):
            mp: ModuleType = time  # MicroPython's time, with its tick counters
            self.ticks_ms = mp.ticks_ms
            self.ticks_us = mp.ticks_us
            self.ticks_diff = mp.ticks_diff
            self.ticks_add = mp.ticks_add
            self.sleep_us = mp.sleep_us
        else:
            mask = TICKS_PERIOD - 1
            origin = time.monotonic()

            def us() -> int:
                return (start_us + int((time.monotonic() - origin) * 1_000_000)) & mask

            def ms() -> int:
                return (start_us // 1000 + int((time.monotonic() - origin) * 1000)) & mask

            self.ticks_us = us
            self.ticks_ms = ms
            self.ticks_diff = ticks_diff
            self.ticks_add = ticks_add
            self.sleep_us = lambda n: time.sleep(n / 1_000_000)


def column_runs(column_pins: "tuple[int, ...]") -> "tuple[list[int], list[int], list[int]]":
    """The columns as runs of consecutive GPIOs (GP11-GP15, GP17-GP20 for 9 x 9): for each run
    its first GPIO, the mask of its width and the first column it holds. A row's columns are
    then gathered from one GPIO_IN word with a shift and a mask a run."""
    starts: list[int] = []
    masks: list[int] = []
    firsts: list[int] = []
    after = -1  # the GPIO after the last run's end
    for c in range(len(column_pins)):
        pin = column_pins[c]
        if pin == after:
            masks[-1] = masks[-1] << 1 | 1
        else:
            starts.append(pin)
            masks.append(1)
            firsts.append(c)
        after = pin + 1
    return starts, masks, firsts


class MatrixPins:
    """N rows driven low one at a time, M columns read with pull-ups; a diode per switch.

    Switch (r, c) is point r * M + c. ``scan()`` leaves the closed switches in ``words``, a list
    made once: word k holds rows k * rows_per_word onwards, ``rows_per_word * M`` <= 16 bits
    each. One mask of 32 or more bits would not fit the RP2040's small integers (31 bits,
    values below 2**30), so every scan would allocate on the heap; the words are joined only
    when a change is reported. An 8 x 4 Damath matrix gives two 16-bit words (rows 0..3, 4..7),
    a 9 x 9 one nine 9-bit words, a 12 x 12 one twelve 12-bit words.

    A row is driven and read through the SIO's registers (``machine.mem32``): one write pulls
    it low, one read of GPIO_IN gives every column at once (30 bits: a small integer), one write
    lets it go; the columns are gathered with a shift and a mask per run of consecutive GPIOs
    (``column_runs``). ``Pin`` objects only set the pins up (function, direction, pull-ups).
    ``sio`` and ``mem``: where the registers are and what reads them (``machine.mem32``); a
    benchmark points them at a word array of its own. ``chip``: whose SIO it is (``SIO_OUT``:
    a Pico 2's RP2350 has its set and clear registers elsewhere); read from the chip itself
    unless given as ``soc`` (a word array is an RP2040's).

    After a row goes low the scan waits ``settle_us`` before reading: a column that the row
    before held low has to rise again through its pull-up (hardware/README.md, "Settle time").
    """

    def __init__(
        self,
        row_pins: "tuple[int, ...]",
        column_pins: "tuple[int, ...]",
        settle_us: int = 20,
        sio: int = SIO_BASE,
        mem: "Any" = None,
        soc: "str | None" = None,
    ) -> None:
        width = len(column_pins)
        if not row_pins or not 1 <= width <= WORD_BITS:
            raise ValueError("a matrix needs rows and 1 to 16 columns")
        self.rows = [machine.Pin(p, machine.Pin.OUT, value=1) for p in row_pins]
        self.columns = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in column_pins]
        self.row_bits = [1 << p for p in row_pins]
        self.starts, self.masks, self.firsts = column_runs(column_pins)
        self.mem = machine.mem32 if mem is None else mem
        self.chip = soc or (chip() if mem is None else "RP2040")
        out_set, out_clr = SIO_OUT[self.chip]
        self.gpio_in = sio + GPIO_IN
        self.out_set = sio + out_set
        self.out_clr = sio + out_clr
        self.settle_us = settle_us
        self._sleep_us: Callable[[int], None] = getattr(time, "sleep_us", None) or _no_sleep
        self.width = width
        self.points = len(row_pins) * width
        self.rows_per_word = WORD_BITS // width
        self.word_bits = self.rows_per_word * width
        count = (len(row_pins) + self.rows_per_word - 1) // self.rows_per_word
        self.words = [0] * count

    def scan(self) -> None:
        mem = self.mem
        gpio_in = self.gpio_in
        out_set = self.out_set
        out_clr = self.out_clr
        row_bits = self.row_bits
        starts = self.starts
        masks = self.masks
        firsts = self.firsts
        runs = len(starts)
        words = self.words
        width = self.width
        per_word = self.rows_per_word
        last = len(row_bits) - 1
        settle = self.settle_us
        sleep_us = self._sleep_us
        acc = 0
        k = 0
        w = 0
        for r in range(last + 1):
            bit = row_bits[r]
            mem[out_clr] = bit
            if settle:
                sleep_us(settle)
            level = mem[gpio_in]
            mem[out_set] = bit
            bits = 0
            for j in range(runs):
                mask = masks[j]
                bits |= ((level >> starts[j] & mask) ^ mask) << firsts[j]  # low: closed
            acc |= bits << (k * width)
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


PIO0_TXF0 = 0x50200010  # PIO0's TX FIFO of state machine 0; 4 bytes a machine


class Ws2812:
    """The LED chain on one PIO state machine, fed by DMA: ``write()`` takes the bytes in wire
    order (GRB), keeps them and returns; ``poll()`` (every pass of the loop) starts the
    transfer once the chain is free, so the scan never waits for the wire (10 us a byte: 4.3 ms
    for 144 LEDs). Each byte is one 8-bit DMA write to the FIFO, which the bus replicates to all
    four bytes of the word (RP2040 datasheet, 2.1.4): the program shifts out its top 8 bits.
    A newer frame replaces one still waiting (newest wins, never half a chain). Between frames
    the line stays low for ``RESET_US``: the chain latches what it was sent. Without ``rp2.DMA``
    (MicroPython before 1.22.0) the bytes go into the FIFO with a blocking ``put``, as before.
    ``max_bytes``: the longest frame (3 x 144 LEDs)."""

    RESET_US = 300  # a WS2812B latches after 280 us low

    def __init__(
        self, pin: int, state_machine: int = 0, max_bytes: int = 432, clock: "Clock | None" = None
    ) -> None:
        self.sm = rp2.StateMachine(
            state_machine, ws2812_bits, freq=8_000_000, sideset_base=machine.Pin(pin)
        )
        self.sm.active(1)
        self._clock = clock or Clock()
        self._frame = bytearray(max_bytes)  # the one on the wire (DMA reads it)
        self._next = bytearray(max_bytes)  # the one waiting
        self._waiting = 0  # bytes of the waiting frame; 0: none
        self._sending = False
        self._ended: int | None = None  # when the last frame left; None: latched long ago
        dma = getattr(rp2, "DMA", None)
        self.dma = dma() if dma is not None else None
        if self.dma is not None:
            self._ctrl = self.dma.pack_ctrl(
                size=0, inc_read=True, inc_write=False, treq_sel=state_machine
            )
            self._fifo = PIO0_TXF0 + 4 * state_machine

    def write(self, data: bytes) -> None:
        n = len(data)
        if self.dma is None:
            self.sm.put(bytearray(data), 24)  # each byte into the top of a FIFO word: blocks
            return
        self._next[0:n] = data
        self._waiting = n
        self.poll()

    def poll(self) -> None:
        """Start the waiting frame once the last one is out and the chain has latched it."""
        dma = self.dma
        if dma is None:
            return
        clock = self._clock
        if self._sending:
            if dma.active() or self.sm.tx_fifo():
                return
            self._sending = False
            self._ended = clock.ticks_us()
        if self._ended is not None:
            if clock.ticks_diff(clock.ticks_us(), self._ended) < self.RESET_US:
                return
            self._ended = None  # latched (and no wrapped tick can hold the next frame back)
        n = self._waiting
        if not n:
            return
        self._frame, self._next = self._next, self._frame
        self._waiting = 0
        self._sending = True
        dma.config(read=self._frame, write=self._fifo, count=n, ctrl=self._ctrl, trigger=True)


class Watchdog:
    """Resets the RP2040 if the loop stops feeding it (max 8.3 s on this chip)."""

    def __init__(self, timeout_ms: int = 2000) -> None:
        self.wdt = machine.WDT(timeout=timeout_ms)

    def feed(self) -> None:
        self.wdt.feed()


READ_BUDGET = 32
"""Bytes a pass of the loop takes from the link at most: an LED frame (up to 440 bytes framed)
is read over several passes, so the scan between them keeps its pace."""


class UartStream:
    """The link on a hardware UART (GP0 TX, GP1 RX by default); ``READ_BUDGET`` bytes a read
    at most (the UART's own buffer keeps the rest)."""

    def __init__(self, uart_id: int = 0, baudrate: int = 115200, tx: int = 0, rx: int = 1) -> None:
        self.uart = machine.UART(uart_id, baudrate=baudrate, tx=machine.Pin(tx), rx=machine.Pin(rx))

    def read(self) -> bytes:
        n = self.uart.any()
        data: bytes = self.uart.read(min(n, READ_BUDGET)) if n else b""
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
    """The link on the USB CDC port (the REPL's port); Ctrl-C interpretation is switched off.

    Nothing is allocated while nothing arrives: the bytes are read into a buffer made once, and
    the port is asked whether a byte waits with ``ipoll`` (``poll`` makes a list each time).
    A frame is written only when the port has room: a host that holds the port open without
    reading would make each write wait 500 ms (MicroPython's ``MICROPY_HW_USB_CDC_TX_TIMEOUT``)
    and a few of them the watchdog fire; such a frame is dropped and counted in ``dropped`` (the
    endpoint sends its state again). ``stdin``/``stdout``: the streams (sys's by default)."""

    def __init__(self, stdin: "Any" = None, stdout: "Any" = None) -> None:
        import select
        import sys

        import micropython

        mp: ModuleType = micropython  # the port's own module, not the one the checker knows
        mp.kbd_intr(-1)  # 0x03 is an ordinary byte in our frames, not a KeyboardInterrupt
        self._in: Any = sys.stdin.buffer if stdin is None else stdin
        self._out = sys.stdout.buffer if stdout is None else stdout
        self._readable = select.poll()
        self._readable.register(self._in, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(self._out, select.POLLOUT)
        self._buf = bytearray(READ_BUDGET)
        self._byte = bytearray(1)
        self.dropped = 0

    def read(self) -> bytes:
        """What has arrived, ``READ_BUDGET`` bytes at most (USB's buffer keeps the rest): the
        port says only whether a byte waits, so they are read one at a time."""
        n = 0
        buf = self._buf
        byte = self._byte
        while n < READ_BUDGET and _ready(self._readable):
            self._in.readinto(byte)
            buf[n] = byte[0]
            n += 1
        if not n:
            return b""  # a constant: an idle read allocates nothing
        return bytes(buf[:n])

    def write(self, data: bytes) -> None:
        if not _ready(self._writable):
            self.dropped += 1  # no room at all: the host is not reading
            return
        self._out.write(data)


def _ready(poll: "Any") -> bool:
    """Whether the one stream registered with ``poll`` is ready, without allocating."""
    for _ in poll.ipoll(0):
        return True
    return False
