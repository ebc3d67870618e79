"""What the simulator's page shows of a Mathematical Chess game: every point with the piece the
sensors see and what its LED means, the names on offer, the removals read so far, what may still
be removed and the scoresheet, as JSON-ready data (a pure function of the session)."""

from __future__ import annotations

from typing import Any

from controller.games.mathchess.session import MathChessSession
from controller.games.mathchess.sheet import sheet_json
from controller.rules.mathchess import SIDES, Phase, Remove, point_text

from . import words


def page_state(session: MathChessSession) -> dict[str, Any]:
    """The game as the page draws it: every point with its piece and what its LED means, the
    names on offer, the removals read so far and what may still be removed, the sheet."""
    position = session.position
    tracker = session.tracker
    reading = tracker.reading
    sensors = session.sensors or frozenset()
    lit = tracker.still_removable()
    refused = {r.point: r for r in reading.refused}
    accepted = reading.accepted
    after = tracker.after_move() if position.phase is Phase.PLAY else None
    points = []
    for y in range(position.board.size):
        for x in range(position.board.size):
            at = (x, y)
            piece = position.board.at(at)
            shown = piece if at in sensors else None
            state = ""
            if reading.move is not None and at == reading.move.end:
                shown = position.board.at(reading.move.start)
                state = "moved"
            elif at == reading.naming:
                state = "naming"
            elif at in refused:
                state, shown = "refused", piece
            elif at in accepted:
                state, shown = "removed", piece
            elif at in reading.strays:
                state = "stray"
            elif piece is not None and at not in sensors:
                state, shown = "lifted", piece
            item: dict[str, Any] = {"at": [x, y], "state": state}
            if shown is not None:
                item["piece"] = {
                    "symbol": shown.symbol,
                    "side": SIDES[shown.side],
                    "name": words.piece_name(shown),
                    "digit": shown.is_digit,
                }
            if at in lit:
                item["lit"] = lit[at]
            if at in refused:
                item["rule"] = refused[at].rule
            points.append(item)
    options = []
    if after is not None and not reading.refused:
        for _rule, part in reading.steps:
            after = after.apply(Remove(part))  # what may still be removed now
        options = [
            {
                "rule": m.rule,
                "text": words.match_text(m),
                "removable": [point_text(p) for p in m.removable],
            }
            for m in after.removal_options()
        ]
    ending = position.ending()
    said = session.said
    conditions = position.conditions
    return {
        "game": "mathchess",
        "phase": position.phase.name.lower(),
        "to_move": SIDES[position.to_move],
        "level": conditions.level,
        "conditions": {
            "digits": list(conditions.digits),
            "operators": {op.value: n for op, n in conditions.operators},
            "compare": conditions.compare,
            "zero": conditions.zero,
        },
        "size": position.board.size,
        "points": points,
        "names": tracker.names(),
        "box": {SIDES[s]: dict(position.box(s)) for s in (0, 1)},
        "steps": [
            {"rule": rule, "points": [point_text(p) for p in sorted(part)]}
            for rule, part in reading.steps
        ],
        "options": options,
        "problem": tracker.problem(),
        "said": None if said is None else {"text": said.text, "rule": said.rule},
        "ending": None if ending is None else words.ending_text(ending),
        "sheet": words.sheet_words(sheet_json(session.game), ending),
        "problems": session.problems,
    }
