"""build_devices(profile): the one place that picks each device's backend from a board profile.

Extra hardware handles (a gpiozero pin factory, an I2C bus, an SPI bus, a serial opener, a luma
display device) can be passed in, so tests, benchmarks and the simulator build the real backends
over mocks through this same code (drivers/virtual.py gathers a whole set of them).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from drivers.buttons import Buttons, GpioButtons, MockButtons
from drivers.buzzer import ActiveTone, Buzzer, MockTone, TonalTone
from drivers.clocks import Clocks, Ht16k33Clocks, MockClocks
from drivers.coprocessor import LinkLedWriter, LinkScanner, dark_squares, grid_points
from drivers.health import Health
from drivers.interfaces import LedWriter, MaskSource
from drivers.leds import LedStrip, MockLedWriter, NeoPixelSpiWriter
from drivers.link import Link, _open_serial
from drivers.occupancy import Layout, Square
from drivers.profile import BoardProfile
from drivers.scoresheet import MockScoresheet, OledScoresheet, Scoresheet, SerialScoresheet
from drivers.sensors import (
    GpioMatrixSource,
    Mcp23017InputsSource,
    Mcp23017Source,
    MockSource,
    Scanner,
)


class DeviceError(RuntimeError):
    """A device named in the profile could not be started; says which and why."""


class MockControls:
    """The hands at a board whose devices are mocks, as gpiozero's ``MockPin.drive_low`` is for
    a pin: set chips on squares, press the arbiter's buttons, and read back what the board
    showed. The simulator, the demo, the selftest and the tests hold this, never the mocks."""

    def __init__(
        self,
        source: MockSource | None,
        buttons: MockButtons | None,
        leds: MockLedWriter | None,
        clocks: MockClocks | None = None,
        tone: MockTone | None = None,
    ) -> None:
        self._source = source
        self._buttons = buttons
        self._leds = leds
        self._clocks = clocks
        self._tone = tone

    @property
    def senses(self) -> bool:
        """The sensors are mocks: ``set_occupied`` moves chips."""
        return self._source is not None

    @property
    def presses(self) -> bool:
        """The buttons are mocks: ``press`` presses them."""
        return self._buttons is not None

    def set_occupied(self, squares: Iterable[Square]) -> None:
        """The chips stand on exactly these squares now (the next scan sees them)."""
        if self._source is None:
            raise DeviceError("the sensors are not mocks: chips are moved by hand")
        self._source.set(squares)

    def press(self, name: str, kind: Literal["press", "hold"] = "press") -> None:
        """An arbiter's button pressed (or held); ValueError names the buttons for a wrong one."""
        if self._buttons is None:
            raise DeviceError("the buttons are not mocks: they are pressed by hand")
        self._buttons.inject(name, kind)

    def led_frames(self) -> int:
        """How many frames the LED strip was sent (0 when the strip is not a mock)."""
        return len(self._leds.frames) if self._leds is not None else 0

    def last_led_frame(self) -> bytes | None:
        """The bytes the mock strip was sent last (None before any, or without a mock)."""
        return self._leds.frames[-1] if self._leds is not None and self._leds.frames else None

    def clock_faces(self) -> tuple[str, str, bool] | None:
        """What the mock clock displays show now: left digits, right digits, colon."""
        return self._clocks.shown[-1] if self._clocks is not None and self._clocks.shown else None

    def tones(self) -> list[tuple[float, float | None]]:
        """Every change of the mock buzzer: (time, frequency, or None for silence)."""
        return list(self._tone.events) if self._tone is not None else []


@dataclass
class Devices:
    sensors: Scanner | LinkScanner | None = None
    leds: LedStrip | None = None
    clocks: Clocks | None = None
    buzzer: Buzzer | None = None
    buttons: Buttons | None = None
    scoresheet: Scoresheet | None = None
    link: Link | None = None

    def close(self) -> None:
        """Close every device (the link last); one failing close doesn't leave the rest open."""
        errors = []
        for name in ("scoresheet", "buttons", "buzzer", "clocks", "leds", "sensors", "link"):
            device = getattr(self, name)
            if device is not None:
                try:
                    device.close()
                except Exception as exc:
                    errors.append(f"{name}: {exc}")
        if errors:
            raise DeviceError("closing devices: " + "; ".join(errors))

    def health(self) -> Health:
        """The I/O faults of the devices the loop reads and writes every pass (drivers/health.py):
        the sensors, the LED chain and the co-processor's link, whichever the board has. A
        frozen snapshot: ``health().problem`` is the line to show (None: all is well),
        ``health().errors`` the errors caught since the start."""
        sensors = self.sensors
        entries = []
        if isinstance(sensors, Scanner):
            entries.append(sensors.faults.snapshot())
        if self.leds is not None:
            entries.append(self.leds.faults.snapshot())
        if isinstance(sensors, LinkScanner):
            entries.append(sensors.health())
        elif self.link is not None:
            entries.append(self.link.health())
        return Health(tuple(entries))

    def controls(self) -> MockControls:
        """The hands for the devices that are mocks (the others are left to real hands)."""
        sensors = self.sensors
        source = sensors.source if isinstance(sensors, Scanner) else None
        writer = self.leds.writer if self.leds is not None else None
        tone = self.buzzer.tone if self.buzzer is not None else None
        return MockControls(
            source if isinstance(source, MockSource) else None,
            self.buttons if isinstance(self.buttons, MockButtons) else None,
            writer if isinstance(writer, MockLedWriter) else None,
            self.clocks if isinstance(self.clocks, MockClocks) else None,
            tone if isinstance(tone, MockTone) else None,
        )

    def __enter__(self) -> Devices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_devices(
    profile: BoardProfile,
    *,
    pin_factory: Any = None,
    i2c: Any = None,
    spi: Any = None,
    open_port: Callable[[str, int], Any] = _open_serial,
    display: Any = None,
    clock: Callable[[], float] = time.monotonic,
    only: tuple[str, ...] | None = None,
) -> Devices:
    """The profile's devices; ``only`` builds just those sections (the selftest starts each on
    its own, so one that fails does not keep the others from being tested)."""
    devices = Devices()
    step = "link"

    def wanted(section: str) -> bool:
        return only is None or section in only

    try:
        linked = [s for s in ("sensors", "leds") if getattr(profile, s).backend == "link"]
        if profile.link is not None and any(wanted(s) for s in linked):
            c = profile.link
            devices.link = Link(
                c.port,
                c.baudrate,
                clock=clock,
                open_port=open_port,
                retry_ms=c.retry_ms,
                heartbeat_ms=c.heartbeat_ms,
                timeout_ms=c.timeout_ms,
                write_timeout_ms=c.write_timeout_ms,
                points=profile.squares,  # announced in HELLO: a Pico of another size is named
            )
        step = "sensors"
        s = profile.sensors
        if not wanted("sensors"):
            pass
        elif s.backend == "link":
            assert devices.link is not None  # built above for a linked section
            if profile.grid == "points":  # Mathematical Chess: bit size * y + x is (x, y)
                decode = grid_points(profile.size)
                devices.sensors = LinkScanner(devices.link, clock, decode=decode)
            elif profile.size == 8:  # 8 x 8 Damath: the 32-square mask as it always was
                devices.sensors = LinkScanner(devices.link, clock)
            else:
                decode = dark_squares(profile.size)
                devices.sensors = LinkScanner(devices.link, clock, decode=decode)
        else:
            source: MaskSource
            layout = Layout(profile.size, profile.grid)
            if s.backend == "gpio-matrix":
                source = GpioMatrixSource(list(s.rows), list(s.columns), pin_factory, s.settle_us)
            elif s.backend == "mcp23017":
                source = Mcp23017Source(i2c, s.i2c_address)
            elif s.backend == "mcp23017-inputs":
                source = Mcp23017InputsSource(i2c, s.i2c_addresses, s.inputs)
            else:
                source = MockSource(layout=layout)
            devices.sensors = Scanner(
                source, s.debounce_scans, clock, decode=layout.decode, bits=layout.count
            )
        step = "leds"
        led = profile.leds
        if led.backend != "none" and wanted("leds"):
            writer: LedWriter
            if led.backend == "neopixel-spi":
                writer = NeoPixelSpiWriter(led.count, spi)
            elif led.backend == "link":
                assert devices.link is not None
                writer = LinkLedWriter(devices.link)
            else:
                writer = MockLedWriter()
            devices.leds = LedStrip(
                writer,
                led.mapping,
                led.count,
                led.order,
                led.supply_amps,
                led.ma_per_led,
                led.max_brightness,
            )
        step = "clocks"
        if not wanted("clocks"):
            pass
        elif profile.clocks.backend == "ht16k33":
            devices.clocks = Ht16k33Clocks(profile.clocks.addresses, i2c, profile.clocks.brightness)
        elif profile.clocks.backend == "mock":
            devices.clocks = MockClocks()
        step = "buzzer"
        b = profile.buzzer
        if not wanted("buzzer"):
            pass
        elif b.backend == "tonal":
            assert b.pin is not None  # the profile requires it for a real buzzer
            devices.buzzer = Buzzer(TonalTone(b.pin, pin_factory))
        elif b.backend == "active":
            assert b.pin is not None
            devices.buzzer = Buzzer(ActiveTone(b.pin, pin_factory))
        elif b.backend == "mock":
            devices.buzzer = Buzzer(MockTone(clock))
        step = "buttons"
        k = profile.buttons
        if not wanted("buttons"):
            pass
        elif k.backend == "gpio":
            devices.buttons = GpioButtons(
                k.pins, k.hold_seconds, k.bounce_seconds, pin_factory, clock
            )
        elif k.backend == "mock":
            devices.buttons = MockButtons(clock)
        step = "scoresheet"
        d = profile.scoresheet
        if not wanted("scoresheet"):
            pass
        elif d.backend in ("ssd1306", "sh1106", "ssd1322"):
            devices.scoresheet = OledScoresheet(
                d.backend,
                i2c_address=d.i2c_address,
                dc_pin=d.dc_pin,
                reset_pin=d.reset_pin,
                device=display,
            )
        elif d.backend == "serial":
            devices.scoresheet = SerialScoresheet(d.port, d.baudrate)
        elif d.backend == "mock":
            devices.scoresheet = MockScoresheet()
    except Exception as exc:
        with contextlib.suppress(DeviceError):
            devices.close()
        backend = getattr(getattr(profile, step, None), "backend", "serial port")
        raise DeviceError(
            f"{profile.path}: [{step}] cannot start backend {backend!r}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    return devices
