"""The profile of a Mathematical Chess board (``hardware/mathchess-pico.toml``): a Pico
(RP2040) scanning a 9 × 9 matrix of reed switches and driving an 81-LED chain, read and checked
as strictly as the Damath profiles: every Pico pin used once, the matrix as large as the board,
the chain as long, and the LED power within the supply (the frame cap in ``firmware.ledframe``
keeps it there; this says by how much)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.leds import BUDGET_FRACTION
from drivers.profile import ProfileError

PICO_GPIO = frozenset(range(0, 23)) | {26, 27, 28}
"""The RP2040 pins a Pico brings out (GP23–GP25 are its own: power, VBUS sense, the LED)."""
RELEASE_PIN = 22  # the firmware's jumper to stay off at power-up (firmware/config.py)
UART_PINS = (0, 1)
SECTIONS = ("board", "link", "sensors", "leds", "buttons")


@dataclass(frozen=True)
class PowerBudget:
    """The LED chain's current, in mA: the supply's usable part, the chain at full white under
    the brightness ceiling, and the fraction of it the cap lets through."""

    budget_ma: int
    full_white_ma: int

    @property
    def full_white_fraction(self) -> float:
        """Display only (rounded to 2 places): how much of full white the cap allows."""
        return round(min(1.0, self.budget_ma / self.full_white_ma), 2)


@dataclass(frozen=True)
class MathChessProfile:
    name: str
    size: int
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    led_pin: int
    led_count: int
    serpentine: bool
    order: str
    supply_amps: float
    ma_per_led: int
    max_brightness: float
    buttons: dict[str, int]
    debounce_scans: int = 3

    def power(self) -> PowerBudget:
        return PowerBudget(
            int(self.supply_amps * 1000 * BUDGET_FRACTION),
            int(self.led_count * self.ma_per_led * self.max_brightness),
        )


def _table(data: dict[str, Any], name: str, path: str) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise ProfileError(f"{path}: [{name}] must be a table")
    return table


def _int(table: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = table.get(key, default)
    if type(value) is not int:
        raise ProfileError(f"{where} {key}: expected a whole number, got {value!r}")
    return value


def _pins(table: dict[str, Any], key: str, where: str) -> tuple[int, ...]:
    value = table.get(key)
    if not isinstance(value, list) or not all(type(p) is int for p in value):
        raise ProfileError(f"{where} {key}: expected a list of Pico GPIO numbers")
    return tuple(value)


def parse_mathchess_profile(data: dict[str, Any], path: str = "<profile>") -> MathChessProfile:
    unknown = sorted(set(data) - set(SECTIONS))
    if unknown:
        raise ProfileError(f"{path}: unknown section [{unknown[0]}]")
    board = _table(data, "board", path)
    if board.get("game") != "mathchess":
        raise ProfileError(f'{path}: [board] game must be "mathchess"')
    size = _int(board, "size", f"{path}: [board]", 9)
    if not 5 <= size <= 13:
        raise ProfileError(f"{path}: [board] size: 5 to 13 points a side, not {size}")
    sensors = _table(data, "sensors", path)
    leds = _table(data, "leds", path)
    link = _table(data, "link", path)
    rows = _pins(sensors, "rows", f"{path}: [sensors]")
    columns = _pins(sensors, "columns", f"{path}: [sensors]")
    for key, pins in (("rows", rows), ("columns", columns)):
        if len(pins) != size:
            raise ProfileError(
                f"{path}: [sensors] {key}: a {size} × {size} board needs {size} pins, "
                f"got {len(pins)}"
            )
    led_pin = _int(leds, "pin", f"{path}: [leds]", 16)
    users: dict[int, str] = {RELEASE_PIN: "the firmware's release jumper (GP22)"}
    if link.get("transport", "usb") == "uart":
        users.update({p: "the UART to the Pi" for p in UART_PINS})
    wanted = [(p, f"[sensors] rows[{i}]") for i, p in enumerate(rows)]
    wanted += [(p, f"[sensors] columns[{i}]") for i, p in enumerate(columns)]
    wanted.append((led_pin, "[leds] pin"))
    for pin, user in wanted:
        if pin not in PICO_GPIO:
            raise ProfileError(f"{path}: {user}: GP{pin} is not a pin the Pico brings out")
        if pin in users:
            raise ProfileError(f"{path}: GP{pin} is wanted by both {users[pin]} and {user}")
        users[pin] = user
    count = _int(leds, "count", f"{path}: [leds]")
    if count != size * size:
        raise ProfileError(f"{path}: [leds] count: one LED a point is {size * size}, not {count}")
    supply = leds.get("supply_amps")
    if not isinstance(supply, int | float) or isinstance(supply, bool) or supply <= 0:
        raise ProfileError(f"{path}: [leds] supply_amps: the LED supply's amps, a number > 0")
    brightness = leds.get("max_brightness", 1.0)
    if not isinstance(brightness, int | float) or not 0 < brightness <= 1:
        raise ProfileError(f"{path}: [leds] max_brightness: between 0 and 1")
    order = leds.get("order", "GRB")
    if not isinstance(order, str) or sorted(order) != sorted("RGB"):
        raise ProfileError(f"{path}: [leds] order: an ordering of RGB, not {order!r}")
    buttons = _table(_table(data, "buttons", path), "pins", f"{path}: [buttons]")
    for key in ("confirm", "next"):
        if type(buttons.get(key)) is not int:
            raise ProfileError(
                f"{path}: [buttons.pins] {key}: needed to name the pieces and end the turns"
            )
    return MathChessProfile(
        name=str(board.get("name", "mathchess")),
        size=size,
        rows=rows,
        columns=columns,
        led_pin=led_pin,
        led_count=count,
        serpentine=bool(leds.get("serpentine", True)),
        order=order,
        supply_amps=float(supply),
        ma_per_led=_int(leds, "ma_per_led", f"{path}: [leds]", 60),
        max_brightness=float(brightness),
        buttons=dict(buttons),
        debounce_scans=_int(sensors, "debounce_scans", f"{path}: [sensors]", 3),
    )


def load_mathchess_profile(path: str | Path) -> MathChessProfile:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ProfileError(f"{path}: {exc}") from None
    return parse_mathchess_profile(data, str(path))
