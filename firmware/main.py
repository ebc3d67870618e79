"""Entry point on the Pico (MicroPython runs main.py at boot): real hardware into the loop,
unless startup.py says to leave the USB port to the REPL for an update, or the config's pins or
the chip do not fit (one line on the USB port says what; nothing starts, the REPL stays free).

Ctrl-C is switched off before anything else: the Pi's link keeps sending (HELLO retries, the LED
picture) while a Pico that reset boots, and a 0x03 among those bytes would stop main.py in its
imports and leave the board in the REPL, its watchdog not yet started, until someone unplugs it
(found on the emulated Pico: tests/emulator/). The REPL switches Ctrl-C on again by itself."""

import micropython

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from types import ModuleType

_mp: "ModuleType" = micropython  # the port's own module, not the one the checker knows
_mp.kbd_intr(-1)  # first of all: a 0x03 in the Pi's frames while this boots is no Ctrl-C

import config  # noqa: E402  (after the line above: importing takes the boot's longest time)
import machine  # noqa: E402
import pins  # noqa: E402
import startup  # noqa: E402


def stopped(why: str) -> None:
    print("damath-board firmware stopped: " + why)


def main() -> None:
    wrong = pins.problem(config)
    if wrong is not None:
        stopped(wrong)
        return
    if not startup.board_should_run(config, machine):
        stopped("the REPL is free for mpremote")
        return
    import app
    import hw

    try:
        matrix = hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS, config.SETTLE_US)
    except ValueError as exc:  # a chip whose registers the firmware does not know
        stopped(str(exc))
        return
    clock = hw.Clock()
    if config.TRANSPORT == "uart":
        stream = hw.UartStream(baudrate=config.UART_BAUD)
    else:
        stream = hw.UsbStream()
    firmware = app.Firmware(
        matrix,
        hw.Ws2812(config.LED_PIN),
        stream,
        hw.Watchdog(config.WATCHDOG_MS),
        clock,
        debounce_scans=config.DEBOUNCE_SCANS,
        heartbeat_ms=config.HEARTBEAT_MS,
        release=lambda: hw.release(config.RELEASE_FLAG),
        led_count=getattr(config, "LED_COUNT", None),
    )
    firmware.run(config.SCAN_PERIOD_US)


try:
    main()
except KeyboardInterrupt:  # a Ctrl-C that came before kbd_intr(-1) took effect: boot again
    machine.reset()
