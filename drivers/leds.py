"""The LED under each square: colours in, the chain's bytes out, nothing re-sent if unchanged.

`LedStrip.show({square: (r, g, b)})` maps squares to LEDs (ledmap.py), applies the brightness
ceiling and the supply's current cap (firmware/ledframe.py, integer maths shared with the
RP2040) and hands the bytes, in wire order, to a writer: `MockLedWriter` (records every frame),
`NeoPixelSpiWriter` (SPI MOSI, Pi 4 and 5, no root) or the co-processor link (coprocessor.py).
A PWM writer (rpi_ws281x) was removed: it needs root and /dev/mem, which the service never has.

A frame the co-processor link cannot send now (the link is down, or the Pico reset and lost its
chain) is the link's to deliver: it keeps the newest picture and sends it again when the Pico is
back (drivers/link.py), so a frame handed to it counts as shown.

A frame the writer cannot send (an SPI error: drivers/health.py's ``IO_ERRORS``) is counted in
``LedStrip.faults`` and not remembered as sent, so the next ``show`` (the loop renders at 25 Hz)
sends it again; the board plays on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drivers.base import Device
from drivers.health import IO_ERRORS, Faults
from drivers.interfaces import LedWriter
from drivers.occupancy import Square
from firmware import ledframe

Colour = tuple[int, int, int]
BUDGET_FRACTION = 0.85  # of the supply's rating: headroom for idle draw and supply tolerance


class LedStrip(Device):
    def __init__(
        self,
        writer: LedWriter,
        mapping: Mapping[Square, tuple[int, ...]],
        count: int,
        order: str = "GRB",
        supply_amps: float | None = None,
        ma_per_led: int = 60,
        max_brightness: float = 1.0,
    ) -> None:
        self.writer = writer
        self.mapping = dict(mapping)
        self.count = count
        self.order = order
        self.ma_per_led = ma_per_led
        self.budget_ma = None if supply_amps is None else int(supply_amps * 1000 * BUDGET_FRACTION)
        self.max_brightness = max_brightness
        self._last: bytes | None = None
        self.sent = 0
        self.skipped = 0
        self.faults = Faults("leds", "LED chain", "check the LED data wire and its supply")

    def encode(self, colours: Mapping[Square, Colour]) -> bytes:
        """The bytes this frame puts on the wire (GRB by default, 3 a LED)."""
        pixels: list[Colour] = [(0, 0, 0)] * self.count
        scale = self.max_brightness
        for square, colour in colours.items():
            leds = self.mapping.get(square)
            if leds is None:
                raise ValueError(f"no LED for square {square!r}: not a playable square")
            r, g, b = colour
            if not all(0 <= v <= 255 for v in (r, g, b)):
                raise ValueError(f"colour {colour!r} for {square!r}: each channel must be 0..255")
            if scale < 1.0:
                r, g, b = int(r * scale), int(g * scale), int(b * scale)
            for i in leds:
                pixels[i] = (r, g, b)
        return bytes(ledframe.encode(pixels, self.order, self.budget_ma, self.ma_per_led))

    def show(self, colours: Mapping[Square, Colour]) -> bool:
        """Light the squares (others dark); returns False when the frame equals the last one."""
        self.check_open()
        data = self.encode(colours)
        if data == self._last:
            self.skipped += 1
            return False
        try:
            self.writer.write(data)
        except IO_ERRORS as exc:
            self.faults.error(exc)
            self.faults.gave_up()
            return False  # not remembered as sent: the next show sends it again
        self.faults.ok()
        self._last = data
        self.sent += 1
        return True

    def close(self) -> None:
        if not self.closed:
            try:
                self.writer.write(bytes(self.count * len(self.order)))  # dark
            except IO_ERRORS as exc:  # the board is stopping: counted, the rest still closes
                self.faults.error(exc)
            finally:
                self.writer.close()
        super().close()


class MockLedWriter:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.frames.append(bytes(data))

    def close(self) -> None:
        pass


class NeoPixelSpiWriter:
    """The chain on SPI0 MOSI (GPIO 10) via adafruit-circuitpython-neopixel-spi: no root, Pi 5.

    The bytes come already in wire order and capped, so the library is told the order is "RGB"
    (identity) and full brightness: what it sends is exactly our bytes.
    """

    def __init__(self, count: int, spi: Any = None, bytes_per_led: int = 3) -> None:
        import neopixel_spi

        if spi is None:
            from drivers.blinka import board

            spi = board().SPI()
        self._count = count
        self._bpp = bytes_per_led
        self._pixels = neopixel_spi.NeoPixel_SPI(
            spi,
            count,
            brightness=1.0,
            auto_write=False,
            pixel_order="RGB" if bytes_per_led == 3 else "RGBW",
        )

    def write(self, data: bytes) -> None:
        bpp = self._bpp
        for i in range(self._count):
            self._pixels[i] = tuple(data[i * bpp : i * bpp + bpp])
        self._pixels.show()

    def close(self) -> None:
        self._pixels.deinit()
