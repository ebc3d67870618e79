"""The scoresheet display's pages (pure): setup, live during the game, the tally at the end.

A 128x64 OLED holds 4 lines of 21 characters, and its font has ASCII only, so every line is
transliterated (``display_text``: − → -, × → x, √ → sqrt, ² → ^2, accents dropped) and messages
are wrapped, never cut off. Pages:

- setup: which chip to put on which square next, in the order of the placement table, and
  how many stand already (guided setup; the LED of that square is lit);
- live: both totals and whose turn, both clocks (the player's name when known), the last
  entries of the sheet; a message of the moment (a wrong move explained, a time warning)
  takes the lines below the totals; while a chip is lifted in practice with the capture
  preview on, what each taking would score;
- the choices of an ambiguous path, the arbiter's menus;
- the end: result and reason, totals, RC, grand totals.
The serial stream gets the same lines with more rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from controller.rules.move import Move
    from controller.scoresheet.model import Row
    from controller.session import ViewInput
    from controller.session.menu import Menu

from controller.i18n import _, rules_word, side_word
from controller.rules.move import Square, side_name
from controller.rules.scoring import score_move
from controller.session.clocks import clock_text

from . import texts
from .display_text import display_text, fit, wrap
from .review_pages import review_page, review_pages


def _tag(side: int) -> str:
    """A side in one letter, as the display's rows and head write it (B/R, A/P in Filipino)."""
    return side_word(side)[0].upper()


def _name(inp: ViewInput, side: int, cols: int = 8) -> str:
    """The player's first name as the display has room for, else the side's name."""
    info = getattr(inp, "info", {}) or {}
    name = info.get(side_name(side), "")
    if not name:
        return side_word(side).upper()
    return display_text(name.split()[0])[:cols]


def entry_line(row: Row, cols: int) -> str:
    """One written entry: ``B -9 (0, 3)`` or ``R 10 + -9 = 1``."""
    text = f"{_tag(row.player)} {row.entry}"
    if row.kind == "take":
        text += f" = {row.score}"
    return fit(text, cols)


def _window(lines: list[str], selected: int, rows: int) -> list[str]:
    """The title and as many options as fit, the selected one always on the page."""
    body = lines[1:]
    keep = max(1, rows - 1)
    first = max(0, min(selected - keep + 1, len(body) - keep))
    return [lines[0], *body[first : first + keep]]


def menu_page(menu: Menu, cols: int, rows: int) -> list[str]:
    """An arbiter's menu on the display: its title, and the options around the selected one
    (``>``), whatever the game (Damath's session, every other game's table)."""
    lines = [fit(menu.title, cols)]
    for i, option in enumerate(menu.options):
        lines.append(fit(("> " if i == menu.selected else "  ") + option.label, cols))
    return _window(lines, menu.selected, rows)


def parting_square(move: Move, choices: Sequence[Move]) -> Square:
    """Where ``move`` first lands on a square the other choices don't land on at that step:
    what tells a player which way is meant (for a ring taken either way round, the first
    landing)."""
    others = [c.path for c in choices if c.path != move.path]
    for k in range(1, len(move.path)):
        if all(k >= len(p) or p[k] != move.path[k] for p in others):
            return move.path[k]
    return move.end


def choice_page(inp: ViewInput, cols: int = 21, rows: int = 4) -> list[str]:
    """The board asks which path was played: each choice by where it parts from the others
    and what it scores; ``>`` marks the one Confirm would take."""
    g = inp.guidance
    lines = [fit(_(texts.WHICH_WAY), cols)]
    for move in g.choices:
        x, y = parting_square(move, g.choices)
        mark = "> " if g.selected is not None and move.path == g.selected.path else "  "
        score = score_move(move, inp.variant).text if move.takings else ""
        lines.append(fit(_(texts.CHOICE).format(mark=mark, xy=f"{x},{y}", score=score), cols))
    chosen = next((i for i, line in enumerate(lines[1:]) if line.startswith(">")), 0)
    return _window(lines, chosen, rows)


def setup_step(inp: ViewInput) -> tuple[int, int, tuple[int, int] | None, str, bool]:
    """Guided setup: (chips in place, chips in all, the next square or None, the side and
    value of its chip as the tracker names it, whether it is a dama)."""
    g = inp.guidance
    order = tuple(getattr(inp, "start_order", ()) or ())
    missing = set(g.missing)
    done = len(order) - len(missing & set(order))
    place = dict(g.place)
    nxt = next((sq for sq in order if sq in missing and sq in place), None)
    if nxt is None:
        return done, len(order), None, "", False
    text = place[nxt]
    return done, len(order), nxt, text.removesuffix(" dama"), text.endswith(" dama")


def setup_sentence(inp: ViewInput) -> str:
    """The guided setup's sentence for the page (the display has its own lines)."""
    g = inp.guidance
    if g.extra:
        x, y = g.extra[0]
        return _(texts.SETUP_TAKE_OFF_PAGE).format(square=f"({x}, {y})")
    done, total, nxt, chip, dama = setup_step(inp)
    if nxt is None:
        return _(texts.SETUP_DONE_PAGE) if total else ""
    side, _sep, value = chip.partition(" ")
    return _(texts.SETUP_NEXT_PAGE).format(
        side=side_word(side).lower(),
        value=value,
        dama=_(texts.DAMA) if dama else "",
        square=f"({nxt[0]}, {nxt[1]})",
        done=done,
        total=total,
    )


def setup_page(inp: ViewInput, cols: int = 21, rows: int = 4) -> list[str]:
    """Guided setup: the next chip to place, side and value, and on which square; the count
    of chips in place. A chip where none belongs is named first (take it off)."""
    g = inp.guidance
    done, total, nxt, chip, dama = setup_step(inp)
    head = fit(_(texts.SETUP_TITLE).format(done=done, total=total), cols)
    if g.extra:
        x, y = g.extra[0]
        lines = [head, fit(_(texts.SETUP_TAKE_OFF).format(xy=f"{x},{y}"), cols)]
    elif nxt is None:
        lines = [head, fit(_(texts.SETUP_DONE), cols)]
    else:
        side, _sep, value = chip.partition(" ")
        put = _(texts.SETUP_PUT).format(
            SIDE=side_word(side).upper(), value=value, dama=_(texts.DAMA) if dama else ""
        )
        lines = [
            head,
            fit(put, cols),
            fit(_(texts.SETUP_ON).format(xy=f"{nxt[0]},{nxt[1]}"), cols),
        ]
    info = getattr(inp, "info", {}) or {}
    if info.get("blue") or info.get("red"):
        lines.append(fit(_(texts.PLAYERS).format(blue=_name(inp, 0), red=_name(inp, 1)), cols))
    else:
        game = _(texts.SETUP_GAME).format(variant=inp.variant, rules=rules_word(inp.rules))
        lines.append(fit(game, cols))
    return lines[:rows]


def preview_page(inp: ViewInput, head: str, cols: int = 21, rows: int = 4) -> list[str]:
    """Practice: what each taking of the lifted chip would score, by its landing square."""
    lines = [head, fit(_(texts.PREVIEW_TITLE), cols)]
    for (x, y), score in inp.preview:
        lines.append(fit(_(texts.PREVIEW_LINE).format(xy=f"{x},{y}", score=score), cols))
    return lines[:rows]


def live_page(inp: ViewInput, cols: int = 21, rows: int = 4) -> list[str]:
    if inp.menu is None and getattr(inp.guidance, "phase", None) == "ambiguity":
        return choice_page(inp, cols, rows)
    if inp.menu is not None:
        return menu_page(inp.menu, cols, rows)
    reason = getattr(inp.guidance, "reason", None)
    if inp.phase == "setup" and reason is None and not inp.display_message:
        return setup_page(inp, cols, rows)
    turn = _tag(inp.side_to_move)
    head = fit(f"{_tag(0)} {inp.totals[0]} {_tag(1)} {inp.totals[1]} >{turn}", cols)
    message = reason.display if reason is not None else inp.display_message
    if message:
        lines = [head, *wrap(message, cols)[: max(0, rows - 1)]]
    elif getattr(inp, "preview", ()):
        return preview_page(inp, head, cols, rows)
    else:
        who = _name(inp, inp.side_to_move)
        if getattr(inp, "timed", True):
            game, move = clock_text(inp.clock.game_left), clock_text(inp.clock.move_left)
            status = _(texts.TURN_LINE).format(who=who, game=game, move=move)
        else:
            status = _(texts.TURN_LINE_UNTIMED).format(who=who)
        lines = [head, fit(status, cols)]
    moves = [r for r in inp.rows if r.kind in ("move", "take")]
    room = max(0, rows - len(lines))
    lines.extend(entry_line(r, cols) for r in moves[len(moves) - room :] if room)
    return lines


def end_page(inp: ViewInput, cols: int = 21, rows: int = 4) -> list[str]:
    outcome = inp.outcome
    assert outcome is not None  # the end page is drawn once the game is over
    sides = outcome.sheet.game.sides
    lines = [
        fit(_(texts.END_RESULT).format(result=outcome.result_text, ending=outcome.text), cols),
        fit(_(texts.END_TOTALS).format(blue=sides[0].total_text, red=sides[1].total_text), cols),
        fit(
            _(texts.END_RC).format(blue=sides[0].remaining.text, red=sides[1].remaining.text), cols
        ),
        fit(_(texts.END_GRAND).format(blue=sides[0].grand_text, red=sides[1].grand_text), cols),
    ]
    if rows > 4:
        lines.append(
            fit(
                _(texts.END_GAME).format(
                    variant=inp.variant, rules=rules_word(inp.rules), moves=inp.ply
                ),
                cols,
            )
        )
        if getattr(inp, "review", None):
            from controller.session.coach_texts import REVIEW_NEXT

            lines.append(fit(_(REVIEW_NEXT), cols))
    return lines[:rows]


def page(inp: ViewInput, cols: int = 21, rows: int = 4) -> list[str]:
    if inp.phase == "over" and inp.outcome is not None and inp.menu is None:
        review = getattr(inp, "review", None)
        if review:  # a practice game the coach reviewed: Next turns the review's pages
            k = getattr(inp, "review_page", 0) % (len(review_pages(review, cols, rows - 1)) + 1)
            if k:
                return review_page(review, k, cols, rows)
        return end_page(inp, cols, rows)
    return live_page(inp, cols, rows)
