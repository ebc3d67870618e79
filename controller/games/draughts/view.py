"""What a plain draughts board (Dam 12 × 12, English draughts 8 × 8) shows: each dark square's
light and the display's lines, as pure functions of the session's ``DraughtsView``. The lights
are the Damath board's meanings (``view/leds.py``) read from the tracker's guidance, so a player
sees the same colours on every board."""

from __future__ import annotations

from typing import Any

from controller.games.draughts.session import DraughtsView
from controller.i18n import _
from controller.rules.move import Square
from controller.view.leds import LEGEND, Light, shade
from controller.view.outputs import BoardOutputs, page_lines


def squares(size: int) -> tuple[Square, ...]:
    """The dark squares of a ``size`` × ``size`` board (where the sensors and LEDs are)."""
    return tuple((x, y) for y in range(size) for x in range(size) if (x + y) % 2 == 1)


def lights(v: DraughtsView) -> dict[Square, Light]:
    """The meaning lit on each square; later rules win on a shared square."""
    g = v.guidance
    out: dict[Square, Light] = {}
    if v.phase == "play":
        for name, marked in (
            ("must_take", g.must_take),
            ("cannot_move", g.cannot_move),
            ("lifted", g.lifted),
            ("destination", g.destinations),
            ("to_be_taken", g.to_be_taken),
            ("choice", g.blink),
            ("selected", g.selected_marks),
        ):
            for sq in marked:
                out[sq] = LEGEND[name]
        if g.crown is not None:
            out[g.crown] = LEGEND["crown"]
    for sq in g.missing:
        out[sq] = LEGEND["missing"]
    for sq in g.extra:
        out[sq] = LEGEND["extra"]
    return out


def status(v: DraughtsView) -> str:
    """The one sentence saying what happens now."""
    who = _(v.colours[v.side_to_move].capitalize())
    if v.arbiter:
        return _("Game over ({result}): {why}").format(result=v.result, why=v.arbiter)
    if v.ending is not None:
        return _("Game over ({result}): {why}").format(result=v.result, why=v.message)
    if v.phase == "setup":
        return _("Set the board as the lights show")
    if v.guidance.missing or v.guidance.extra:
        return _("Put the board right: yellow needs a piece, blue must be cleared")
    if v.guidance.choices:
        return _("Two paths: touch a green square, or Next then Confirm")
    if v.guidance.must_take:
        return _("{who} must take").format(who=who)
    return _("{who} to move").format(who=who)


def counts(v: DraughtsView) -> str:
    men = [sum(1 for c in v.pieces.values() if c.side == s) for s in (0, 1)]
    return _("{first} {a} · {second} {b}").format(
        first=_(v.colours[0].capitalize()), a=men[0], second=_(v.colours[1].capitalize()), b=men[1]
    )


def compose_draughts(v: DraughtsView, t: float, cols: int = 40, rows: int = 8) -> BoardOutputs:
    """Everything at time ``t``: the dark squares' colours and the display's lines."""
    lit = lights(v)
    leds = {sq: shade(lit.get(sq), t) for sq in squares(v.size)}
    parts = (status(v), counts(v), "" if v.over else v.message)
    return BoardOutputs(leds, page_lines(parts, cols, rows))


def snapshot(v: DraughtsView, t: float) -> dict[str, Any]:
    """The view as JSON-ready data, for the simulator's page and the tests."""
    lit = lights(v)
    out = compose_draughts(v, t)
    return {
        "game": v.game,
        "size": v.size,
        "colours": list(v.colours),
        "phase": v.phase,
        "to_move": v.colours[v.side_to_move],
        "pieces": [
            {"square": list(sq), "side": v.colours[c.side], "king": c.dama}
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
