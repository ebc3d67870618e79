"""The coach's review on the board's small display (pure): pages the Next button turns.

After a practice game the tally page says that Next shows the review; each page then has a
head line (``Review 2/5``) and at most three lines of 21 ASCII characters: one page for each of
the three biggest mistakes (the move, the better move and its arithmetic, the points it gives),
then one per side with its accuracy per operation. A mistake is measured as a child can check
it: how many points more the better move gives over the next moves (takings, exact; the
engine's own estimate is the teacher's, on the page and the sheet: docs/engine.md)."""

from __future__ import annotations

from typing import Any

from controller.i18n import _, side_word
from controller.scoresheet.review_html import OPERATORS, loss_text
from controller.session import coach_texts as say

from .display_text import display_text, wrap


def move_text(path: list[list[int]], takes: bool) -> str:
    """``4,3x2,5`` for a taking, ``1,2-0,3`` for a plain move (the display's notation)."""
    return ("x" if takes else "-").join(f"{x},{y}" for x, y in path)


def percent_text(entry: dict[str, Any] | None) -> str:
    if not entry or not entry.get("takings") or entry.get("percent") is None:
        return "--"
    return f"{round(entry['percent'])}%"


def mistake_values(review: dict[str, Any], index: int) -> dict[str, Any]:
    """The values of one mistake's sentence (display and page alike)."""
    move = review["moves"][index]
    arithmetic = "; ".join(move["best_takings"])
    return {
        "side": side_word(move["side"]).upper(),
        "number": move["number"],
        "move": move_text(move["move"], bool(move["takings"])),
        "loss": loss_text(move["loss"]),
        "best": move_text(move["best"], bool(move["best_takings"])),
        "arithmetic": f" = {arithmetic}" if arithmetic else "",
        "gain": move["exchange"]["better_by"]["text"],
    }


def mistake_text(review: dict[str, Any], index: int, cols: int = 21, lines: int = 3) -> str:
    """One mistake's page: the better move's arithmetic when the page has room for it."""
    values = mistake_values(review, index)
    better = review["moves"][index]["exchange"]["better_by"]["sign"] > 0
    template = _(say.REVIEW_MISTAKE if better else say.REVIEW_MISTAKE_FURTHER)
    text = template.format(**values)
    if values["arithmetic"] and len(wrap(display_text(text), cols)) > lines:
        text = template.format(**{**values, "arithmetic": ""})
    return text


def accuracy_values(side: dict[str, Any]) -> dict[str, Any]:
    acc = side["accuracy"]
    add, sub, mul, div = (percent_text(acc.get(op)) for op in OPERATORS)
    return {
        "side": side_word(side["side"]).upper(),
        "best": side["best_moves"],
        "choices": side["choices"],
        "loss": loss_text(side["points_lost"]),
        "add": add,
        "sub": sub,
        "mul": mul,
        "div": div,
    }


def review_texts(review: dict[str, Any], cols: int = 21, lines: int = 3) -> list[str]:
    """Every page's text, before wrapping (in the language in force)."""
    mistakes = review["mistakes"]
    out = [mistake_text(review, i, cols, lines) for i in mistakes] or [_(say.REVIEW_NONE)]
    out += [_(say.REVIEW_ACCURACY).format(**accuracy_values(s)) for s in review["sides"]]
    return out


def review_pages(review: dict[str, Any], cols: int = 21, lines: int = 3) -> list[list[str]]:
    """Each page as at most ``lines`` display lines; a page too long ends in ``~``."""
    pages = []
    for text in review_texts(review, cols, lines):
        wrapped = wrap(display_text(text), cols)
        if len(wrapped) > lines:
            wrapped = wrapped[:lines]
            wrapped[-1] = wrapped[-1][: cols - 1] + "~"
        pages.append(wrapped)
    return pages


def review_page(review: dict[str, Any], index: int, cols: int = 21, rows: int = 4) -> list[str]:
    """Page ``index`` (from 1; it wraps round) under its head line."""
    pages = review_pages(review, cols, rows - 1)
    k = (index - 1) % len(pages)
    head = _(say.REVIEW_HEAD).format(n=k + 1, count=len(pages))
    return [display_text(head)[:cols], *pages[k]]
