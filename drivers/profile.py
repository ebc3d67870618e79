"""Board profiles (hardware/*.toml): which backend each device uses, its pins, addresses, LED
layout, debounce and supply; loaded into dataclasses and checked, with errors that name the file,
the section and key, and the problem.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.buttons import BUTTON_NAMES
from drivers.ledmap import GRIDS, ROTATIONS, board_cells, layout_map
from drivers.occupancy import Square
from firmware.squares import COLUMNS, ROWS

SECTIONS = ("board", "game", "sensors", "leds", "clocks", "buzzer", "buttons", "scoresheet")
BACKENDS = {
    "sensors": ("gpio-matrix", "mcp23017", "mcp23017-inputs", "link", "mock"),
    "leds": ("neopixel-spi", "link", "mock", "none"),
    "clocks": ("ht16k33", "mock", "none"),
    "buzzer": ("tonal", "active", "mock", "none"),
    "buttons": ("gpio", "mock", "none"),
    "scoresheet": ("ssd1306", "sh1106", "ssd1322", "serial", "mock", "none"),
}
GPIO_PINS = range(2, 28)  # BCM numbers on the 40-pin header (0 and 1 are the HAT EEPROM's)
I2C1_PINS = {"SDA": 2, "SCL": 3}
SPI0_PINS = {"MISO": 9, "MOSI": 10, "SCLK": 11}
SPI0_CHIP_SELECTS = {"CE0": 8, "CE1": 7}  # what the kernel takes with dtparam=spi=on
UART0_PINS = {"TXD": 14, "RXD": 15}
UART_PORTS = ("/dev/ttyAMA0", "/dev/serial0", "/dev/ttyS0")  # the header's UART, not USB
LUMA_SPI_PINS = {"dc_pin": 24, "reset_pin": 25}  # luma.core's defaults for an SPI display
DEFAULT_SETTLE_US = 20
EXPANDER_PINS = {f"GP{port}{n}": 8 * i + n for i, port in enumerate("AB") for n in range(8)}
"""An MCP23017's pins by name -> bit of its 16-bit GPIO word (GPIOA low byte, GPIOB high)."""
OUTPUT_ONLY = ("GPA7", "GPB7")
"""Output-only since Microchip's 2022 revision of the MCP23017 datasheet: read as inputs they
can corrupt SDA. At most 14 inputs an expander."""
HALL_INPUTS = tuple(f"GP{port}{n}" for port in "AB" for n in range(7))
"""The inputs an expander of the hall build uses by default: GPA0..GPA6, GPB0..GPB6."""
BOARD_SIZES = {
    "dark-squares": (8, 12),  # 8 x 8 Damath (32 squares), 12 x 12 Dam (72, hardware/dam-12x12.md)
    "points": tuple(range(5, 14)),  # Mathematical Chess: 9 x 9 points (hardware/mathchess.md)
}
GAME_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
"""A game's name as a profile writes it (``[board] game``); which games exist is the
controller's registry's to say (drivers know no game)."""
REMOVED_BACKENDS = {
    ("leds", "neopixel-pwm"): "neopixel-pwm was removed: rpi_ws281x needs root and /dev/mem on "
    "a Pi 4 and the Pi 5 writer needs the RP1's PIO device, neither of which the service may "
    'open; use backend = "neopixel-spi" (LED data on GPIO10, no root, Pi 4 and Pi 5)',
}


class ProfileError(ValueError):
    """A profile that can't be used; the message says which file, where, and what is wrong."""


@dataclass(frozen=True)
class Claim:
    """One user of a header pin: who (as the profile names it) and how to move it."""

    pin: int
    user: str
    fix: str
    movable: bool = True  # False for a bus's own pins: the other user has to move


@dataclass(frozen=True)
class SensorsConfig:
    backend: str
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    debounce_scans: int = 3
    i2c_address: int = 0x20
    i2c_addresses: tuple[int, ...] = (0x20, 0x21, 0x22)
    settle_us: int = DEFAULT_SETTLE_US
    inputs: tuple[int, ...] = tuple(EXPANDER_PINS[name] for name in HALL_INPUTS)
    """mcp23017-inputs: the bits (0..15, GPA0 = 0, GPB0 = 8) of each expander that are square
    inputs, in order: square i is input ``inputs[i % n]`` of expander ``i // n``."""


@dataclass(frozen=True)
class LedsConfig:
    backend: str
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
    dc_pin: int | None = None  # ssd1322 on SPI: luma's data/command and reset pins
    reset_pin: int | None = None


@dataclass(frozen=True)
class LinkConfig:
    port: str
    baudrate: int = 115200
    retry_ms: int = 100
    heartbeat_ms: int = 1000
    timeout_ms: int = 3000
    write_timeout_ms: int = 500


@dataclass(frozen=True)
class BoardProfile:
    path: str
    name: str
    pi: int | None
    spi_chip_selects: int
    sensors: SensorsConfig
    leds: LedsConfig
    clocks: ClocksConfig
    buzzer: BuzzerConfig
    buttons: ButtonsConfig
    scoresheet: ScoresheetConfig
    link: LinkConfig | None
    claims: tuple[Claim, ...] = ()
    language: str | None = None
    """``[board] language``: what the board speaks (``en``, ``fil``); None: the environment's."""
    size: int = 8
    """``[board] size``: squares (or points) a side: 8, 12 for Dam, 9 for Mathematical Chess."""
    game: str = "damath"
    """``[board] game``: the game the board plays (the controller's registry checks the name)."""
    grid: str = "dark-squares"
    """``[board] grid``: the sensors sit under the dark squares, or at every point (``points``)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """``[game]``: the game's settings, as ``run --set NAME=VALUE`` gives them (checked by the
    game: practice, clocks, a level, dice ...); ``--set`` on the command line wins."""

    @property
    def cells(self) -> frozenset[Square]:
        """Every place with a sensor and an LED: the dark squares, or the points."""
        return board_cells(self.size, self.grid)

    @property
    def squares(self) -> int:
        """How many sensors the board has: 32 on 8 x 8, 72 on 12 x 12, 81 on 9 x 9 points."""
        return len(self.cells)

    def uses(self, bus: str) -> bool:
        """Whether the profile needs "i2c", "spi" or "uart" on the Pi's header."""
        prefix = {"i2c": "I2C1", "spi": "SPI0", "uart": "UART0"}[bus]
        return any(c.user.startswith(prefix) for c in self.claims)


class _Reader:
    """Reads one profile, keeping the file name for every message and the pins claimed so far."""

    def __init__(self, path: str, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.claims: list[Claim] = []

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

    def get(
        self,
        table: dict[str, Any],
        section: str,
        key: str,
        kind: type,
        default: Any = None,
        required: bool = False,
    ) -> Any:
        """``table[key]`` checked to be of ``kind`` (an int is taken for a float)."""
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

    def backend(self, table: dict[str, Any], section: str) -> str:
        value: str = self.get(table, section, "backend", str, required=True)
        if (section, value) in REMOVED_BACKENDS:
            raise self.fail(f"[{section}] backend", REMOVED_BACKENDS[section, value])
        if value not in BACKENDS[section]:
            known = ", ".join(BACKENDS[section])
            raise self.fail(f"[{section}] backend", f"unknown backend {value!r}; known: {known}")
        return value

    def claim(self, pin: Any, where: str) -> int:
        """A pin the profile names itself (a row, a button, the buzzer)."""
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_PINS:
            raise self.fail(where, f"unknown pin {pin!r}: use a BCM GPIO number 2..27")
        self.claims.append(Claim(pin, where, f"move {where} to a free pin"))
        return pin

    def claim_bus(self, bus: str, pins: dict[str, int], user: str) -> None:
        """A bus's fixed pins, claimed once however many devices share the bus."""
        for name, pin in pins.items():
            for i, c in enumerate(self.claims):
                if c.user.startswith(f"{bus} {name} "):  # shared: name every device on it
                    if user not in c.user:
                        self.claims[i] = Claim(pin, f"{c.user[:-1]}, {user})", "", False)
                    break
            else:
                self.claims.append(Claim(pin, f"{bus} {name} (GPIO{pin}, {user})", "", False))

    def claim_chip_selects(self, count: int, user: str) -> None:
        for name, pin in list(SPI0_CHIP_SELECTS.items())[:count]:
            if any(c.user.startswith(f"SPI0 {name} ") for c in self.claims):
                continue
            fix = ""
            if name == "CE1":
                fix = (
                    "set [board] spi_chip_selects = 1 (dtoverlay=spi0-1cs: the kernel then "
                    "leaves GPIO7 free)"
                )
            label = f"SPI0 {name} chip-select (GPIO{pin}, {user})"
            self.claims.append(Claim(pin, label, fix, movable=bool(fix)))

    def check_pins(self) -> None:
        """Every header pin has one user; a clash names both, the fix and the free pins."""
        by_pin: dict[int, Claim] = {}
        for claim in self.claims:
            first = by_pin.setdefault(claim.pin, claim)
            if first is claim:
                continue
            taken = {c.pin for c in self.claims}
            free = ", ".join(str(p) for p in GPIO_PINS if p not in taken) or "none"
            fixes = [c.fix for c in (claim, first) if c.movable and c.fix]
            raise self.fail(
                claim.user if claim.movable else first.user,
                f"GPIO{claim.pin} is wanted by both {first.user} and {claim.user}; "
                f"fix: {' or '.join(fixes)} (free pins: {free})",
            )


def _parse_square(reader: _Reader, key: str, cells: frozenset[Square]) -> Square:
    try:
        x, y = (int(v) for v in key.split(","))
    except ValueError:
        raise reader.fail(f"[leds.map] {key!r}", 'square must be written "x,y"') from None
    if (x, y) not in cells:
        raise reader.fail(f"[leds.map] {key!r}", "not a playable square")
    return (x, y)


def _leds(reader: _Reader, chip_selects: int, size: int, grid: str) -> LedsConfig:
    keys: tuple[str, ...] = ("backend", "count", "order", "cells", "serpentine", "rotation")
    keys += ("mirror", "per_square", "offset", "map", "supply_amps", "ma_per_led", "max_brightness")
    t = reader.section("leds", keys)
    backend = reader.backend(t, "leds")
    if backend == "none":
        return LedsConfig(backend, count=0)
    count = reader.get(t, "leds", "count", int, required=True)
    order = reader.get(t, "leds", "order", str, "GRB")
    if sorted(order) != sorted("RGB"):
        raise reader.fail("[leds] order", f"must be an ordering of RGB, not {order!r}")
    if backend == "neopixel-spi":
        reader.claim_bus("SPI0", SPI0_PINS, "the LED chain on MOSI")
        reader.claim_chip_selects(chip_selects, "the LED chain's spidev0.0")
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
            square = _parse_square(reader, key, board_cells(size, grid))
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
        missing = sorted(s for s in board_cells(size, grid) if s not in mapping)
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
            size,
            grid,
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
        count,
        order,
        mapping,
        supply,
        reader.get(t, "leds", "ma_per_led", int, 60),
        brightness,
    )


def _sensors(reader: _Reader, size: int, grid: str) -> SensorsConfig:
    keys = ("backend", "rows", "columns", "debounce_scans", "settle_us", "i2c_address")
    t = reader.section("sensors", (*keys, "i2c_addresses", "inputs"))
    backend = reader.backend(t, "sensors")
    if (size, grid) != (8, "dark-squares") and backend not in ("link", "mock"):
        raise reader.fail(
            "[sensors] backend",
            f"a {size} x {size} board's {len(board_cells(size, grid))} sensors are scanned by "
            f'the co-processor: use backend = "link" (firmware/README.md), not {backend!r}',
        )
    debounce = reader.get(t, "sensors", "debounce_scans", int, 3)
    if debounce < 1:
        raise reader.fail("[sensors] debounce_scans", "must be at least 1")
    settle = reader.get(t, "sensors", "settle_us", int, DEFAULT_SETTLE_US)
    if not 0 <= settle <= 1000:
        raise reader.fail("[sensors] settle_us", f"must be 0..1000 microseconds, not {settle}")
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    addresses = tuple(reader.get(t, "sensors", "i2c_addresses", list, [0x20, 0x21, 0x22]))
    if backend == "gpio-matrix":
        for key, want in (("rows", ROWS), ("columns", COLUMNS)):
            pins = reader.get(t, "sensors", key, list, required=True)
            if len(pins) != want:
                raise reader.fail(f"[sensors] {key}", f"needs {want} pins, got {len(pins)}")
            claimed = tuple(reader.claim(p, f"[sensors] {key}") for p in pins)
            rows, columns = (claimed, columns) if key == "rows" else (rows, claimed)
    elif backend == "mcp23017":
        reader.claim_bus("I2C1", I2C1_PINS, "the MCP23017 sensor matrix")
    elif backend == "mcp23017-inputs":
        inputs = _expander_inputs(reader, t)
        need = -(-ROWS * COLUMNS // len(inputs))  # ceil: squares / inputs an expander
        if len(addresses) != need or len(set(addresses)) != need:
            raise reader.fail(
                "[sensors] i2c_addresses",
                f"{ROWS * COLUMNS} squares at {len(inputs)} inputs an expander need {need} "
                f"different MCP23017 addresses, got {len(addresses)}"
                + (" (GPA7 and GPB7 are output-only: 14 inputs an expander at most)"
                   if len(addresses) < need else ""),
            )  # fmt: skip
        if not all(isinstance(a, int) and 0x20 <= a <= 0x27 for a in addresses):
            raise reader.fail("[sensors] i2c_addresses", "MCP23017 addresses are 0x20..0x27")
        reader.claim_bus("I2C1", I2C1_PINS, f"the {need} MCP23017 sensor expanders")
        return SensorsConfig(
            backend, debounce_scans=debounce, i2c_addresses=addresses, inputs=inputs
        )
    elif "inputs" in t:
        raise reader.fail("[sensors] inputs", 'only backend = "mcp23017-inputs" has inputs')
    return SensorsConfig(
        backend,
        rows,
        columns,
        debounce,
        reader.get(t, "sensors", "i2c_address", int, 0x20),
        addresses,
        settle,
    )


def _expander_inputs(reader: _Reader, t: dict[str, Any]) -> tuple[int, ...]:
    """``[sensors] inputs``: the expander pins wired to sensors, by name; GPA7 and GPB7 are
    refused (output-only), each pin once."""
    names = reader.get(t, "sensors", "inputs", list, list(HALL_INPUTS))
    bits: list[int] = []
    for name in names:
        if name in OUTPUT_ONLY:
            raise reader.fail(
                "[sensors] inputs",
                f"{name} is output-only on the MCP23017 (Microchip's datasheet, 2022 revision: "
                "read as an input it can corrupt SDA); wire sensors to GPA0-GPA6 and GPB0-GPB6, "
                "14 inputs an expander",
            )
        if name not in EXPANDER_PINS:
            raise reader.fail("[sensors] inputs", f"unknown pin {name!r}: GPA0-GPA6, GPB0-GPB6")
        if EXPANDER_PINS[name] in bits:
            raise reader.fail("[sensors] inputs", f"{name} is named twice")
        bits.append(EXPANDER_PINS[name])
    if not bits:
        raise reader.fail("[sensors] inputs", "needs at least one pin")
    return tuple(bits)


def _simple_pin_device(reader: _Reader, name: str, config_type: type[BuzzerConfig]) -> BuzzerConfig:
    t = reader.section(name, ("backend", "pin"))
    backend = reader.backend(t, name)
    pin = None
    if backend not in ("mock", "none"):
        what = f"[{name}] pin (PWM tone)" if backend == "tonal" else f"[{name}] pin"
        pin = reader.claim(reader.get(t, name, "pin", int, required=True), what)
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
        reader.claim_bus("I2C1", I2C1_PINS, "the clock displays")
    return ClocksConfig(backend, addresses, reader.get(t, "clocks", "brightness", float, 0.5))


def _scoresheet(reader: _Reader, spi_taken: bool, chip_selects: int) -> ScoresheetConfig:
    keys = ("backend", "i2c_address", "port", "baudrate", *LUMA_SPI_PINS)
    t = reader.section("scoresheet", keys)
    backend = reader.backend(t, "scoresheet")
    control: dict[str, int | None] = dict.fromkeys(LUMA_SPI_PINS)
    if backend in ("ssd1306", "sh1106"):
        reader.claim_bus("I2C1", I2C1_PINS, "the scoresheet display")
    elif backend == "ssd1322":
        if spi_taken:
            raise reader.fail(
                "[scoresheet] backend",
                "ssd1322 needs SPI0, which the LED chain uses (data on MOSI would reach both): "
                'use an I2C display (ssd1306, sh1106) or the LEDs on the Pico (backend = "link")',
            )
        reader.claim_bus("SPI0", SPI0_PINS, "the ssd1322 display")
        reader.claim_chip_selects(chip_selects, "the ssd1322 display's spidev0.0")
        for key, default in LUMA_SPI_PINS.items():
            pin = reader.get(t, "scoresheet", key, int, default)
            control[key] = reader.claim(pin, f"[scoresheet] {key} (luma's default: {default})")
    port = reader.get(t, "scoresheet", "port", str, "")
    if backend == "serial" and not port:
        raise reader.fail("[scoresheet] port", "missing: the serial port or pyserial URL")
    if backend == "serial" and port in UART_PORTS:
        reader.claim_bus("UART0", UART0_PINS, f"the scoresheet on {port}")
    return ScoresheetConfig(
        backend,
        reader.get(t, "scoresheet", "i2c_address", int, 0x3C),
        port,
        reader.get(t, "scoresheet", "baudrate", int, 115200),
        control["dc_pin"],
        control["reset_pin"],
    )


def _link(reader: _Reader) -> LinkConfig:
    t = reader.section(
        "link", ("port", "baudrate", "retry_ms", "heartbeat_ms", "timeout_ms", "write_timeout_ms")
    )
    config = LinkConfig(
        reader.get(t, "link", "port", str, required=True),
        reader.get(t, "link", "baudrate", int, 115200),
        reader.get(t, "link", "retry_ms", int, 100),
        reader.get(t, "link", "heartbeat_ms", int, 1000),
        reader.get(t, "link", "timeout_ms", int, 3000),
        reader.get(t, "link", "write_timeout_ms", int, 500),
    )
    for key in ("retry_ms", "heartbeat_ms", "timeout_ms", "write_timeout_ms"):
        if getattr(config, key) <= 0:
            raise reader.fail(f"[link] {key}", "must be a positive number of milliseconds")
    return config


def parse_profile(data: dict[str, Any], path: str = "<profile>") -> BoardProfile:
    reader = _Reader(path, data)
    for name in data:
        if name not in (*SECTIONS, "link"):
            raise reader.fail(f"[{name}]", f"unknown section; known: {', '.join(SECTIONS)}, link")
    keys = ("name", "pi", "spi_chip_selects", "language", "size", "game", "grid")
    board = reader.section("board", keys)
    game = reader.get(board, "board", "game", str, "damath")
    if not GAME_NAME.fullmatch(game):
        raise reader.fail("[board] game", f"not a game's name: {game!r} (e.g. damath, dam)")
    grid = reader.get(board, "board", "grid", str, "dark-squares")
    if grid not in GRIDS:
        raise reader.fail("[board] grid", f"must be {' or '.join(GRIDS)}, not {grid!r}")
    size = reader.get(board, "board", "size", int, 8)
    if size not in BOARD_SIZES[grid]:
        sizes = BOARD_SIZES[grid]
        allowed = (
            " or ".join(str(n) for n in sizes) if len(sizes) < 4 else f"{sizes[0]}..{sizes[-1]}"
        )
        unit = "points" if grid == "points" else "squares"
        raise reader.fail("[board] size", f"must be {allowed} {unit} a side, not {size}")
    settings = dict(reader.data["game"]) if isinstance(reader.data.get("game"), dict) else {}
    if "game" in reader.data and not isinstance(reader.data["game"], dict):
        raise reader.fail("[game]", "must be a table of the game's settings")
    pi = reader.get(board, "board", "pi", int)
    if pi is not None and pi not in (3, 4, 5):
        raise reader.fail("[board] pi", f"must be 3, 4 or 5, not {pi}")
    chip_selects = reader.get(board, "board", "spi_chip_selects", int, 2)
    if chip_selects not in (1, 2):
        raise reader.fail(
            "[board] spi_chip_selects",
            f"must be 1 (dtoverlay=spi0-1cs) or 2 (dtparam=spi=on), not {chip_selects}",
        )
    sensors = _sensors(reader, size, grid)
    leds = _leds(reader, chip_selects, size, grid)
    clocks = _clocks(reader)
    buzzer = _simple_pin_device(reader, "buzzer", BuzzerConfig)
    buttons = _buttons(reader)
    scoresheet = _scoresheet(reader, leds.backend == "neopixel-spi", chip_selects)
    uses_link = sensors.backend == "link" or leds.backend == "link"
    if uses_link and "link" not in data:
        raise reader.fail("[link]", 'missing section: a device uses backend = "link"')
    link = _link(reader) if "link" in data else None
    if link is not None and link.port in UART_PORTS:
        reader.claim_bus("UART0", UART0_PINS, f"the link on {link.port}")
    reader.check_pins()
    name = reader.get(board, "board", "name", str, Path(path).stem)
    language = reader.get(board, "board", "language", str)  # checked by controller.i18n
    return BoardProfile(
        path,
        name,
        pi,
        chip_selects,
        sensors,
        leds,
        clocks,
        buzzer,
        buttons,
        scoresheet,
        link,
        tuple(reader.claims),
        language,
        size,
        game,
        grid,
        settings,
    )


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
