"""The view: one pure function from the session's state to what every output shows at ``t``.

``compose(view_input, t)`` gives the LED colour and meaning of every playable square, the two
clock texts and the colon, the scoresheet page, the phase and the message. The scan loop hands
the result to the drivers; ``snapshot.py`` makes it JSON for the page; tests compare it.
Buzzer cues are events, not state: the session queues them (``Session.take_cues``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.session import ViewInput

from dataclasses import dataclass
from typing import Any

from controller.rules.damath_data import OPERATORS
from controller.rules.move import Square, side_name
from controller.view.clockfaces import clock_faces
from controller.view.leds import RGB, Light, shade
from controller.view.scoresheet_pages import page, setup_sentence
from controller.view.session_leds import session_lights


@dataclass(frozen=True)
class Outputs:
    leds: dict[Square, RGB]
    lights: dict[Square, Light]
    clocks: tuple[str, str, bool]
    page: tuple[str, ...]
    phase: str
    paused: bool
    message: str
    side_to_move: int
    result: dict[str, Any] | None


def message(inp: ViewInput) -> str:
    """What the board says now, for the page: a wrong move explained, else the session's
    message, else (setting up) which chip goes where next."""
    reason = inp.guidance.reason
    if reason is not None:
        return str(reason.page)
    if inp.message:
        return inp.message
    if inp.phase == "setup":
        return setup_sentence(inp)
    return ""


def compose(inp: ViewInput, t: float, cols: int = 21, rows: int = 4) -> Outputs:
    lights = session_lights(inp)
    leds = {sq: shade(lights.get(sq), t) for sq in OPERATORS}
    result = None
    if inp.outcome is not None:
        o = inp.outcome
        winner = o.winner
        result = {
            "reason": o.reason,
            "text": o.text,
            "winner": side_name(winner) if winner is not None else None,
            "points": [str(p) for p in o.points],
            "grand": [s.grand_text for s in o.sheet.game.sides],
        }
    return Outputs(
        leds=leds,
        lights=lights,
        clocks=clock_faces(inp, t),
        page=tuple(page(inp, cols, rows)),
        phase=inp.phase,
        paused=inp.paused,
        message=message(inp),
        side_to_move=inp.side_to_move,
        result=result,
    )
