"""Fake I2C and SPI buses with just enough chip behaviour to run the Adafruit drivers off a Pi."""

from __future__ import annotations


class FakeI2C:
    """busio.I2C's interface; each address is a chip object with write(bytes) and read(n)."""

    def __init__(self, chips: dict[int, object]) -> None:
        self.chips = chips

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def scan(self) -> list[int]:
        return sorted(self.chips)

    def _chip(self, address: int):
        if address not in self.chips:
            raise OSError(121, "Remote I/O error")
        return self.chips[address]

    def writeto(self, address, buffer, *, start=0, end=None) -> None:
        self._chip(address).write(bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._chip(address).read(end - start)

    def writeto_then_readfrom(
        self, address, out, into, *, out_start=0, out_end=None, in_start=0, in_end=None
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
    joins a column to the row that GPIOA drives low."""

    def __init__(self) -> None:
        self.regs = bytearray(0x16)
        self.pointer = 0
        self.closed: set[tuple[int, int]] = set()  # (row, column)
        self.inputs: int | None = None  # one input per square instead: GPIOB:GPIOA levels
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
    """busio.SPI's interface; records every write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.frequency = 6_400_000

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, **kwargs) -> None:
        pass

    def write(self, buffer, *, start=0, end=None) -> None:
        self.writes.append(bytes(buffer[start:end]))
