"""The I/O faults of the devices the scan loop uses on every pass, counted, never fatal.

An I2C NAK among the hall build's ~600 reads a second, an SPI or serial error: the scanner and
the LED strip catch it (``IO_ERRORS``), keep the last good frame and try again (at once for a
read, ``RETRIES`` times; at the next render for an LED frame), and count it here. After
``PROBLEM_AFTER`` operations in a row that failed (every attempt of a scan, or an LED frame not
sent), the device has a ``problem``: one short line for the display and the simulator's page.
It goes away after ``CLEAR_AFTER`` good operations in a row.

A board's loop reads it all through ``Devices.health()`` (drivers/factory.py): a ``Health``, a
frozen snapshot with one ``DeviceHealth`` per device that can fail on the loop (docs/wiring.md,
"When a device fails").
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.framing import FrameError


def gpio_errors() -> tuple[type[Exception], ...]:
    """lgpio's own ``lgpio.error`` (an Exception, not an OSError), which gpiozero's lgpio pins
    let through when a GPIO read fails on a Pi 5; nothing where lgpio is not installed."""
    try:
        import lgpio  # type: ignore[import-not-found]  # only on a Pi
    except Exception:  # off a Pi, or its C library missing: ImportError, OSError
        return ()
    error = getattr(lgpio, "error", None)
    return (error,) if isinstance(error, type) and issubclass(error, Exception) else ()


IO_ERRORS: tuple[type[Exception], ...] = (OSError, FrameError, *gpio_errors())
"""What a bus, a pin or a port raises when a transfer fails: OSError (an I2C NAK is errno 121,
SPI and pyserial's SerialException are OSErrors too), lgpio's error, a garbled co-processor
frame."""
RETRIES = 2
"""Reads tried again at once, in the same scan, before the last good frame is kept."""
PROBLEM_AFTER = 20
"""Failed operations in a row that make a problem: 20 scans is 0.1 s at 200 Hz."""
CLEAR_AFTER = 200
"""Good operations in a row that clear it again: 1 s at 200 Hz."""


@dataclass(frozen=True)
class DeviceHealth:
    """One device's faults since the board started."""

    device: str
    """``"sensors"``, ``"leds"`` or ``"link"`` (the co-processor)."""
    errors: int = 0
    """I/O errors caught: every failed attempt (a read retried twice and lost counts 3)."""
    missed: int = 0
    """Operations given up: scans that kept the last good frame, LED frames left to resend."""
    failing: int = 0
    """Operations that failed in a row, up to now (0 once one works)."""
    last_error: str | None = None
    """The last error, as ``OSError: [Errno 121] Remote I/O error``."""
    problem: str | None = None
    """One line for the display and the page, from ``PROBLEM_AFTER`` failures in a row until
    ``CLEAR_AFTER`` good operations in a row; None while the device works."""


@dataclass(frozen=True)
class Health:
    """Every device's faults: ``devices`` in a fixed order (sensors, leds, link)."""

    devices: tuple[DeviceHealth, ...] = ()

    @property
    def errors(self) -> int:
        """I/O errors caught on every device since the start."""
        return sum(d.errors for d in self.devices)

    @property
    def problem(self) -> str | None:
        """The devices' problems in one line ("; " between them), or None when all work."""
        problems = [d.problem for d in self.devices if d.problem]
        return "; ".join(problems) if problems else None

    def of(self, device: str) -> DeviceHealth:
        """One device's entry; a device the board does not have has none (all zero)."""
        for d in self.devices:
            if d.device == device:
                return d
        return DeviceHealth(device)


def describe(exc: BaseException) -> str:
    """An error as the last_error line: its type and message."""
    return f"{type(exc).__name__}: {exc}"


class Faults:
    """The counters a device keeps (cheap on the fast path: a good operation after good ones is
    one comparison). ``what`` names the device in the problem's line, ``hint`` says what to
    check."""

    def __init__(
        self,
        device: str,
        what: str,
        hint: str,
        problem_after: int = PROBLEM_AFTER,
        clear_after: int = CLEAR_AFTER,
    ) -> None:
        if problem_after < 1 or clear_after < 1:
            raise ValueError("problem_after and clear_after must be at least 1")
        self.device = device
        self.what = what
        self.hint = hint
        self.problem_after = problem_after
        self.clear_after = clear_after
        self.errors = 0
        self.missed = 0
        self.failing = 0
        self.good = 0  # good operations in a row while a problem stands
        self.last_error: str | None = None
        self.problem: str | None = None
        self._reason = ""

    def error(self, exc: BaseException) -> None:
        """One attempt failed (it may still be retried)."""
        self.errors += 1
        self.last_error = describe(exc)
        self._reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)

    def gave_up(self) -> None:
        """The operation failed after its retries: the last good state stands."""
        self.missed += 1
        self.failing += 1
        self.good = 0
        if self.problem is None and self.failing >= self.problem_after:
            self.problem = f"{self.what} failing ({self._reason}): {self.hint}"

    def ok(self) -> None:
        """An operation worked."""
        if self.failing:
            self.failing = 0
        if self.problem is not None:
            self.good += 1
            if self.good >= self.clear_after:
                self.problem = None
                self.good = 0

    def snapshot(self) -> DeviceHealth:
        return DeviceHealth(
            self.device, self.errors, self.missed, self.failing, self.last_error, self.problem
        )
