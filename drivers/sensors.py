"""Sensor scanners: raw 32-bit occupancy masks from a matrix, debounced, as timestamped frames.

A *source* reads the raw mask once (`read_mask() -> int`, bit i = square i); `Scanner` debounces
it per square (firmware/debounce.py, the same code as on the RP2040) and stamps each change with
the injected clock. Sources: `MockSource` (set squares by hand), `GpioMatrixSource` (gpiozero,
rows driven low one at a time, columns with pull-ups, one diode per switch, a settle time after
each row), `Mcp23017Source` (the same matrix behind an I2C expander) and `Mcp23017InputsSource`
(one expander input per square: the hall-sensor build). The co-processor's is in coprocessor.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from time import perf_counter_ns
from typing import Any

from drivers.base import Device, FrameReader
from drivers.interfaces import MaskSource
from drivers.occupancy import Layout, OccupancyFrame, Square, mask_of, squares_of
from firmware.debounce import Debouncer
from firmware.squares import COLUMNS, ROWS


class Scanner(FrameReader):
    """scan() once per tick; it returns a frame only when the debounced occupancy changed."""

    def __init__(
        self,
        source: MaskSource,
        debounce_scans: int = 3,
        clock: Callable[[], float] = time.monotonic,
        decode: Callable[[int], frozenset[Square]] = squares_of,
        bits: int = 32,
    ) -> None:
        self.source = source
        self.clock = clock
        self.decode = decode
        """A mask -> its cells (8 x 8's 32 squares by default; ``occupancy.Layout.decode``)."""
        self.debouncer = Debouncer(debounce_scans, bits, initial=source.read_mask())
        self._current = OccupancyFrame(clock(), decode(self.debouncer.stable))

    def scan(self) -> OccupancyFrame | None:
        self.check_open()
        before = self.debouncer.stable
        after = self.debouncer.update(self.source.read_mask())
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
        self._mcp.iodirb = 0xFF  # columns: inputs
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


class Mcp23017InputsSource:
    """One input per square on two MCP23017s: the hall-sensor build (hardware/README.md).

    Square i is input i % 16 of the expander at ``addresses[i // 16]`` (GPA0..7 then GPB0..7).
    Each sensor is powered all the time and pulls its input low near a magnet (open drain, the
    expander's 100 kOhm pull-ups), so nothing is switched and nothing needs to settle: a scan is
    one two-byte read per expander (about 0.2 ms each at 400 kHz).
    """

    def __init__(self, i2c: Any = None, addresses: tuple[int, ...] = (0x20, 0x21)) -> None:
        from adafruit_mcp230xx.mcp23017 import MCP23017

        if i2c is None:
            from drivers.blinka import board

            i2c = board().I2C()
        self._chips = []
        for address in addresses:
            mcp = MCP23017(i2c, address=address)
            mcp.iodir = 0xFFFF  # all inputs
            mcp.gppu = 0xFFFF  # pull-ups on
            mcp.ipol = 0x0000
            self._chips.append(mcp)

    def read_mask(self) -> int:
        mask = 0
        for n, mcp in enumerate(self._chips):
            mask |= (~mcp.gpio & 0xFFFF) << (16 * n)  # low = a magnet: a chip on the square
        return mask

    def close(self) -> None:
        pass
