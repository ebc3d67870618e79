"""LED frame encoding: colours per LED -> the chain's bytes, with the current cap applied.

Shared by the Pi (which encodes the frame) and the RP2040 (which could encode locally); integer
arithmetic only, so both sides give the same bytes. A WS2812 at full white draws about 60 mA
(20 mA a channel); the frame is scaled down uniformly when its estimated draw exceeds the budget,
so colours keep their hue and the supply is never overloaded.
"""

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Sequence

FULL_UNITS = 765  # r + g + b of one LED at full white


def frame_units(pixels: "Sequence[Sequence[int]]") -> int:
    """Sum of every channel of every LED: the frame's current in units of 1/765 of one LED."""
    total = 0
    for p in pixels:
        total += p[0] + p[1] + p[2]
    return total


def current_ma(pixels: "Sequence[Sequence[int]]", ma_per_led: int = 60) -> float:
    return frame_units(pixels) * ma_per_led / FULL_UNITS


def encode(
    pixels: "Sequence[Sequence[int]]",
    order: str = "GRB",
    budget_ma: float | None = None,
    ma_per_led: float = 60,
) -> bytes:
    """pixels: sequence of (r, g, b) 0..255 -> bytes in wire order, scaled to fit `budget_ma`."""
    total = frame_units(pixels)
    limit = None
    if budget_ma is not None:
        limit = int(budget_ma) * FULL_UNITS // int(ma_per_led)
        if total <= limit:
            limit = None
    picks = ["RGB".index(ch) for ch in order]
    out = bytearray(len(pixels) * len(picks))
    i = 0
    for p in pixels:
        for k in picks:
            v = p[k]
            if limit is not None:
                v = v * limit // total  # floor: the scaled frame never exceeds the budget
            out[i] = v
            i += 1
    return bytes(out)
