"""What the two 4-digit clock displays show (pure): the game clock left, the move clock right.

Left: the game clock, 20:00 counting down for the whole game. Right: the move clock of the
player to move, 1:00 counting down, back to 1:00 at every move. The colon blinks once a second
while time runs and stays lit while it is stopped (setup, pause, restore, a menu); a move clock
that ran out blinks 0:00; after the end both show the time as it stood, colon off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.session import ViewInput

from controller.session.clocks import clock_text

from .texts import NO_CLOCK


def clock_faces(inp: ViewInput, t: float) -> tuple[str, str, bool]:
    """(left text, right text, colon) for a ``session.ViewInput`` at ``t``."""
    clock = inp.clock
    if not getattr(inp, "timed", True):  # practice with the clocks off: no time shown
        return NO_CLOCK, NO_CLOCK, False
    left = clock_text(clock.game_left)
    right = clock_text(clock.move_left)
    second_half = (t % 1.0) >= 0.5
    if inp.phase == "over":
        return left, right, False
    if clock.move_timed_out and not inp.proxy and second_half:
        right = ""
    colon = (not second_half) if clock.running else True
    return left, right, colon
