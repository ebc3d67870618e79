"""The hardware the firmware's loop is handed (``app.Firmware``), as the type checker sees it:
the real parts on the Pico (hw.py), the fakes in the tests. Read by the type checker only: no
firmware file imports it at run time, and it is not copied to the Pico (README.md)."""

from typing import Protocol


class Matrix(Protocol):
    """``scan()`` leaves the closed switches in two 16-bit halves, ``low`` and ``high``."""

    low: int
    high: int

    def scan(self) -> None: ...


class Leds(Protocol):
    def write(self, data: bytes) -> None: ...


class Stream(Protocol):
    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...


class Watchdog(Protocol):
    def feed(self) -> None: ...


class Clock(Protocol):
    """MicroPython's wrapping tick counters (``ticks_diff`` is the only right subtraction)."""

    def ticks_ms(self) -> int: ...

    def ticks_us(self) -> int: ...

    def ticks_diff(self, a: int, b: int) -> int: ...

    def sleep_us(self, us: int) -> None: ...
