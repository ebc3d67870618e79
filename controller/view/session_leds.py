"""The session's layer over the tracker's LED view (``view/leds.py``): the last move, pause, the
time reminder and time-out, and the end of the game with the winner's side.

The tracker's meanings (a lifted chip's destinations, chips that must take and be taken, squares
to fix, a choice to make) come from ``leds.square_lights`` unchanged and are drawn on top of the
last move and the clock's warning, so guidance is never hidden. Colours keep to the same
Okabe–Ito palette; where a colour repeats, the pattern or the place on the board tells the
meaning apart (docs/leds-session.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from controller.session import ViewInput

from controller.i18n import N_
from controller.rules.damath_data import OPERATORS
from controller.rules.move import BLUE, Square
from controller.view.leds import LEGEND, Light, square_lights
from controller.view.scoresheet_pages import setup_step

SESSION_LEGEND: dict[str, Light] = {
    light.name: light
    for light in (
        Light("last_move", (240, 240, 240), "steady", 0.12, N_("last move: from, to (dim white)")),
        Light("paused", (86, 180, 233), "pulse", 0.3,
              N_("paused: every square breathes light blue")),
        Light("menu", (204, 121, 167), "pulse", 0.3, N_("arbiter's menu open (pink, breathing)")),
        Light("time_warning", (240, 240, 240), "blink", 0.8,
              N_("10 s left: the mover's home row blinks white")),
        Light("time_up", (213, 94, 0), "steady", 1.0,
              N_("move time over: the mover's home row steady red-orange")),
        Light("winner_blue", (0, 114, 178), "steady", 0.6,
              N_("game over, BLUE won: Blue's half blue")),
        Light("winner_red", (213, 94, 0), "steady", 0.6,
              N_("game over, RED won: Red's half red-orange")),
        Light("draw", (240, 240, 240), "steady", 0.3,
              N_("game over, a draw: every square dim white")),
        Light("place_next", (240, 228, 66), "steady", 1.0,
              N_("setting up: put the chip the display names here (yellow, steady)")),
        Light("shown_from", (0, 158, 115), "pulse", 1.0,
              N_("lift this chip: the computer's move or a hint (green, breathing)")),
        Light("shown_path", (0, 158, 115), "steady", 0.35,
              N_("the shown move goes here (dim green)")),
        Light("shown_taken", (213, 94, 0), "pulse", 0.8,
              N_("the shown move takes this chip off (red-orange, breathing)")),
    )
}  # fmt: skip

ALL_LIGHTS: dict[str, Light] = {**LEGEND, **SESSION_LEGEND}


def home_row(side: int) -> list[Square]:
    y = 0 if side == BLUE else 7
    return [sq for sq in OPERATORS if sq[1] == y]


def half(side: int) -> list[Square]:
    rows = range(0, 4) if side == BLUE else range(4, 8)
    return [sq for sq in OPERATORS if sq[1] in rows]


def session_lights(inp: ViewInput) -> dict[Square, Light]:
    """The meaning on each square for a ``session.ViewInput`` (later layers win)."""
    out: dict[Square, Light] = {}

    def put(name: str, squares: Iterable[Square]) -> None:
        for sq in squares:
            out[sq] = ALL_LIGHTS[name]

    if inp.outcome is not None and inp.phase == "over":
        winner = inp.outcome.winner
        if winner is None:
            put("draw", OPERATORS)
        else:
            put("winner_blue" if winner == BLUE else "winner_red", half(winner))
        if inp.last_move is not None:
            put("last_move", (inp.last_move.start, inp.last_move.end))
        return out
    if inp.menu is not None:
        put("menu", OPERATORS)
        return out
    if inp.paused:
        put("paused", OPERATORS)
        return out
    if inp.last_move is not None and inp.phase == "play":
        put("last_move", (inp.last_move.start, inp.last_move.end))
    clock = inp.clock
    if inp.phase == "play" and clock.move_timed_out and not inp.proxy:
        put("time_up", home_row(inp.side_to_move))
    elif inp.phase == "play" and clock.warned:
        put("time_warning", home_row(inp.side_to_move))
    shown = getattr(inp, "shown", None)
    if shown is not None and inp.phase == "play":
        put("shown_path", shown.squares[1:])
        put("shown_taken", shown.taken)
        put("shown_from", shown.squares[:1])
    lights = square_lights(inp.guidance)
    if shown is not None and inp.phase == "play" and not inp.guidance.lifted:
        # before a chip is lifted the shown move says more than "this chip must take, these
        # may be taken": it names the taking to make
        general = ("must_take", "to_be_taken")
        lights = {sq: light for sq, light in lights.items() if light.name not in general}
    if inp.phase == "setup" and inp.guidance.mode == "setup":
        # guided setup: one square at a time, the one the display names; extras stay lit
        lights = {sq: light for sq, light in lights.items() if light.name != "missing"}
        nxt = setup_step(inp)[2]
        if nxt is not None and not inp.guidance.extra:
            lights[nxt] = ALL_LIGHTS["place_next"]
    out.update(lights)
    return out
