"""What the LED under each point of a Mathematical Chess board shows, as a pure function of the
tracker's reading (C-13: the board lights what may still be removed). The colours and patterns
are those of the Damath legend (``leds.Light``, the Okabe–Ito palette, action meanings blink or
pulse), so a child who knows one board reads the other."""

from __future__ import annotations

from controller.games.mathchess.tracker import MathChessTracker
from controller.i18n import N_
from controller.rules.mathchess import Phase, Point
from controller.view.leds import RGB, Light, shade

LEGEND: dict[str, Light] = {
    light.name: light
    for light in (
        Light("removable", (230, 159, 0), "pulse", 1.0,
              N_("this piece may still be removed (orange, pulsing)")),
        Light("refused", (204, 121, 167), "blink", 1.0,
              N_("this removal breaks a rule: put the piece back (pink, blinking)")),
        Light("lifted", (240, 240, 240), "steady", 0.6, N_("the piece you hold came from here")),
        Light("moved", (86, 180, 233), "steady", 0.8, N_("your piece moved here (light blue)")),
        Light("naming", (240, 228, 66), "blink", 1.0,
              N_("name the piece put here (yellow, blinking)")),
        Light("stray", (0, 114, 178), "blink", 1.0,
              N_("put this piece back where it was (blue, blinking)")),
    )
}  # fmt: skip


def point_lights(tracker: MathChessTracker) -> dict[Point, Light]:
    """The meaning lit on each point that shows one; later ones win on a shared point."""
    r = tracker.reading
    out: dict[Point, Light] = {}
    if tracker.position.phase is Phase.OVER:
        return out
    for point in tracker.still_removable():
        out[point] = LEGEND["removable"]
    if r.in_hand is not None:
        out[r.in_hand] = LEGEND["lifted"]
    if r.move is not None:
        out[r.move.end] = LEGEND["moved"]
    if r.naming is not None:
        out[r.naming] = LEGEND["naming"]
    for refusal in r.refused:
        out[refusal.point] = LEGEND["refused"]
    for point in r.strays:
        out[point] = LEGEND["stray"]
    return out


def point_colours(tracker: MathChessTracker, t: float) -> dict[Point, RGB]:
    """The colour of each lit point at time ``t`` (blinking and pulsing included)."""
    return {p: shade(light, t) for p, light in point_lights(tracker).items()}
