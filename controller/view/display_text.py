"""The scoresheet display's text: its font has ASCII only and 21 columns, so every line is
transliterated (− → -, × → x, √ → sqrt, ² → ^2, accents dropped) and messages wrapped. Shared
by the game's pages and the coach's review pages."""

from __future__ import annotations

import unicodedata

_ASCII = {
    "−": "-",
    "–": "-",
    "×": "x",
    "÷": "/",
    "√": "sqrt",
    "²": "^2",
    "³": "^3",
    "≈": "~",
    "½": "1/2",
    "…": "..",
    "→": "->",
    "’": "'",
}


def display_text(text: str) -> str:
    """``text`` in the display font's ASCII: the board's signs spelled, accents dropped."""
    out = []
    for ch in text:
        if ch in _ASCII:
            out.append(_ASCII[ch])
        elif ch.isascii():
            out.append(ch)
        else:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            out.append(plain or "?")
    return "".join(out)


def fit(text: str, cols: int) -> str:
    """One line of the display: ``text`` transliterated, cut with ``~`` past ``cols``."""
    text = display_text(text)
    return text if len(text) <= cols else text[: cols - 1] + "~"


def wrap(text: str, cols: int) -> list[str]:
    """Words on lines of at most ``cols`` characters (a word longer than a line is cut)."""
    lines: list[str] = []
    line = ""
    for word in display_text(text).split():
        if line and len(line) + 1 + len(word) > cols:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [fit(x, cols) for x in lines]
