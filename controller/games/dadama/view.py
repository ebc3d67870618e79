"""What a Dadama board shows: the LEDs, the display's lines and the page's data, as pure
functions of the session's ``DadamaView``.

The LEDs answer the three questions of a Dadama turn (docs/leds-session.md, "Dadama"): which
dice must throw, which pieces this throw may take (and where the die lands), and whether the
die that has taken may stop. The display shows the throw and every die's value (a digit per
die, in square order), because the board cannot see a die's face and the players must.
"""

from __future__ import annotations

import textwrap
from typing import Any

from controller.games.dadama.session import DadamaView
from controller.i18n import N_, _
from controller.rules.dadama import COLOURS, square_text
from controller.rules.geometry import geometry
from controller.rules.move import Square
from controller.view.leds import LEGEND, Light, shade
from controller.view.outputs import BoardOutputs, page_lines

DICE_LEGEND: dict[str, Light] = {
    light.name: light
    for light in (
        Light("thrower", (230, 159, 0), "pulse", 1.0,
              N_("this die may throw (orange, pulsing): lift it and put it back to choose it")),
        Light("throws", (0, 158, 115), "steady", 1.0, N_("this die throws now (green)")),
        Light("takeable", (213, 94, 0), "blink", 0.8,
              N_("the throw may take this piece (red-orange, blinking)")),
        Light("landing", (86, 180, 233), "steady", 0.8, N_("the die lands here (light blue)")),
        Light("go_on", (240, 228, 66), "pulse", 0.8,
              N_("go on: Confirm throws again, Next stops (yellow, pulsing)")),
    )
}  # fmt: skip

SQUARES: tuple[Square, ...] = geometry(8).squares


def lights(v: DadamaView) -> dict[Square, Light]:
    """The meaning lit on each square; later rules win on a shared square."""
    out: dict[Square, Light] = {}
    if v.phase == "play":
        if not v.dice:
            for sq in v.throwers:
                out[sq] = DICE_LEGEND["thrower"]
        if v.selected is not None and (v.dice or v.throwers):
            out[v.selected] = DICE_LEGEND["go_on" if v.can_stop else "throws"]
        for sq in v.targets:
            out[sq] = DICE_LEGEND["takeable"]
        for sq in v.landings:
            out[sq] = DICE_LEGEND["landing"]
        if v.shown is not None:
            out.update(v.shown.lights())
    for sq in v.missing:
        out[sq] = LEGEND["missing"]
    for sq in v.extra:
        out[sq] = LEGEND["extra"]
    return out


def values_line(v: DadamaView, side: int) -> str:
    """Every die of a side as one digit each, in square order (a dadama's digit in brackets)."""
    digits = [
        f"[{d.value}]" if d.dadama else str(d.value)
        for sq, d in sorted(v.pieces.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        if d.side == side
    ]
    return "".join(digits)


def status(v: DadamaView) -> str:
    """The one sentence saying what happens now."""
    who = _(COLOURS[v.side_to_move].capitalize())
    if v.arbiter:
        return _("Game over ({result}): {why}").format(result=v.result, why=v.arbiter)
    if v.ending is not None:
        return _("Game over: {why}").format(why=v.ending.describe())
    if v.phase == "setup":
        return _("Set the board as the lights show")
    if v.missing or v.extra:
        return _("Put the board right: yellow needs a die, blue must be cleared")
    if v.entering:
        return _("{who}: enter the face thrown: {face} (Next counts, Confirm enters)").format(
            who=who, face=v.entering[-1]
        )
    if v.dice and v.landings:
        return _("{who} threw {dice}, keeps {keep}: take a blinking piece").format(
            who=who, dice=dice_text(v.dice), keep=v.keep
        )
    if v.dice:
        return _("{who} threw {dice}: Next switches, Confirm keeps {keep}").format(
            who=who, dice=dice_text(v.dice), keep=v.keep
        )
    if v.can_stop:
        return _("{who}: go on (Confirm) or stop (Next)").format(who=who)
    if v.go_on:
        return _("{who}: throw again (Confirm)").format(who=who)
    if v.throwers:
        if v.selected is None:
            return _("{who} must throw: lift the die to throw").format(who=who)
        return _("{who}: Confirm throws the die on {square}").format(
            who=who, square=square_text(v.selected)
        )
    return _("{who} to move").format(who=who)


def dice_text(dice: tuple[int, ...]) -> str:
    return "+".join(str(d) for d in dice)


def last_throw_text(v: DadamaView) -> str:
    if v.last_throw is None:
        return ""
    square, dice, keep = v.last_throw
    return _("Last throw: {square} {dice} -> {keep}").format(
        square=square_text(square), dice=dice_text(dice), keep=keep
    )


def compose_dice(v: DadamaView, t: float, cols: int = 40, rows: int = 8) -> BoardOutputs:
    """Everything at time ``t``: each playable square's colour and the display's lines, wrapped
    to ``cols`` and cut to ``rows``: what happens now first, then every die's value, the last
    throw and the session's message."""
    lit = lights(v)
    leds = {sq: shade(lit.get(sq), t) for sq in SQUARES}
    head = textwrap.wrap(status(v), cols)[: max(1, rows - 2)]  # room for both sides' values
    parts = (
        *head,
        _("White {values}").format(values=values_line(v, 0)),
        _("Black {values}").format(values=values_line(v, 1)),
        last_throw_text(v),
        v.message,
    )
    return BoardOutputs(leds, page_lines(parts, cols, rows))


def snapshot(v: DadamaView, t: float) -> dict[str, Any]:
    """The view as JSON-ready data, for the simulator's page and the tests."""
    lit = lights(v)
    out = compose_dice(v, t)
    return {
        "game": "dadama",
        "phase": v.phase,
        "to_move": COLOURS[v.side_to_move],
        "pieces": [
            {"square": list(sq), "side": COLOURS[d.side], "value": d.value, "dadama": d.dadama}
            for sq, d in sorted(v.pieces.items())
        ],
        "lights": {f"{x},{y}": light.name for (x, y), light in lit.items()},
        "leds": {f"{x},{y}": list(rgb) for (x, y), rgb in out.leds.items()},
        "dice": list(v.dice),
        "keep": v.keep,
        "entering": list(v.entering),
        "dice_mode": v.dice_mode,
        "can_stop": v.can_stop,
        "status": status(v),
        "last_throw": last_throw_text(v),
        "page": list(out.page),
        "message": v.message,
        "over": v.ending is not None or bool(v.arbiter),
        "ending": v.arbiter or (v.ending.describe() if v.ending is not None else ""),
    }
