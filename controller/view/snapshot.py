"""The view as JSON-ready data: everything the outputs show at ``t`` and the state behind it
(guidance, menu, sheet, cues), for the simulator's page and for tests (docs/session.md).

It is built once, from the view's one input (``ViewInput``, with its page facts: ``view_input(t,
page=True)``), never from the session itself. It lives with the view, not in the session, so
that the session never imports what renders it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.record.outcome import Outcome
from controller.rules.damath_data import OPERATORS
from controller.rules.move import Square, side_name
from controller.scoresheet.layout import Cell, result_lines, sheet_lines
from controller.session import ViewInput
from controller.session.clocks import clock_text
from controller.view.compose import Outputs, compose
from controller.view.leds import Light
from controller.view.session_leds import ALL_LIGHTS
from controller.view.texts import NO_CLOCK


def snapshot(
    view: ViewInput,
    t: float,
    *,
    page: bool = False,
    chips: Mapping[Square, Any] | None = None,
) -> dict[str, Any]:
    """Everything the outputs show at ``t``, as JSON-ready data.

    ``page``: for the simulator's page, which blinks the LEDs itself: each lit square carries
    its meaning's colour at full level and its brightness, and the shaded frame of this instant
    (``leds``) is left out. ``chips``: what stands on each square (``.json()``), for a page that
    draws the chips."""
    facts = view.page
    if facts is None:
        raise ValueError("snapshot needs the page facts: view_input(t, page=True)")
    out = compose(view, t)
    g = view.guidance
    reading = view.clock
    sheet = facts.sheet
    snap: dict[str, Any] = {
        "phase": out.phase,
        "paused": out.paused,
        "message": out.message,
        "to_move": side_name(out.side_to_move),
        "clocks": {
            "left": out.clocks[0],
            "right": out.clocks[1],
            "colon": out.clocks[2],
            "game": out.clocks[0],
            "move": clock_text(reading.move_left) if view.timed else NO_CLOCK,
            "running": reading.running,
            "warned": reading.warned,
            "timed_out": reading.move_timed_out,
        },
        "scoresheet": list(out.page),
        "result": out.result,
        "squares": _squares(out, page, chips),
        "ply": view.ply,
        "variant": view.variant,
        "profile": view.rules,
        "menu": None
        if view.menu is None
        else {
            "title": view.menu.title,
            "options": [o.label for o in view.menu.options],
            "selected": view.menu.selected,
        },
        "tracker_phase": g.phase,
        "mode": g.mode,
        "place": [[list(sq), text] for sq, text in g.place],
        "choices": [str(m) for m in g.choices],
        "selected": str(g.selected) if g.selected else None,
        "crown": list(g.crown) if g.crown else None,
        "cues": [{"seq": c.seq, "t": c.t, "name": c.name} for c in facts.cues],
        "messages": [facts.said] if facts.said else [],
        "problems": list(facts.problems),
        "moves": list(facts.moves),
        "sheet": {
            "lines": [
                {
                    "n": line.number,
                    "blue": _cell(line.blue),
                    "red": _cell(line.red),
                    "section": line.section,
                }
                for line in sheet_lines(sheet)
            ],
            "totals": dict(zip(("blue", "red"), scores(view.totals, view.outcome), strict=True)),
            "result": result_lines(sheet)[0] if view.outcome else None,
            "ending": result_lines(sheet)[1:],
        },
        "ending": view.outcome.text if view.outcome else None,
        "winner": _winner(view.outcome),
        "preview": [[list(sq), text] for sq, text in view.preview],
        "info": dict(view.info),
        "play": dict(facts.play),
        "timed": view.timed,
        "shown": view.shown.json() if view.shown is not None else None,
    }
    if not page:
        snap["leds"] = [_led_frame(out, sq) for sq in _in_order(out)]
    return snap


def scores(running: tuple[str, str], outcome: Outcome | None) -> tuple[str, str]:
    """The two big numbers: the takings so far while the game is played, its final scores
    (the grand totals, the remaining chips counted: RULES.md) once it is over, the result's."""
    if outcome is None:
        return running
    blue, red = outcome.sheet.game.sides
    return blue.grand_text, red.grand_text


def _winner(outcome: Outcome | None) -> str | None:
    """``blue``, ``red``, ``draw`` once the game is over; None while it is played."""
    if outcome is None:
        return None
    return "draw" if outcome.winner is None else side_name(outcome.winner)


def _in_order(out: Outputs) -> list[Square]:
    return sorted(out.leds, key=lambda s: (s[1], s[0]))


def _led_frame(out: Outputs, sq: Square) -> dict[str, Any]:
    """One LED as the strip shows it at this instant (shaded by its pattern)."""
    light = out.lights.get(sq)
    return {
        "square": list(sq),
        "rgb": list(out.leds[sq]),
        "meaning": light.name if light else None,
        "pattern": light.pattern if light else None,
        "blinking": bool(light and light.pattern != "steady"),
    }


def _squares(out: Outputs, page: bool, chips: Mapping[Square, Any] | None) -> list[dict[str, Any]]:
    cells = []
    for sq in _in_order(out):
        light = out.lights.get(sq)
        cell: dict[str, Any] = {"square": list(sq), "led": _led(light, out.leds[sq], page)}
        if page:
            chip = (chips or {}).get(sq)
            cell["operator"] = OPERATORS[sq]
            cell["chip"] = chip.json() if chip else None
        cells.append(cell)
    return cells


def _led(light: Light | None, shaded: tuple[int, int, int], page: bool) -> dict[str, Any] | None:
    if light is None:
        return None
    led: dict[str, Any] = {"name": light.name, "rgb": list(shaded), "pattern": light.pattern}
    meaning = ALL_LIGHTS.get(light.name) if page else None
    if meaning is not None:  # the colour of the meaning, at full level: the page blinks it
        led["rgb"] = list(meaning.colour)
        led["brightness"] = meaning.brightness
    return led


def _cell(cell: Cell | None) -> dict[str, str] | None:
    if cell is None:
        return None
    return {
        "move": cell.move,
        "score": cell.score,
        "total": cell.total,
        "kind": cell.kind,
        "square": cell.square,
    }
