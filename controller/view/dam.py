"""What a Dam board (12×12) shows: each of the 72 squares' light and the display's lines, as
pure functions of the session's ``DamView``. The lights are the Damath board's meanings
(``view/leds.py``) read from the tracker's guidance, so a player sees the same colours."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from controller.i18n import _
from controller.rules.dam import COLOURS
from controller.rules.draughts import DAM
from controller.rules.geometry import geometry
from controller.rules.move import Square
from controller.session.dam import DamView
from controller.view.leds import LEGEND, RGB, Light, shade

SQUARES: tuple[Square, ...] = geometry(DAM.rules.size, DAM.rules.parity).squares


@dataclass(frozen=True)
class DamOutputs:
    leds: dict[Square, RGB]
    page: tuple[str, ...]


def lights(v: DamView) -> dict[Square, Light]:
    """The meaning lit on each square; later rules win on a shared square."""
    g = v.guidance
    out: dict[Square, Light] = {}
    if v.phase == "play":
        for name, squares in (
            ("must_take", g.must_take),
            ("cannot_move", g.cannot_move),
            ("lifted", g.lifted),
            ("destination", g.destinations),
            ("to_be_taken", g.to_be_taken),
            ("choice", g.blink),
            ("selected", g.selected_marks),
        ):
            for sq in squares:
                out[sq] = LEGEND[name]
        if g.crown is not None:
            out[g.crown] = LEGEND["crown"]
    for sq in g.missing:
        out[sq] = LEGEND["missing"]
    for sq in g.extra:
        out[sq] = LEGEND["extra"]
    return out


def status(v: DamView) -> str:
    """The one sentence saying what happens now."""
    who = _(COLOURS[v.side_to_move].capitalize())
    if v.ending is not None:
        return _("Game over ({result}): {why}").format(result=v.result, why=v.ending.describe())
    if v.phase == "setup":
        return _("Set the board as the lights show")
    if v.guidance.missing or v.guidance.extra:
        return _("Put the board right: yellow needs a piece, blue must be cleared")
    if v.guidance.choices:
        return _("Two paths: touch a teal square, or Next then Confirm")
    if v.guidance.must_take:
        return _("{who} must take").format(who=who)
    return _("{who} to move").format(who=who)


def counts(v: DamView) -> str:
    men = [sum(1 for c in v.pieces.values() if c.side == s) for s in (0, 1)]
    return _("Black {black} · White {white}").format(black=men[0], white=men[1])


def compose_dam(v: DamView, t: float, cols: int = 40, rows: int = 8) -> DamOutputs:
    """Everything at time ``t``: the 72 squares' colours and the display's lines."""
    lit = lights(v)
    leds = {sq: shade(lit.get(sq), t) for sq in SQUARES}
    parts = (status(v), counts(v), v.message)
    page = [line for part in parts if part for line in textwrap.wrap(part, cols)]
    return DamOutputs(leds, tuple(page[:rows]))


def snapshot(v: DamView, t: float) -> dict[str, Any]:
    """The view as JSON-ready data, for the simulator's page and the tests."""
    lit = lights(v)
    out = compose_dam(v, t)
    return {
        "game": "dam",
        "size": DAM.rules.size,
        "phase": v.phase,
        "to_move": COLOURS[v.side_to_move],
        "pieces": [
            {"square": list(sq), "side": COLOURS[c.side], "king": c.dama}
            for sq, c in sorted(v.pieces.items())
        ],
        "lights": {f"{x},{y}": light.name for (x, y), light in lit.items()},
        "leds": {f"{x},{y}": list(rgb) for (x, y), rgb in out.leds.items()},
        "last": [list(sq) for sq in v.last.path] if v.last is not None else [],
        "result": v.result,
        "status": status(v),
        "page": list(out.page),
        "message": v.message,
    }
