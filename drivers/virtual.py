"""A Raspberry Pi's header and buses in software, for tests, benchmarks and the test hook.

The real backends (gpiozero devices, Adafruit's HT16K33 and MCP23017 drivers, neopixel_spi, luma)
run over them unchanged: gpiozero's MockFactory (every pin PWM-capable, the sensor matrix wired
as ``SimulatedMatrix``), a fake I2C bus with HT16K33 and MCP23017 chips, a fake SPI bus that keeps
what the LED chain was sent, and luma's ``dummy`` display. Each bus can be given the time a real
transfer takes (``bus_hz``), so a benchmark sees the costs a Pi would.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from drivers.occupancy import Square
from drivers.profile import BoardProfile

I2C_BITS_PER_BYTE = 9  # 8 data bits and the acknowledge


class FakeI2C:
    """busio.I2C's interface; each address is a chip object with write(bytes) and read(n).
    With ``bus_hz`` every transfer takes as long as it would on the wire. With
    ``fail_one_read_in`` = n, one read in n (at random, from ``seed``) fails as a NAK does on a
    Pi (OSError 121, nothing read); ``failed_reads`` counts them."""

    def __init__(
        self,
        chips: dict[int, Any],
        bus_hz: float | None = None,
        fail_one_read_in: int | None = None,
        seed: int = 0,
    ) -> None:
        import random

        self.chips = chips
        self.bus_hz = bus_hz
        self.bytes = 0
        self.fail_one_read_in = fail_one_read_in
        self.failed_reads = 0
        self._random = random.Random(seed)

    def _spend(self, n: int) -> None:
        self.bytes += n + 1
        if self.bus_hz:
            time.sleep((n + 1) * I2C_BITS_PER_BYTE / self.bus_hz)

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def scan(self) -> list[int]:
        return sorted(self.chips)

    def _chip(self, address: int) -> Any:
        if address not in self.chips:
            raise OSError(121, "Remote I/O error")
        return self.chips[address]

    def writeto(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        data = bytes(buffer[start:end])
        self._spend(len(data))
        self._chip(address).write(data)

    def readfrom_into(
        self, address: int, buffer: Any, *, start: int = 0, end: int | None = None
    ) -> None:
        end = len(buffer) if end is None else end
        self._spend(end - start)
        chip = self._chip(address)
        if self.fail_one_read_in and self._random.randrange(self.fail_one_read_in) == 0:
            self.failed_reads += 1
            raise OSError(121, "Remote I/O error")
        buffer[start:end] = chip.read(end - start)

    def writeto_then_readfrom(
        self,
        address: int,
        out: Any,
        into: Any,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        self.writeto(address, out, start=out_start, end=out_end)
        self.readfrom_into(address, into, start=in_start, end=in_end)


class Ht16k33Chip:
    """Display RAM (16 bytes) written from register 0, and every command byte."""

    def __init__(self) -> None:
        self.ram = bytearray(16)
        self.commands: list[int] = []

    def write(self, data: bytes) -> None:
        if len(data) == 1:
            self.commands.append(data[0])
        elif data:
            start = data[0]
            self.ram[start : start + len(data) - 1] = data[1:]

    def read(self, n: int) -> bytes:
        return bytes(n)


class Mcp23017Chip:
    """Register file (BANK=0) with a switch matrix: GPIOB bits go low where a closed switch
    joins a column to the row that GPIOA drives low; or, with ``inputs`` set, one input per
    square (GPIOB:GPIOA levels)."""

    def __init__(self) -> None:
        self.regs = bytearray(0x16)
        self.pointer = 0
        self.closed: set[tuple[int, int]] = set()  # (row, column)
        self.inputs: int | None = None
        self.transactions = 0

    def write(self, data: bytes) -> None:
        self.transactions += 1
        if not data:
            return
        self.pointer = data[0]
        for value in data[1:]:
            self.regs[self.pointer] = value
            self.pointer += 1

    def _gpiob(self) -> int:
        low_rows = {
            r for r in range(8) if not (self.regs[0x12] >> r) & 1 and not self.regs[0] >> r & 1
        }
        value = 0xFF
        for r, c in self.closed:
            if r in low_rows:
                value &= ~(1 << c)
        return value & 0xFF

    def read(self, n: int) -> bytes:
        out = []
        for _ in range(n):
            if self.inputs is not None and self.pointer in (0x12, 0x13):
                out.append(self.inputs >> (8 * (self.pointer - 0x12)) & 0xFF)
            elif self.pointer == 0x13:
                out.append(self._gpiob())
            else:
                out.append(self.regs[self.pointer])
            self.pointer += 1
        return bytes(out)


class FakeSpi:
    """busio.SPI's interface; keeps the last writes (with ``bus_hz``, each takes its time)."""

    def __init__(self, bus_hz: float | None = None, keep: int = 4) -> None:
        self.writes: list[bytes] = []
        self.frequency = 6_400_000
        self.bus_hz = bus_hz
        self.keep = keep

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, **kwargs: Any) -> None:
        pass

    def write(self, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        data = bytes(buffer[start:end])
        if self.bus_hz:
            time.sleep(len(data) * 8 / self.bus_hz)
        self.writes.append(data)
        del self.writes[: -self.keep]


class CostedDisplay:
    """luma's ``dummy`` device, each picture taking the I2C time a 128x64 SSD1306 page takes:
    1024 data bytes plus the few command bytes that set the window, at ``bus_hz``."""

    PAGE_BYTES = 1024 + 8

    def __init__(self, bus_hz: float | None = None, width: int = 128, height: int = 64):
        from luma.core.device import dummy

        self.dummy = dummy(width=width, height=height, mode="1")
        self.bus_hz = bus_hz
        self.pictures = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.dummy, name)

    def display(self, image: Any) -> None:
        if self.bus_hz:
            time.sleep(self.PAGE_BYTES * I2C_BITS_PER_BYTE / self.bus_hz)
        self.dummy.display(image)
        self.pictures += 1

    def cleanup(self) -> None:
        pass


PI_REVISIONS = {4: "c03114", 5: "d04170"}  # a Pi 4 B 4 GB, a Pi 5 4 GB


class VirtualPi:
    """Everything a board profile's real backends open, in software (build_devices(**hardware)).

    ``matrix``: the simulated switch matrix (gpio-matrix profiles); ``i2c`` with the clock chips
    at their addresses (and the MCP23017s of an expander build); ``spi``; ``display``; the
    buttons are the factory's pins (``press``/``release``).
    """

    def __init__(
        self,
        profile: BoardProfile,
        revision: str | None = None,
        bus_hz: float | None = None,
        fail_one_read_in: int | None = None,
        seed: int = 0,
    ) -> None:
        """``fail_one_read_in``, ``seed``: I2C reads failing at random (``FakeI2C``)."""
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        from drivers.mockmatrix import SimulatedMatrix

        self.profile = profile
        rev = revision or PI_REVISIONS.get(profile.pi or 5, PI_REVISIONS[5])
        self.factory = MockFactory(revision=rev, pin_class=MockPWMPin)  # PWM on every pin
        self.matrix = None
        if profile.sensors.backend == "gpio-matrix":
            self.matrix = SimulatedMatrix(
                self.factory, list(profile.sensors.rows), list(profile.sensors.columns)
            )
        chips: dict[int, Any] = {a: Ht16k33Chip() for a in profile.clocks.addresses}
        if profile.sensors.backend == "mcp23017":
            chips[profile.sensors.i2c_address] = Mcp23017Chip()
        elif profile.sensors.backend == "mcp23017-inputs":
            for address in profile.sensors.i2c_addresses:
                chips[address] = Mcp23017Chip()
                chips[address].inputs = 0xFFFF
        self.chips = chips
        self.i2c = FakeI2C(chips, bus_hz, fail_one_read_in, seed)
        self.spi = FakeSpi()
        self.display = CostedDisplay(bus_hz)

    @property
    def hardware(self) -> dict[str, Any]:
        return {
            "pin_factory": self.factory,
            "i2c": self.i2c,
            "spi": self.spi,
            "display": self.display,
        }

    def set_board(self, occupied: Iterable[Square]) -> None:
        """Chips on these squares (whatever the sensor build)."""
        from drivers.occupancy import mask_of

        s = self.profile.sensors
        if self.matrix is not None:
            self.matrix.set(occupied)
        elif s.backend == "mcp23017-inputs":
            from drivers.sensors import hall_wiring

            levels = dict.fromkeys(s.i2c_addresses, 0xFFFF)  # pulled up: no magnet
            mask = mask_of(occupied)
            for i, (address, bit) in enumerate(hall_wiring(s.i2c_addresses, s.inputs)):
                if mask >> i & 1:
                    levels[address] &= ~(1 << bit)  # a magnet pulls the input low
            for address, level in levels.items():
                self.chips[address].inputs = level
        elif s.backend == "mcp23017":
            from firmware.squares import COLUMNS, index_of

            self.chips[s.i2c_address].closed = {
                divmod(index_of(x, y), COLUMNS) for x, y in occupied
            }

    def button_pin(self, name: str) -> Any:
        return self.factory.pin(self.profile.buttons.pins[name])

    def leds_sent(self) -> bytes:
        """The LED bytes of the chain's last SPI transfer (each bit is one SPI byte)."""
        if not self.spi.writes:
            return b""
        count = self.profile.leds.count * 3
        wire = self.spi.writes[-1]
        reset = len(wire) - 8 * count
        body = wire[reset // 2 : reset // 2 + 8 * count]
        out = bytearray()
        for i in range(0, len(body), 8):
            byte = 0
            for b in body[i : i + 8]:
                byte = byte << 1 | (b == 0b11110000)
            out.append(byte)
        return bytes(out)

    def close(self) -> None:
        self.factory.reset()
        self.factory.close()
