"""Board profiles (hardware/*.toml): which backend each device uses, its pins, addresses, LED
layout, debounce and supply; loaded into dataclasses and checked, with errors that name the file,
the section and key, and the problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.buttons import BUTTON_NAMES
from drivers.ledmap import ROTATIONS, layout_map
from drivers.occupancy import PLAYABLE, Square
from firmware.squares import COLUMNS, ROWS

SECTIONS = ("board", "sensors", "leds", "clocks", "buzzer", "buttons", "scoresheet")
BACKENDS = {
    "sensors": ("gpio-matrix", "mcp23017", "link", "mock"),
    "leds": ("neopixel-pwm", "neopixel-spi", "link", "mock", "none"),
    "clocks": ("ht16k33", "mock", "none"),
    "buzzer": ("tonal", "active", "mock", "none"),
    "buttons": ("gpio", "mock", "none"),
    "scoresheet": ("ssd1306", "sh1106", "ssd1322", "serial", "mock", "none"),
}
GPIO_PINS = range(2, 28)  # BCM numbers on the 40-pin header (0 and 1 are the HAT EEPROM's)
I2C_PINS = (2, 3)
SPI0_PINS = (9, 10, 11)
PWM_LED_PINS = (12, 18, 21, 10)  # what rpi_ws281x can drive


class ProfileError(ValueError):
    """A profile that can't be used; the message says which file, where, and what is wrong."""


@dataclass(frozen=True)
class SensorsConfig:
    backend: str
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    debounce_scans: int = 3
    i2c_address: int = 0x20


@dataclass(frozen=True)
class LedsConfig:
    backend: str
    pin: int | None = None
    count: int = 32
    order: str = "GRB"
    mapping: dict[Square, tuple[int, ...]] = field(default_factory=dict)
    supply_amps: float | None = None
    ma_per_led: int = 60
    max_brightness: float = 1.0


@dataclass(frozen=True)
class ClocksConfig:
    backend: str
    addresses: tuple[int, ...] = (0x70, 0x71)
    brightness: float = 0.5


@dataclass(frozen=True)
class BuzzerConfig:
    backend: str
    pin: int | None = None


@dataclass(frozen=True)
class ButtonsConfig:
    backend: str
    pins: dict[str, int] = field(default_factory=dict)
    hold_seconds: float = 1.5
    bounce_seconds: float | None = 0.02


@dataclass(frozen=True)
class ScoresheetConfig:
    backend: str
    i2c_address: int = 0x3C
    port: str = ""
    baudrate: int = 115200


@dataclass(frozen=True)
class LinkConfig:
    port: str
    baudrate: int = 115200
    retry_ms: int = 100
    heartbeat_ms: int = 1000
    timeout_ms: int = 3000


@dataclass(frozen=True)
class BoardProfile:
    path: str
    name: str
    pi: int | None
    sensors: SensorsConfig
    leds: LedsConfig
    clocks: ClocksConfig
    buzzer: BuzzerConfig
    buttons: ButtonsConfig
    scoresheet: ScoresheetConfig
    link: LinkConfig | None


class _Reader:
    """Reads one profile, keeping the file name for every message and the pins claimed so far."""

    def __init__(self, path: str, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.pins: dict[int, str] = {}

    def fail(self, where: str, problem: str) -> ProfileError:
        return ProfileError(f"{self.path}: {where}: {problem}")

    def section(self, name: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        if name not in self.data:
            raise self.fail(f"[{name}]", "missing section")
        table = self.data[name]
        if not isinstance(table, dict):
            raise self.fail(f"[{name}]", "must be a table")
        for key in table:
            if key not in allowed:
                raise self.fail(f"[{name}] {key}", f"unknown key; known: {', '.join(allowed)}")
        return table

    def get(self, table, section, key, kind, default=None, required=False):
        if key not in table:
            if required:
                raise self.fail(f"[{section}] {key}", "missing")
            return default
        value = table[key]
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise self.fail(f"[{section}] {key}", f"must be {kind.__name__}, not {value!r}")
        return value

    def backend(self, table, section) -> str:
        value = self.get(table, section, "backend", str, required=True)
        if value not in BACKENDS[section]:
            known = ", ".join(BACKENDS[section])
            raise self.fail(f"[{section}] backend", f"unknown backend {value!r}; known: {known}")
        return value

    def claim(self, pin: Any, where: str) -> int:
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_PINS:
            raise self.fail(where, f"unknown pin {pin!r}: use a BCM GPIO number 2..27")
        if pin in self.pins:
            raise self.fail(where, f"GPIO{pin} is already used by {self.pins[pin]}")
        self.pins[pin] = where
        return pin

    def claim_bus(self, pins: tuple[int, ...], bus: str) -> None:
        for pin in pins:
            owner = self.pins.get(pin)
            if owner is not None and not owner.startswith(f"{bus} bus"):
                raise self.fail(owner, f"GPIO{pin} belongs to the {bus} bus")
            self.pins[pin] = f"{bus} bus"


def _parse_square(reader: _Reader, key: str) -> Square:
    try:
        x, y = (int(v) for v in key.split(","))
    except ValueError:
        raise reader.fail(f"[leds.map] {key!r}", 'square must be written "x,y"') from None
    if (x, y) not in PLAYABLE:
        raise reader.fail(f"[leds.map] {key!r}", "not a playable square")
    return (x, y)


def _leds(reader: _Reader, pi: int | None) -> LedsConfig:
    keys = ("backend", "pin", "count", "order", "cells", "serpentine", "rotation", "mirror")
    keys += ("per_square", "offset", "map", "supply_amps", "ma_per_led", "max_brightness")
    t = reader.section("leds", keys)
    backend = reader.backend(t, "leds")
    if backend == "none":
        return LedsConfig(backend, count=0)
    count = reader.get(t, "leds", "count", int, required=True)
    order = reader.get(t, "leds", "order", str, "GRB")
    if sorted(order) != sorted("RGB"):
        raise reader.fail("[leds] order", f"must be an ordering of RGB, not {order!r}")
    pin = None
    if backend == "neopixel-pwm":
        pin = reader.get(t, "leds", "pin", int, required=True)
        if pin not in PWM_LED_PINS:
            raise reader.fail("[leds] pin", f"PWM LEDs need GPIO {PWM_LED_PINS}, not {pin}")
        if pi == 5:
            raise reader.fail("[leds] backend", "neopixel-pwm fails on a Pi 5: use neopixel-spi")
        reader.claim(pin, "[leds] pin")
    elif backend == "neopixel-spi":
        reader.claim_bus(SPI0_PINS, "SPI0")
    rotation = reader.get(t, "leds", "rotation", int, 0)
    if rotation not in ROTATIONS:
        raise reader.fail("[leds] rotation", f"must be one of {ROTATIONS}, not {rotation}")
    cells = reader.get(t, "leds", "cells", str, "playable")
    if cells not in ("playable", "all"):
        raise reader.fail("[leds] cells", f'must be "playable" or "all", not {cells!r}')
    if "map" in t:
        table = reader.get(t, "leds", "map", dict)
        mapping = {}
        owner: dict[int, Square] = {}
        for key, leds in table.items():
            square = _parse_square(reader, key)
            leds = [leds] if isinstance(leds, int) else leds
            for i in leds:
                if not isinstance(i, int) or not 0 <= i < count:
                    raise reader.fail(
                        f"[leds.map] {key!r}", f"LED index {i!r} out of range 0..{count - 1}"
                    )
                if i in owner:
                    raise reader.fail(
                        f"[leds.map] {key!r}", f"LED {i} is already under square {owner[i]}"
                    )
                owner[i] = square
            mapping[square] = tuple(leds)
        missing = [s for s in PLAYABLE if s not in mapping]
        if missing:
            raise reader.fail("[leds.map]", f"no LED for squares {missing}")
    else:
        mapping = layout_map(
            cells,
            reader.get(t, "leds", "serpentine", bool, False),
            rotation,
            reader.get(t, "leds", "mirror", bool, False),
            reader.get(t, "leds", "per_square", int, 1),
            reader.get(t, "leds", "offset", int, 0),
        )
        top = max(max(v) for v in mapping.values())
        if top >= count:
            raise reader.fail("[leds] count", f"the layout needs LED index {top}, count is {count}")
    brightness = reader.get(t, "leds", "max_brightness", float, 1.0)
    if not 0.0 <= brightness <= 1.0:
        raise reader.fail("[leds] max_brightness", "must be between 0 and 1")
    supply = reader.get(t, "leds", "supply_amps", float)
    if backend != "mock" and supply is None:
        raise reader.fail("[leds] supply_amps", "missing: the current cap needs the supply's amps")
    if supply is not None and supply <= 0:
        raise reader.fail("[leds] supply_amps", "must be positive")
    return LedsConfig(
        backend,
        pin,
        count,
        order,
        mapping,
        supply,
        reader.get(t, "leds", "ma_per_led", int, 60),
        brightness,
    )


def _sensors(reader: _Reader) -> SensorsConfig:
    t = reader.section("sensors", ("backend", "rows", "columns", "debounce_scans", "i2c_address"))
    backend = reader.backend(t, "sensors")
    debounce = reader.get(t, "sensors", "debounce_scans", int, 3)
    if debounce < 1:
        raise reader.fail("[sensors] debounce_scans", "must be at least 1")
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    if backend == "gpio-matrix":
        for key, want in (("rows", ROWS), ("columns", COLUMNS)):
            pins = reader.get(t, "sensors", key, list, required=True)
            if len(pins) != want:
                raise reader.fail(f"[sensors] {key}", f"needs {want} pins, got {len(pins)}")
            claimed = tuple(reader.claim(p, f"[sensors] {key}") for p in pins)
            rows, columns = (claimed, columns) if key == "rows" else (rows, claimed)
    elif backend == "mcp23017":
        reader.claim_bus(I2C_PINS, "I2C")
    return SensorsConfig(
        backend, rows, columns, debounce, reader.get(t, "sensors", "i2c_address", int, 0x20)
    )


def _simple_pin_device(reader: _Reader, name: str, config_type):
    t = reader.section(name, ("backend", "pin"))
    backend = reader.backend(t, name)
    pin = None
    if backend not in ("mock", "none"):
        pin = reader.claim(reader.get(t, name, "pin", int, required=True), f"[{name}] pin")
    return config_type(backend, pin)


def _buttons(reader: _Reader) -> ButtonsConfig:
    t = reader.section("buttons", ("backend", "pins", "hold_seconds", "bounce_seconds"))
    backend = reader.backend(t, "buttons")
    pins: dict[str, int] = {}
    if backend == "gpio":
        table = reader.get(t, "buttons", "pins", dict, required=True)
        for name, pin in table.items():
            if name not in BUTTON_NAMES:
                known = ", ".join(BUTTON_NAMES)
                raise reader.fail(f"[buttons.pins] {name}", f"unknown button; known: {known}")
            pins[name] = reader.claim(pin, f"[buttons.pins] {name}")
    return ButtonsConfig(
        backend,
        pins,
        reader.get(t, "buttons", "hold_seconds", float, 1.5),
        reader.get(t, "buttons", "bounce_seconds", float, 0.02),
    )


def _clocks(reader: _Reader) -> ClocksConfig:
    t = reader.section("clocks", ("backend", "addresses", "brightness"))
    backend = reader.backend(t, "clocks")
    addresses = tuple(reader.get(t, "clocks", "addresses", list, [0x70, 0x71]))
    if backend == "ht16k33":
        if len(addresses) != 2 or len(set(addresses)) != 2:
            raise reader.fail("[clocks] addresses", "needs two different I2C addresses")
        if not all(isinstance(a, int) and 0x70 <= a <= 0x77 for a in addresses):
            raise reader.fail("[clocks] addresses", "HT16K33 addresses are 0x70..0x77")
        reader.claim_bus(I2C_PINS, "I2C")
    return ClocksConfig(backend, addresses, reader.get(t, "clocks", "brightness", float, 0.5))


def _scoresheet(reader: _Reader, spi_taken: bool) -> ScoresheetConfig:
    t = reader.section("scoresheet", ("backend", "i2c_address", "port", "baudrate"))
    backend = reader.backend(t, "scoresheet")
    if backend in ("ssd1306", "sh1106"):
        reader.claim_bus(I2C_PINS, "I2C")
    elif backend == "ssd1322":
        if spi_taken:
            raise reader.fail("[scoresheet] backend", "ssd1322 needs SPI0, which the LEDs use")
        reader.claim_bus(SPI0_PINS, "SPI0")
    port = reader.get(t, "scoresheet", "port", str, "")
    if backend == "serial" and not port:
        raise reader.fail("[scoresheet] port", "missing: the serial port or pyserial URL")
    return ScoresheetConfig(
        backend,
        reader.get(t, "scoresheet", "i2c_address", int, 0x3C),
        port,
        reader.get(t, "scoresheet", "baudrate", int, 115200),
    )


def _link(reader: _Reader) -> LinkConfig:
    t = reader.section("link", ("port", "baudrate", "retry_ms", "heartbeat_ms", "timeout_ms"))
    return LinkConfig(
        reader.get(t, "link", "port", str, required=True),
        reader.get(t, "link", "baudrate", int, 115200),
        reader.get(t, "link", "retry_ms", int, 100),
        reader.get(t, "link", "heartbeat_ms", int, 1000),
        reader.get(t, "link", "timeout_ms", int, 3000),
    )


def parse_profile(data: dict[str, Any], path: str = "<profile>") -> BoardProfile:
    reader = _Reader(path, data)
    for name in data:
        if name not in (*SECTIONS, "link"):
            raise reader.fail(f"[{name}]", f"unknown section; known: {', '.join(SECTIONS)}, link")
    board = reader.section("board", ("name", "pi"))
    pi = reader.get(board, "board", "pi", int)
    if pi is not None and pi not in (3, 4, 5):
        raise reader.fail("[board] pi", f"must be 3, 4 or 5, not {pi}")
    sensors = _sensors(reader)
    leds = _leds(reader, pi)
    clocks = _clocks(reader)
    buzzer = _simple_pin_device(reader, "buzzer", BuzzerConfig)
    buttons = _buttons(reader)
    scoresheet = _scoresheet(reader, leds.backend == "neopixel-spi")
    uses_link = sensors.backend == "link" or leds.backend == "link"
    if uses_link and "link" not in data:
        raise reader.fail("[link]", 'missing section: a device uses backend = "link"')
    link = _link(reader) if "link" in data else None
    name = reader.get(board, "board", "name", str, Path(path).stem)
    return BoardProfile(path, name, pi, sensors, leds, clocks, buzzer, buttons, scoresheet, link)


def load_profile(path: str | Path) -> BoardProfile:
    """Read and check a board profile; ProfileError (never a traceback) when it's wrong."""
    path = str(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: not valid TOML: {exc}") from None
    return parse_profile(data, path)
