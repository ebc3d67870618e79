"""What each backend of a device must offer, as ``typing.Protocol``s: a backend is any object
with these methods (a real part, a mock, the co-processor's link), checked by the type checker,
never by inheritance."""

from __future__ import annotations

from typing import Protocol


class MaskSource(Protocol):
    """The raw sensor mask: bit i set when square i (``firmware.squares``) is occupied."""

    def read_mask(self) -> int: ...

    def close(self) -> None: ...


class LedWriter(Protocol):
    """The wire of an LED strip: one frame of encoded bytes at a time."""

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class Tone(Protocol):
    """A buzzer's sound: on at a frequency, off."""

    def on(self, frequency: float) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...
