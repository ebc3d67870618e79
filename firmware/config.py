"""Pins of the RP2040 build; keep in step with hardware/pico.toml (the tests check they agree)."""

ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
COLUMN_PINS = (10, 11, 12, 13)
LED_PIN = 16
LED_COUNT = 32  # hardware/pico.toml [leds] count (64 for two a square); other lengths dropped
RELEASE_PIN = 22  # a jumper to GND at power-up: the firmware stays off, the REPL is free
RELEASE_FLAG = "release"  # left by the firmware when the Pi asks for the REPL; used up at boot
DEBOUNCE_SCANS = 3  # 3 scans at 1 kHz = 3 ms
SETTLE_US = 20  # after a row goes low, before its columns are read (hardware/README.md)
SCAN_PERIOD_US = 1000  # 1 kHz scan
HEARTBEAT_MS = 1000
WATCHDOG_MS = 2000
TRANSPORT = "usb"  # or "uart" (GP0 TX, GP1 RX)
UART_BAUD = 115200
