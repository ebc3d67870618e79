"""The scoresheet display: a page of text lines, drawn once and shown on whatever is attached.

`render_page(lines, size)` is the one drawing (PIL, 1-bit): the OLED shows it, a test saves it as
a PNG, the simulator can serve it. Backends: `OledScoresheet` (luma.oled: SSD1306 or SH1106
128x64 on I2C, SSD1322 256x64 on SPI; or any luma device, such as luma's `dummy`),
`SerialScoresheet` (the lines over a serial port, an ANSI page for a terminal or an external
display) and `MockScoresheet`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from drivers.base import Device

CLEAR_PAGE = "\x1b[2J\x1b[H"  # ANSI: clear screen, cursor home; starts every serial page


@cache
def _font() -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default()


def line_height() -> int:
    _left, top, _right, bottom = _font().getbbox("Ag|")
    return int(bottom - min(top, 0) + 1)


def capacity(size: tuple[int, int]) -> tuple[int, int]:
    """(columns, rows) of text a page of `size` pixels holds, so the view can page moves."""
    char_width = max(1, int(_font().getlength("0")))
    return size[0] // char_width, size[1] // line_height()


def render_page(lines: list[str], size: tuple[int, int] = (128, 64)) -> Image.Image:
    """The page as a 1-bit image: lines top to bottom; what doesn't fit is cut off."""
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    step = line_height()
    for row, text in enumerate(lines[: capacity(size)[1]]):
        draw.text((0, row * step), text, fill=1, font=_font())
    return image


class Scoresheet(Device):
    size: tuple[int, int] = (128, 64)

    def __init__(self) -> None:
        self.last: list[str] | None = None

    def render(self, lines: list[str]) -> Image.Image:
        return render_page(lines, self.size)

    def show(self, lines: list[str]) -> None:
        self.check_open()
        lines = list(lines)
        if lines == self.last:
            return
        self._show(lines)
        self.last = lines

    def _show(self, lines: list[str]) -> None:
        raise NotImplementedError


class MockScoresheet(Scoresheet):
    def __init__(self, size: tuple[int, int] = (128, 64)) -> None:
        super().__init__()
        self.size = size
        self.pages: list[list[str]] = []

    def _show(self, lines: list[str]) -> None:
        self.pages.append(lines)


def _luma_device(
    kind: str,
    i2c_port: int,
    i2c_address: int,
    spi_port: int,
    spi_device: int,
    dc_pin: int | None = None,
    reset_pin: int | None = None,
) -> Any:
    from luma.core.interface.serial import i2c, spi
    from luma.oled import device

    if kind in ("ssd1306", "sh1106"):
        interface = i2c(port=i2c_port, address=i2c_address)
        return getattr(device, kind)(interface, width=128, height=64)
    if kind == "ssd1322":
        # the profile names the data/command and reset pins (checked against every other pin)
        pins = {"gpio_DC": dc_pin or 24, "gpio_RST": reset_pin or 25}
        interface = spi(port=spi_port, device=spi_device, **pins)
        return device.ssd1322(interface, width=256, height=64)
    raise ValueError(f"unknown OLED {kind!r}: ssd1306, sh1106 or ssd1322")


class OledScoresheet(Scoresheet):
    def __init__(
        self,
        kind: str = "ssd1306",
        i2c_port: int = 1,
        i2c_address: int = 0x3C,
        spi_port: int = 0,
        spi_device: int = 0,
        device: Any = None,
        dc_pin: int | None = None,
        reset_pin: int | None = None,
    ) -> None:
        super().__init__()
        self.device = device or _luma_device(
            kind, i2c_port, i2c_address, spi_port, spi_device, dc_pin, reset_pin
        )
        self.size = (self.device.width, self.device.height)

    def _show(self, lines: list[str]) -> None:
        self.device.display(self.render(lines).convert(self.device.mode))

    def close(self) -> None:
        if not self.closed:
            self.device.cleanup()
        super().close()


class SerialScoresheet(Scoresheet):
    """Each page: CLEAR_PAGE, then the lines, CR LF after each, UTF-8."""

    def __init__(self, url: str, baudrate: int = 115200, port: Any = None) -> None:
        super().__init__()
        if port is None:
            import serial

            port = serial.serial_for_url(url, baudrate=baudrate, timeout=0, write_timeout=1)
        self.port = port

    def _show(self, lines: list[str]) -> None:
        text = CLEAR_PAGE + "".join(line + "\r\n" for line in lines)
        self.port.write(text.encode("utf-8"))

    def close(self) -> None:
        if not self.closed:
            self.port.close()
        super().close()
