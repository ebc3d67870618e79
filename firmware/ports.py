"""The hardware the firmware's loop is handed (``app.Firmware``), as the type checker sees it:
the real parts on the Pico (hw.py), the fakes in the tests. Read by the type checker only: no
firmware file imports it at run time, and it is not copied to the Pico (README.md)."""

from typing import Protocol


class Matrix(Protocol):
    """``scan()`` leaves the closed switches in ``words`` (made once, changed in place): word k
    holds points k * word_bits onwards, each a small integer on the RP2040 (hw.MatrixPins)."""

    words: list[int]
    word_bits: int
    points: int

    def scan(self) -> None: ...


class Leds(Protocol):
    """``write`` keeps a frame and returns at once; ``poll`` (every pass) sends it (hw.Ws2812)."""

    def write(self, data: bytes) -> None: ...

    def poll(self) -> None: ...


class Stream(Protocol):
    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...


class Watchdog(Protocol):
    def feed(self) -> None: ...


class Clock(Protocol):
    """MicroPython's wrapping tick counters: ``ticks_diff`` is the only right subtraction and
    ``ticks_add`` the only right sum (they wrap at 2**30 on the RP2040: hw.TICKS_PERIOD)."""

    def ticks_ms(self) -> int: ...

    def ticks_us(self) -> int: ...

    def ticks_diff(self, a: int, b: int) -> int: ...

    def ticks_add(self, ticks: int, delta: int) -> int: ...

    def sleep_us(self, us: int) -> None: ...
