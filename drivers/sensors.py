"""Sensor scanners: raw 32-bit occupancy masks from a matrix, debounced, as timestamped frames.

A *source* reads the raw mask once (`read_mask() -> int`, bit i = square i); `Scanner` debounces
it per square (firmware/debounce.py, the same code as on the RP2040) and stamps each change with
the injected clock. Sources: `MockSource` (set squares by hand), `GpioMatrixSource` (gpiozero,
rows driven low one at a time, columns with pull-ups, one diode per switch) and `Mcp23017Source`
(the same matrix behind an I2C expander). The co-processor's scanner is in coprocessor.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from drivers.base import FrameReader
from drivers.occupancy import OccupancyFrame, Square, mask_of, squares_of
from firmware.debounce import Debouncer
from firmware.squares import COLUMNS, ROWS


class Scanner(FrameReader):
    """scan() once per tick; it returns a frame only when the debounced occupancy changed."""

    def __init__(
        self,
        source,
        debounce_scans: int = 3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.clock = clock
        self.debouncer = Debouncer(debounce_scans, initial=source.read_mask())
        self._current = OccupancyFrame(clock(), squares_of(self.debouncer.stable))

    def scan(self) -> OccupancyFrame | None:
        before = self.debouncer.stable
        after = self.debouncer.update(self.source.read_mask())
        if after == before:
            return None
        self._current = OccupancyFrame(self.clock(), squares_of(after))
        return self._current

    def close(self) -> None:
        if not self.closed:
            self.source.close()
        super().close()


class MockSource:
    """A board with no hardware: the test or simulator sets which squares are occupied."""

    def __init__(self, occupied: Iterable[Square] = ()) -> None:
        self.mask = mask_of(occupied)

    def set(self, occupied: Iterable[Square]) -> None:
        self.mask = mask_of(occupied)

    def read_mask(self) -> int:
        return self.mask

    def close(self) -> None:
        pass


class GpioMatrixSource:
    """The 8 x 4 switch matrix on the Pi's own pins through gpiozero.

    Rows are outputs, idle high, pulled low one at a time; columns are inputs with pull-ups, so
    a closed switch on the active row reads low (through its diode). The scan loop talks to the
    gpiozero pin objects directly: the Device layer's locking costs about three times as much.
    """

    def __init__(self, rows: list[int], columns: list[int], pin_factory=None) -> None:
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

    def read_mask(self) -> int:
        mask = 0
        bit = 1
        for row in self._rows:
            row.state = 0
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

    def __init__(self, i2c=None, address: int = 0x20) -> None:
        from adafruit_mcp230xx.mcp23017 import MCP23017

        if i2c is None:
            import board

            i2c = board.I2C()
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
