"""Co-processor firmware (MicroPython, RP2040) and the link logic it shares with the Pi.

The shared modules (framing, protocol, endpoint, debounce, ledframe, squares) import nothing but the
standard library subset MicroPython has, so the same file runs on the Pico and on the Pi.
"""
