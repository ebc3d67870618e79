"""What each square's LED shows, as a pure function of the tracker's guidance.

Colours come from the Okabe–Ito palette, which people with the common colour-vision deficiencies
can tell apart; no two meanings differ by red versus green alone, and the meanings that call for
action also differ in pattern (blinking, pulsing) or brightness. The legend is data, defined once:
the display, the simulator and the docs read it from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

from dataclasses import dataclass

from controller.i18n import N_
from controller.rules.damath_data import OPERATORS
from controller.rules.move import Square
from controller.tracker.guidance import Guidance
from controller.view.outputs import RGB as RGB


@dataclass(frozen=True)
class Light:
    """One meaning: a colour, a pattern (``steady``, ``blink`` 2 Hz, ``pulse`` 1 Hz) and a level."""

    name: str
    colour: RGB
    pattern: str
    brightness: float
    meaning: str


LEGEND: dict[str, Light] = {
    light.name: light
    for light in (
        Light("lifted", (240, 240, 240), "steady", 0.6, N_("the chip you hold came from here")),
        Light("destination", (86, 180, 233), "steady", 0.8,
              N_("your chip may go here (light blue)")),
        Light("must_take", (230, 159, 0), "pulse", 1.0,
              N_("this chip must take (orange, pulsing)")),
        Light("to_be_taken", (213, 94, 0), "blink", 0.8, N_("to be taken (red-orange, blinking)")),
        Light("cannot_move", (204, 121, 167), "blink", 1.0, N_("may not move (pink, blinking)")),
        Light("missing", (240, 228, 66), "blink", 1.0, N_("put a chip here (yellow, blinking)")),
        Light("extra", (0, 114, 178), "blink", 1.0, N_("take the chip off here (blue, blinking)")),
        Light("choice", (0, 158, 115), "blink", 1.0,
              N_("touch to choose a path (green, blinking)")),
        Light("selected", (0, 158, 115), "steady", 1.0, N_("the chosen path (green, steady)")),
        Light("locked", (230, 159, 0), "steady", 0.5, N_("touch-move: this chip must be moved")),
        Light("crown", (240, 228, 66), "pulse", 0.6, N_("crown this chip: it is a dama now")),
    )
}  # fmt: skip

OFF: RGB = (0, 0, 0)


def square_lights(g: Guidance) -> dict[Square, Light]:
    """The meaning lit on each square that shows one; later rules win on a shared square."""
    out: dict[Square, Light] = {}

    def put(name: str, squares: Iterable[Square]) -> None:
        for sq in squares:
            out[sq] = LEGEND[name]

    put("must_take", g.must_take)
    put("to_be_taken", g.to_be_taken)
    put("lifted", g.lifted[:1])
    put("destination", g.destinations)
    if g.locked is not None:
        put("locked", [g.locked])
    if g.crown is not None:
        put("crown", [g.crown])
    put("choice", g.blink)
    put("selected", g.selected_marks)
    put("cannot_move", g.cannot_move)
    put("missing", g.missing)
    put("extra", g.extra)
    return out


def led_colours(g: Guidance, t: float) -> dict[Square, RGB]:
    """The colour of every playable square at time ``t`` (blinking and pulsing resolved)."""
    lights = square_lights(g)
    return {sq: shade(lights.get(sq), t) for sq in OPERATORS}


def shade(light: Light | None, t: float) -> RGB:
    """A light's colour at ``t``: blink at 2 Hz (never fully dark), pulse at 1 Hz."""
    if light is None:
        return OFF
    level = light.brightness
    if light.pattern == "blink" and (t * 2.0) % 1.0 >= 0.5:
        level *= 0.15  # never fully dark: the square stays findable
    elif light.pattern == "pulse":
        level *= 0.4 + 0.6 * abs(1.0 - 2.0 * (t % 1.0))
    r, gr, b = light.colour
    return (round(r * level), round(gr * level), round(b * level))
