"""Entry point on the Pico (MicroPython runs main.py at boot): real hardware into the loop,
unless startup.py says to leave the USB port to the REPL for an update."""

import config
import machine
import startup


def main() -> None:
    if not startup.board_should_run(config, machine):
        print("damath-board firmware stopped: the REPL is free for mpremote")
        return
    import app
    import hw

    clock = hw.Clock()
    if config.TRANSPORT == "uart":
        stream = hw.UartStream(baudrate=config.UART_BAUD)
    else:
        stream = hw.UsbStream()
    firmware = app.Firmware(
        hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS, config.SETTLE_US),
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


main()
