"""Pins of a 12 x 12 Dam board's RP2040 (72 playable squares, 72 LEDs); copied to the Pico as
config.py. The pins of hardware/dam-12x12.md.

Matrix row r is the board's row y, matrix column c is x // 2: square (x, y) is bit 6 * y + x // 2
(firmware/squares.py, ``dark_index``).
"""

ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
COLUMN_PINS = (14, 15, 17, 18, 19, 20)
LED_PIN = 16
LED_COUNT = 72  # the chain: one a square; LED frames of other lengths dropped
RELEASE_PIN = 22  # a jumper to GND at power-up: the firmware stays off, the REPL is free
RELEASE_FLAG = "release"  # left by the firmware when the Pi asks for the REPL; used up at boot
DEBOUNCE_SCANS = 3  # 3 scans at 1 kHz = 3 ms
SETTLE_US = 20  # after a row goes low, before its columns are read (hardware/README.md)
SCAN_PERIOD_US = 1000  # 1 kHz scan
HEARTBEAT_MS = 1000
WATCHDOG_MS = 2000
TRANSPORT = "usb"  # or "uart" (GP0 TX, GP1 RX)
UART_BAUD = 115200
