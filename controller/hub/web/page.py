"""Small HTML builders for the desk and the event wall: every text escaped, one layout."""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

OUTCOME_WORDS = {
    "blue": "Blue wins",
    "red": "Red wins",
    "draw": "Draw",
    "blue-forfeit": "Blue wins by forfeit",
    "red-forfeit": "Red wins by forfeit",
    "double-forfeit": "Both forfeit",
    "bye": "Bye",
}
STATUS_WORDS = {
    "not-sent": "not sent",
    "wrong-game": "not sent: its board plays another game (seat one of this division's game)",
    "sent": "sent, not on the board yet",
    "other-game": "refused: the board plays another game (seat one of this division's game)",
    "received": "on the board, not confirmed",
    "confirmed": "confirmed at the board",
    "started": "started: the clocks run",
    "playing": "playing",
    "to-accept": "finished: accept?",
    "signed": "signed by both players",
    "disputed": "dispute: see the evidence",
    "accepted": "accepted",
    "recorded": "recorded",
    "differs": "differs from the board",
    "bye": "bye",
}


def status_text(row: dict[str, object]) -> str:
    """A table's state in words: a started table whose board keeps no clocks (Dam, Dadama,
    Mathematical Chess, English draughts hold the first move instead) is not said to run them."""
    status = str(row.get("status"))
    if status == "started" and row.get("clocks") is False:
        return "started: the first move may be played"
    return STATUS_WORDS.get(status, status)


class BadRequest(ValueError):
    """A page asked with a parameter it cannot mean (``?round=²``): answered 400, not 500."""


MAX_NUMBER = 999_999
"""The largest number a form or an address may give (a round, a table, a pairing, a rating)."""


def whole(raw: object, upto: int = MAX_NUMBER) -> int | None:
    """A whole number as typed in a form or an address: ASCII digits only (``str.isdigit``
    also takes ``²`` and ``٣``, which ``int`` refuses), at most ``upto``; else None."""
    if not isinstance(raw, str) or not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        return None
    n = int(raw)
    return n if n <= upto else None


def e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def layout(
    title: str,
    body: str,
    *,
    nav: Iterable[tuple[str, str]] = (),
    user: str = "",
    refresh: int | None = None,
    css: str = "desk",
    script: str = "",
    lang: str = "en",
) -> str:
    links = "".join(f'<a href="{e(href)}">{e(text)}</a>' for href, text in nav)
    who = f'<span class="who">{e(user)}</span>' if user else ""
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    js = f'<script src="/static/{e(script)}"></script>' if script else ""
    return (
        f'<!doctype html>\n<html lang="{e(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{meta}<title>{e(title)}</title>"
        f'<link rel="stylesheet" href="/static/{e(css)}.css"></head><body>'
        f'<header class="bar"><h1>{e(title)}</h1><nav>{links}</nav>{who}</header>'
        f"<main>{body}</main>{js}</body></html>"
    )


def table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """Cells are HTML already (escape them with ``e``). Each cell carries its column's name
    (``data-label``): on a phone the rows are shown as cards, each value named."""
    names = list(head)
    labels = [e(re.sub(r"<[^>]*>", "", h)) for h in names]
    th = "".join(f"<th>{h}</th>" for h in names)
    trs = "".join(
        "<tr>"
        + "".join(
            f'<td data-label="{labels[i]}">{c}</td>'
            if i < len(labels) and labels[i]
            else f"<td>{c}</td>"
            for i, c in enumerate(r)
        )
        + "</tr>"
        for r in rows
    )
    return f'<table class="{e(cls)}"><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>'


def form(action: str, csrf: str, inner: str, button: str, cls: str = "") -> str:
    return (
        f'<form method="post" action="{e(action)}" class="{e(cls)}">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}">{inner}'
        f'<button type="submit">{e(button)}</button></form>'
    )


def hidden(name: str, value: object) -> str:
    return f'<input type="hidden" name="{e(name)}" value="{e(value)}">'


def select(name: str, options: Iterable[tuple[str, str]], chosen: str = "", label: str = "") -> str:
    opts = "".join(
        f'<option value="{e(v)}"{" selected" if v == chosen else ""}>{e(t)}</option>'
        for v, t in options
    )
    aria = f' aria-label="{e(label)}"' if label else ""
    return f'<select name="{e(name)}"{aria}>{opts}</select>'


def labelled(label: str, control: str) -> str:
    """A control (``select``) with its visible label."""
    return f"<label>{e(label)} {control}</label>"


def field(name: str, label: str, value: str = "", size: int = 10, required: bool = False) -> str:
    req = " required" if required else ""
    return (
        f'<label>{e(label)} <input name="{e(name)}" value="{e(value)}" size="{size}"{req}></label>'
    )
