"""The session as JSON-ready data: everything the outputs show at ``t`` and the state behind it
(guidance, menu, sheet, cues), for the simulator's page and for tests (docs/session.md).

It lives with the view, not in the session, so that the session never imports what renders it.
"""

from __future__ import annotations

from typing import Any

from controller.scoresheet.layout import Cell, result_lines, sheet_lines
from controller.session.clocks import clock_text
from controller.view.compose import compose
from controller.view.texts import NO_CLOCK


def snapshot(session: Any, t: float) -> dict[str, Any]:
    """Everything the outputs show at ``t`` for a ``Session``, as JSON-ready data."""
    inp = session.view_input(t)
    out = compose(inp, t).to_json()
    g = inp.guidance
    reading = inp.clock
    out["clocks"].update(
        game=out["clocks"]["left"],
        move=clock_text(reading.move_left) if inp.timed else NO_CLOCK,
        running=reading.running,
        warned=reading.warned,
        timed_out=reading.move_timed_out,
    )
    out["squares"] = [
        {
            "square": x["square"],
            "led": None
            if x["meaning"] is None
            else {"name": x["meaning"], "rgb": x["rgb"], "pattern": x["pattern"]},
        }
        for x in out["leds"]
    ]
    sheet = session.sheet()
    out.update(
        ply=session.game.ply,
        variant=session.variant,
        profile=session.profile_name,
        menu=None
        if session.menu is None
        else {
            "title": session.menu.title,
            "options": [o.label for o in session.menu.options],
            "selected": session.menu.selected,
        },
        tracker_phase=g.phase,
        mode=g.mode,
        place=[[list(sq), text] for sq, text in g.place],
        choices=[str(m) for m in g.choices],
        selected=str(g.selected) if g.selected else None,
        crown=list(g.crown) if g.crown else None,
        cues=[{"seq": c.seq, "t": c.t, "name": c.name} for c in session.recent_cues],
        messages=[session.message] if session.message else [],
        problems=list(session.problems),
        moves=[str(m) for m in session.game.move_stack],
        sheet={
            "lines": [
                {
                    "n": line.number,
                    "blue": _cell(line.blue),
                    "red": _cell(line.red),
                    "section": line.section,
                }
                for line in sheet_lines(sheet)
            ],
            "totals": {"blue": session.totals()[0], "red": session.totals()[1]},
            "result": result_lines(sheet)[0] if session.outcome else None,
            "ending": result_lines(sheet)[1:],
        },
        ending=session.outcome.text if session.outcome else None,
        preview=[[list(sq), text] for sq, text in inp.preview],
        info=dict(inp.info),
        play=session.play.json(),
        timed=inp.timed,
    )
    return out


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
