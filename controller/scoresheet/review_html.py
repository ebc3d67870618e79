"""The coach's review as a section of the printable sheet, after the game (a practice game the
board reviewed): every move's loss against the engine's best, the three biggest mistakes with
the better move and its arithmetic, each side's accuracy per operation.

Plain HTML in the sheet's own style (no scripts), from the review's JSON
(``engine.review_format.review_json``), the same data the simulator's page shows."""

from __future__ import annotations

from html import escape
from typing import Any

from controller.i18n import _, side_word

from . import texts as say

CSS = """
.review { margin-top: 1.2em; }
@media print { .review { break-before: page; } }
.review h2 { font-size: 11pt; margin: 0 0 .3em; }
.review table { width: auto; margin: .3em 0 .6em; }
.review td.lost, .review th.lost { text-align: right; }
.review tr.mistake td { font-weight: bold; }
.review ol { margin: .2em 0 .6em; padding-left: 1.6em; }
.review ol p { margin: .1em 0; }
"""


OPERATORS = ("+", "−", "×", "÷")


def loss_text(loss: float) -> str:
    """``12``, ``1.5``, ``192.45``: the points lost, two decimals at most (the review's own
    rounding of an exact loss, for reading only: docs/engine.md)."""
    return f"{loss:.2f}".rstrip("0").rstrip(".")


def _move(path: list[list[int]]) -> str:
    return " → ".join(f"({x}, {y})" for x, y in path)


def _moves_table(review: dict[str, Any]) -> str:
    mistakes = set(review["mistakes"])
    head = "".join(
        f"<th{cls}>{escape(_(label))}</th>"
        for label, cls in (
            (say.REVIEW_MOVE, ' class="no"'),
            (say.REVIEW_SIDE, ""),
            (say.REVIEW_PLAYED, ""),
            (say.REVIEW_BEST, ""),
            (say.REVIEW_LOST, ' class="lost"'),
        )
    )
    rows = []
    for m in review["moves"]:
        best = _(say.REVIEW_SAME) if m["accurate"] else _move(m["best"])
        lost = "" if m["accurate"] else loss_text(m["loss"])
        cls = ' class="mistake"' if m["index"] in mistakes else ""
        rows.append(
            f'<tr{cls}><td class="no">{m["number"]}</td><td>{escape(side_word(m["side"]))}</td>'
            f"<td>{escape(_move(m['move']))}</td><td>{escape(best)}</td>"
            f'<td class="lost">{lost}</td></tr>'
        )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _mistakes(review: dict[str, Any]) -> str:
    if not review["mistakes"]:
        return f"<p>{escape(_(say.REVIEW_NO_MISTAKE))}</p>"
    items = []
    for index in review["mistakes"]:
        m = review["moves"][index]
        lines = [
            _(say.REVIEW_MISTAKE).format(
                number=m["number"],
                side=side_word(m["side"]),
                move=_move(m["move"]),
                loss=loss_text(m["loss"]),
                best=_move(m["best"]),
            )
        ]
        if m["takings"]:
            lines.append(_(say.REVIEW_PLAYED_ARITHMETIC).format(arithmetic="; ".join(m["takings"])))
        if m["best_takings"]:
            lines.append(
                _(say.REVIEW_BETTER_ARITHMETIC).format(arithmetic="; ".join(m["best_takings"]))
            )
        items.append("<li>" + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</li>")
    return f"<ol>{''.join(items)}</ol>"


def _accuracy(review: dict[str, Any]) -> str:
    sides = review["sides"]
    head = f"<th>{escape(_(say.REVIEW_ACCURACY))}</th>" + "".join(
        f"<th>{escape(side_word(s['side']))}</th>" for s in sides
    )

    def cell(ok: int, n: int) -> str:
        return "—" if not n else f"{ok}/{n} ({round(100 * ok / n)} %)"

    rows = [
        (_(say.REVIEW_BEST_MOVES), [cell(s["best_moves"], s["choices"]) for s in sides]),
        (_(say.REVIEW_POINTS_LOST), [loss_text(s["points_lost"]) for s in sides]),
    ]
    for op in OPERATORS:
        cells = []
        for s in sides:
            entry = s["accuracy"].get(op) or {"takings": 0, "accurate": 0}
            cells.append(cell(entry["accurate"], entry["takings"]))
        rows.append((_(say.REVIEW_TAKINGS_ON).format(operator=op), cells))
    body = "".join(
        f"<tr><td>{escape(label)}</td>{''.join(f'<td>{escape(c)}</td>' for c in cells)}</tr>"
        for label, cells in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def review_section(review: dict[str, Any]) -> str:
    """The section, after the game's signatures."""
    return (
        f'<section class="review"><h2>{escape(_(say.REVIEW))}</h2>'
        f"<p>{escape(_(say.REVIEW_INTRO).format(depth=review['depth']))}</p>"
        f"{_moves_table(review)}"
        f"<h2>{escape(_(say.REVIEW_MISTAKES))}</h2>{_mistakes(review)}"
        f"{_accuracy(review)}</section>"
    )
