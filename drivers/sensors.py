"""Sensor scanners: raw 32-bit occupancy masks from a matrix, debounced, as timestamped frames.

A *source* reads the raw mask once (`read_mask() -> int`, bit i = square i); `Scanner` debounces
it per square (firmware/debounce.py, the same code as on the RP2040) and stamps each change with
the injected clock. Sources: `MockSource` (set squares by hand), `GpioMatrixSource` (gpiozero,
rows driven low one at a time, columns with pull-ups, one diode per switch, a settle time after
each row), `Mcp23017Source` (the same matrix behind an I2C expander) and `Mcp23017InputsSource`
(one expander input per square: the hall-sensor build). The co-processor's is in coprocessor.py.

A read that fails (an I2C NAK, drivers/health.py's ``IO_ERRORS``) is tried again at once; when
every attempt fails the scan keeps the last good frame, and the failures are counted in
``Scanner.faults`` (``Devices.health()``): one bad read never ends the board.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from time import perf_counter_ns
from typing import Any

from drivers.base import Device, FrameReader
from drivers.health import IO_ERRORS, RETRIES, Faults
from drivers.interfaces import MaskSource
from drivers.occupancy import Layout, OccupancyFrame, Square, mask_of, squares_of
from firmware.debounce import Debouncer
from firmware.squares import COLUMNS, ROWS

START_ATTEMPTS = 10
"""Reads tried when the scanner starts: the board as it stands must be read once, or the
device does not start (the factory names it)."""


class Scanner(FrameReader):
    """scan() once per tick; it returns a frame only when the debounced occupancy changed.

    A read that raises one of ``IO_ERRORS`` is tried again ``retries`` times at once; if all
    fail, the scan changes nothing (the last good frame stands, the debounce waits) and
    ``faults`` counts it (drivers/health.py)."""

    def __init__(
        self,
        source: MaskSource,
        debounce_scans: int = 3,
        clock: Callable[[], float] = time.monotonic,
        decode: Callable[[int], frozenset[Square]] = squares_of,
        bits: int = 32,
        retries: int = RETRIES,
        faults: Faults | None = None,
    ) -> None:
        self.source = source
        self.clock = clock
        self.decode = decode
        """A mask -> its cells (8 x 8's 32 squares by default; ``occupancy.Layout.decode``)."""
        self.attempts = 1 + retries
        self.faults = faults or Faults(
            "sensors", "sensor reading", "check the sensors' wiring and connectors"
        )
        initial = self._read(START_ATTEMPTS)
        if initial < 0:
            raise OSError(f"the sensors could not be read: {self.faults.last_error}")
        self.debouncer = Debouncer(debounce_scans, bits, initial=initial)
        self._current = OccupancyFrame(clock(), decode(self.debouncer.stable))

    def _read(self, attempts: int) -> int:
        """The raw mask, or -1 when every attempt failed (each failure counted)."""
        faults = self.faults
        for _ in range(attempts):
            try:
                mask = self.source.read_mask()
            except IO_ERRORS as exc:
                faults.error(exc)
                continue
            faults.ok()
            return mask
        faults.gave_up()
        return -1

    def scan(self) -> OccupancyFrame | None:
        self.check_open()
        raw = self._read(self.attempts)
        if raw < 0:
            return None  # nothing read: the last good frame stands
        before = self.debouncer.stable
        after = self.debouncer.update(raw)
        if after == before:
            return None
        self._current = OccupancyFrame(self.clock(), self.decode(after))
        return self._current

    def close(self) -> None:
        if not self.closed:
            self.source.close()
        super().close()


class MockSource(Device):
    """A board with no hardware: the test or simulator sets which squares are occupied (through
    ``factory.MockControls``, which is what a caller holds)."""

    def __init__(self, occupied: Iterable[Square] = (), layout: Layout | None = None) -> None:
        self.encode: Callable[[Iterable[Square]], int] = layout.encode if layout else mask_of
        self.mask = self.encode(occupied)

    def set(self, occupied: Iterable[Square]) -> None:
        self.check_open()
        self.mask = self.encode(occupied)

    def read_mask(self) -> int:
        self.check_open()
        return self.mask


class GpioMatrixSource:
    """The 8 x 4 switch matrix on the Pi's own pins through gpiozero.

    Rows are outputs, idle high, pulled low one at a time; columns are inputs with pull-ups, so
    a closed switch on the active row reads low (through its diode). After a row goes low the
    scan waits ``settle_us``: a column the previous row held low must rise again through its
    pull-up (about 5 us on 2 m of wire with the Pi's ~50 kOhm internal pull-up; the documented
    10 kOhm pull-ups make it 1 us). The wait is a busy wait: a sleep that short oversleeps by
    ~60 us. The scan talks to the gpiozero pin objects directly: the Device layer's locking
    costs about three times as much.
    """

    def __init__(
        self, rows: list[int], columns: list[int], pin_factory: Any = None, settle_us: int = 20
    ) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        if len(rows) != ROWS or len(columns) != COLUMNS:
            raise ValueError(f"the matrix needs {ROWS} rows and {COLUMNS} columns")
        self._devices = []
        try:
            for pin in rows:
                self._devices.append(
                    DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory)
                )
            for pin in columns:
                self._devices.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise
        self._rows = [d.pin for d in self._devices[:ROWS]]
        self._columns = [d.pin for d in self._devices[ROWS:]]
        self.settle_ns = settle_us * 1000

    def read_mask(self) -> int:
        mask = 0
        bit = 1
        settle = self.settle_ns
        for row in self._rows:
            row.state = 0
            if settle:
                until = perf_counter_ns() + settle
                while perf_counter_ns() < until:
                    pass
            for column in self._columns:
                if not column.state:
                    mask |= bit
                bit <<= 1
            row.state = 1
        return mask

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices = []


class Mcp23017Source:
    """The same matrix behind an MCP23017: rows on GPA0..7, columns on GPB0..3 with pull-ups.

    Two register accesses a row (write GPIOA, read GPIOB): about 1.5 ms a scan at 400 kHz I2C.
    """

    def __init__(self, i2c: Any = None, address: int = 0x20) -> None:
        from adafruit_mcp230xx.mcp23017 import MCP23017

        if i2c is None:
            from drivers.blinka import board

            i2c = board().I2C()
        self._mcp = MCP23017(i2c, address=address)
        self._mcp.gpioa = 0xFF
        self._mcp.iodira = 0x00  # rows: outputs, idle high
        self._mcp.iodirb = 0x7F  # columns: inputs; GPB7 is output-only (2022 datasheet)
        self._mcp.gppub = 0x0F  # 100k pull-ups on the four columns

    def read_mask(self) -> int:
        mask = 0
        mcp = self._mcp
        for r in range(ROWS):
            mcp.gpioa = 0xFF ^ (1 << r)
            low = ~mcp.gpiob & 0x0F
            mask |= low << (COLUMNS * r)
        mcp.gpioa = 0xFF
        return mask

    def close(self) -> None:
        pass


def hall_wiring(
    addresses: tuple[int, ...], inputs: tuple[int, ...], count: int = ROWS * COLUMNS
) -> list[tuple[int, int]]:
    """Square i -> (expander address, input bit) of the hall build: input ``inputs[i % n]`` of
    the expander at ``addresses[i // n]`` (bit 0..15: GPA0 = 0, GPB0 = 8)."""
    n = len(inputs)
    return [(addresses[i // n], inputs[i % n]) for i in range(count)]


class Mcp23017InputsSource:
    """One input per square on MCP23017s: the hall-sensor build (hardware/README.md).

    ``inputs`` are the bits of each expander wired to a sensor (GPA0..GPA6 and GPB0..GPB6 by
    default: GPA7 and GPB7 are output-only, so they are made outputs here and never read as a
    square). Each sensor is powered all the time and pulls its input low near a magnet (open
    drain, the expander's 100 kOhm pull-ups), so nothing is switched and nothing needs to settle:
    a scan is one two-byte read per expander (about 0.2 ms each at 400 kHz); a table per port
    byte turns what is read into the squares' bits.
    """

    def __init__(
        self,
        i2c: Any = None,
        addresses: tuple[int, ...] = (0x20, 0x21, 0x22),
        inputs: tuple[int, ...] = tuple(range(7)) + tuple(range(8, 15)),
    ) -> None:
        from adafruit_mcp230xx.mcp23017 import MCP23017

        if i2c is None:
            from drivers.blinka import board

            i2c = board().I2C()
        if len(addresses) * len(inputs) < ROWS * COLUMNS:
            raise ValueError(
                f"{len(addresses)} expanders of {len(inputs)} inputs cannot read "
                f"{ROWS * COLUMNS} squares"
            )
        wiring = hall_wiring(addresses, inputs)
        self._chips = []
        self._tables: list[tuple[list[int], list[int]]] = []
        for address in addresses:
            used = 0
            low, high = [0] * 256, [0] * 256  # port A byte, port B byte -> squares' bits
            for square, (at, bit) in enumerate(wiring):
                if at != address:
                    continue
                used |= 1 << bit
                table, b = (low, bit) if bit < 8 else (high, bit - 8)
                for value in range(256):
                    if value >> b & 1:
                        table[value] |= 1 << square
            mcp = MCP23017(i2c, address=address)
            mcp.iodir = 0x7F7F  # GPA7, GPB7 output-only: outputs; the rest inputs
            mcp.gppu = used  # pull-ups on the sensors' inputs
            mcp.ipol = 0x0000
            self._chips.append(mcp)
            self._tables.append((low, high))

    def read_mask(self) -> int:
        mask = 0
        for mcp, (low, high) in zip(self._chips, self._tables, strict=True):
            level = ~mcp.gpio & 0xFFFF  # low = a magnet: a chip on the square
            mask |= low[level & 0xFF] | high[level >> 8]
        return mask

    def close(self) -> None:
        pass
