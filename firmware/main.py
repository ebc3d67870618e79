"""Entry point on the Pico (MicroPython runs main.py at boot): real hardware into the loop."""

import app
import config
import hw


def main():
    clock = hw.Clock()
    if config.TRANSPORT == "uart":
        stream = hw.UartStream(baudrate=config.UART_BAUD)
    else:
        stream = hw.UsbStream()
    firmware = app.Firmware(
        hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS),
        hw.Ws2812(config.LED_PIN),
        stream,
        hw.Watchdog(config.WATCHDOG_MS),
        clock,
        debounce_scans=config.DEBOUNCE_SCANS,
        heartbeat_ms=config.HEARTBEAT_MS,
    )
    firmware.run(config.SCAN_PERIOD_US)


main()
