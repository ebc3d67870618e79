"""Pins of a Mathematical Chess board's RP2040 (9 x 9 points, 81 LEDs); copied to the Pico as
config.py. Keep in step with hardware/mathchess-pico.toml (the tests check they agree).

Matrix row r is the board's row y, matrix column c its column x: point (x, y) is bit 9 * y + x.
"""

ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10)
COLUMN_PINS = (11, 12, 13, 14, 15, 17, 18, 19, 20)
LED_PIN = 16
LED_COUNT = 81  # the chain: one a point; LED frames of other lengths dropped
RELEASE_PIN = 22  # a jumper to GND at power-up: the firmware stays off, the REPL is free
RELEASE_FLAG = "release"  # left by the firmware when the Pi asks for the REPL; used up at boot
DEBOUNCE_SCANS = 3  # 3 scans at 1 kHz = 3 ms
SETTLE_US = 20  # after a row goes low, before its columns are read (hardware/README.md)
SCAN_PERIOD_US = 1000  # 1 kHz scan
HEARTBEAT_MS = 1000
WATCHDOG_MS = 2000
TRANSPORT = "usb"  # or "uart" (GP0 TX, GP1 RX)
UART_BAUD = 115200
