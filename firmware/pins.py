"""Whether a board's config.py fits the Pico: checked at boot (main.py), before any pin is
driven, and by the tests over every board file. Runs on the Pico and on CPython alike.

The Raspberry Pi Pico brings GP0-GP22 and GP26-GP28 out to its pins; GP23 (the power supply's
mode), GP24 (VBUS sense), GP25 (the on-board LED) and GP29 (VSYS / 3) are wired on the board
itself, so a matrix line there reads nothing (Pico datasheet, 2.1 and 4.4).
"""

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from types import ModuleType

BROUGHT_OUT = tuple(range(23)) + (26, 27, 28)  # noqa: RUF005  (MicroPython has no (*x, y))
UART_PINS = (0, 1)  # GP0 TX, GP1 RX: the link when TRANSPORT = "uart"
MAX_COLUMNS = 16  # a row's columns in one 16-bit scan word (hw.MatrixPins)
MAX_POINTS = 144


def problem(config: "ModuleType") -> "str | None":
    """The first thing wrong with the config's pins, in one line; None when it fits."""
    rows = tuple(config.ROW_PINS)
    columns = tuple(config.COLUMN_PINS)
    named = [("row", p) for p in rows] + [("column", p) for p in columns]
    named += [("LED", config.LED_PIN), ("release", config.RELEASE_PIN)]
    if not rows or not columns:
        return "config.py: the matrix needs rows and columns"
    if len(columns) > MAX_COLUMNS:
        return "config.py: " + str(len(columns)) + " columns; a row holds 16 at most"
    points = len(rows) * len(columns)
    if points > MAX_POINTS:
        return "config.py: " + str(points) + " points; a board has 144 at most"
    count = getattr(config, "LED_COUNT", points)
    if not 1 <= count <= MAX_POINTS:
        return "config.py: LED_COUNT " + str(count) + "; 1 to 144 LEDs"
    seen: dict[int, str] = {}
    for role, pin in named:
        if pin not in BROUGHT_OUT:
            return (
                "config.py: the " + role + " pin GP" + str(pin) + " is not on the Pico's pins"
                " (GP0-GP22, GP26-GP28; GP23-GP25 and GP29 are the board's own)"
            )
        if pin in seen:
            both = _a(seen[pin]) + " and " + _a(role)
            return "config.py: GP" + str(pin) + " is both " + both + " pin"
        seen[pin] = role
        if config.TRANSPORT == "uart" and pin in UART_PINS:
            return (
                "config.py: GP" + str(pin) + " is the UART link's (GP0 TX, GP1 RX), not "
                + _a(role) + " pin"
            )  # fmt: skip
    if config.TRANSPORT not in ("usb", "uart"):
        return "config.py: TRANSPORT " + repr(config.TRANSPORT) + ' is neither "usb" nor "uart"'
    return None


def _a(role: str) -> str:
    return ("an " if role == "LED" else "a ") + role
