"""The scoresheet display's pages (pure): live during the game, the tally at the end.

A 128x64 OLED holds 4 lines of 21 characters, so the live page is: both totals and whose turn,
both clocks (or the message of the moment), then the last entries of the sheet with their
takings. The serial stream gets the same lines with more rows. The end page shows totals, RC,
grand totals and the result; a menu replaces everything while it is open.
"""

from __future__ import annotations

from controller.rules.move import BLUE
from controller.rules.scoring import score_move
from controller.session.clocks import clock_text

TAGS = ("B", "R")


def _fit(text: str, cols: int) -> str:
    return text if len(text) <= cols else text[: cols - 1] + "~"


def entry_line(row, cols: int) -> str:
    """One written entry: ``B -9 (0, 3)`` or ``R 10 + -9 = 1``."""
    text = f"{TAGS[row.player]} {row.entry}"
    if row.kind == "take":
        text += f" = {row.score}"
    return _fit(text, cols)


def _window(lines: list[str], selected: int, rows: int) -> list[str]:
    """The title and as many options as fit, the selected one always on the page."""
    body = lines[1:]
    keep = max(1, rows - 1)
    first = max(0, min(selected - keep + 1, len(body) - keep))
    return [lines[0], *body[first : first + keep]]


def parting_square(move, choices) -> tuple[int, int]:
    """Where ``move`` first lands on a square the other choices don't land on at that step:
    what tells a player which way is meant (for a ring taken either way round, the first
    landing)."""
    others = [c.path for c in choices if c.path != move.path]
    for k in range(1, len(move.path)):
        if all(k >= len(p) or p[k] != move.path[k] for p in others):
            return move.path[k]
    return move.end


def choice_page(inp, cols: int = 21, rows: int = 4) -> list[str]:
    """The board asks which path was played: each choice by where it parts from the others
    and what it scores; ``>`` marks the one Confirm would take."""
    g = inp.guidance
    lines = [_fit("Which way? Next/OK", cols)]
    for move in g.choices:
        x, y = parting_square(move, g.choices)
        mark = "> " if g.selected is not None and move.path == g.selected.path else "  "
        score = score_move(move, inp.variant).text if move.takings else ""
        lines.append(_fit(f"{mark}via {x},{y} = {score}", cols))
    chosen = next((i for i, line in enumerate(lines[1:]) if line.startswith(">")), 0)
    return _window(lines, chosen, rows)


def live_page(inp, cols: int = 21, rows: int = 4) -> list[str]:
    if inp.menu is None and getattr(inp.guidance, "phase", None) == "ambiguity":
        return choice_page(inp, cols, rows)
    if inp.menu is not None:
        menu = inp.menu
        lines = [_fit(menu.title, cols)]
        for i, option in enumerate(menu.options):
            lines.append(_fit(("> " if i == menu.selected else "  ") + option.label, cols))
        return _window(lines, menu.selected, rows)
    turn = "B" if inp.side_to_move == BLUE else "R"
    head = _fit(f"B {inp.totals[0]} R {inp.totals[1]} >{turn}", cols)
    if inp.message:
        status = inp.message
    elif inp.phase == "setup":
        status = f"{inp.variant} {inp.rules}: set up"
    else:
        who = "BLUE" if inp.side_to_move == BLUE else "RED"
        status = f"{who} {clock_text(inp.clock.game_left)} {clock_text(inp.clock.move_left)}"
    lines = [head, _fit(status, cols)]
    moves = [r for r in inp.rows if r.kind in ("move", "take")]
    room = max(0, rows - 2)
    lines.extend(entry_line(r, cols) for r in moves[len(moves) - room :] if room)
    return lines


def end_page(inp, cols: int = 21, rows: int = 4) -> list[str]:
    outcome = inp.outcome
    sides = outcome.sheet.game.sides
    lines = [
        _fit(f"{outcome.result_text}: {outcome.text}", cols),
        _fit(f"T  B {sides[0].total_text} R {sides[1].total_text}", cols),
        _fit(f"RC B {sides[0].remaining.text} R {sides[1].remaining.text}", cols),
        _fit(f"GT B {sides[0].grand_text} R {sides[1].grand_text}", cols),
    ]
    if rows > 4:
        lines.append(_fit(f"{inp.variant} {inp.rules}, {inp.ply} moves", cols))
    return lines[:rows]


def page(inp, cols: int = 21, rows: int = 4) -> list[str]:
    if inp.phase == "over" and inp.outcome is not None and inp.menu is None:
        return end_page(inp, cols, rows)
    return live_page(inp, cols, rows)
