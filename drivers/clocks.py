"""The two arbiter clock displays: 4-digit 7-segment, `m:ss`, colon on or off, brightness.

Interface: `show(left, right, colon)` with each text at most four digits plus an optional ':'
(for example "9:59", "19:59"); the caller (the view) writes the text and decides when the colon
blinks, so the driver keeps no time. Backends: `Ht16k33Clocks` (two HT16K33 backpacks on one I2C
bus) and `MockClocks`.
"""

from __future__ import annotations

from typing import Any

from drivers.base import Device


def digits_of(text: str) -> str:
    """ "9:59" -> " 959": the four digit positions, right-aligned; ValueError if it can't fit."""
    digits = text.replace(":", "")
    if len(digits) > 4 or not all(ch.isdigit() or ch in " -" for ch in digits):
        raise ValueError(f"clock text {text!r} must be up to 4 digits with an optional ':'")
    return digits.rjust(4)


class Clocks(Device):
    def show(self, left: str, right: str, colon: bool) -> None:
        raise NotImplementedError

    def set_brightness(self, level: float) -> None:
        raise NotImplementedError


class MockClocks(Clocks):
    def __init__(self) -> None:
        self.shown: list[tuple[str, str, bool]] = []
        self.brightness = 1.0

    def show(self, left: str, right: str, colon: bool) -> None:
        self.check_open()
        self.shown.append((digits_of(left), digits_of(right), bool(colon)))

    def set_brightness(self, level: float) -> None:
        self.brightness = level


class Ht16k33Clocks(Clocks):
    """Left display at the first address (0x70), right at the second (0x71, A0 bridged)."""

    def __init__(
        self, addresses: tuple[int, ...] = (0x70, 0x71), i2c: Any = None, brightness: float = 0.5
    ) -> None:
        from adafruit_ht16k33.segments import Seg7x4

        if i2c is None:
            from drivers.blinka import board

            i2c = board().I2C()
        self._displays: list[Any] = []
        for side, address in zip(("left (Blue)", "right (Red)"), addresses, strict=False):
            try:
                self._displays.append(Seg7x4(i2c, address=address, auto_write=False))
            except (OSError, ValueError) as exc:
                raise OSError(
                    f"the {side} clock does not answer at I2C address {address:#04x} ({exc}): "
                    "check its 4 wires, its power (5 V, through the I2C level shifter) and its "
                    "address jumpers"
                ) from None
        self._last: tuple[str, str, bool] | None = None
        self.set_brightness(brightness)

    def set_brightness(self, level: float) -> None:
        for display in self._displays:
            display.brightness = min(1.0, max(0.0, level))

    def show(self, left: str, right: str, colon: bool) -> None:
        self.check_open()
        frame = (digits_of(left), digits_of(right), bool(colon))
        if frame == self._last:
            return
        for display, digits in zip(self._displays, frame[:2], strict=True):
            display.fill(0)
            for i, ch in enumerate(digits):
                display[i] = ch
            display.colon = frame[2]
            display.show()
        self._last = frame

    def close(self) -> None:
        if not self.closed:
            for display in self._displays:
                display.fill(0)
                display.show()
        super().close()
