"""The words of the simulator's HTML pages, as the page translates them (``i18n.js``).

A page's visible text nodes and its ``title``, ``aria-label``, ``placeholder`` and ``alt``
attributes are its words: each, with its white space collapsed, is a message of the catalogue.
No marking is needed, so no word of a page can be forgotten; text without a letter (``--:--``)
is not a word. ``extract_html`` is a Babel extraction method (babel.cfg); ``page_words`` is what
it and the tests share.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO, Any

ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
SKIP = {"script", "style"}
_SPACE = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")


def words(text: str) -> str:
    """The message a text node or attribute stands for (white space collapsed), or ''."""
    collapsed = _SPACE.sub(" ", text).strip()
    return collapsed if _LETTER.search(collapsed) else ""


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP:
            self._skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value and (message := words(value)):
                self.found.append((self.getpos()[0], message))

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and (message := words(data)):
            self.found.append((self.getpos()[0], message))


def page_words(source: str) -> list[tuple[int, str]]:
    """Each word of an HTML page with the line it starts on."""
    parser = _Words()
    parser.feed(source)
    parser.close()
    return parser.found


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction interface: (line, function, message, comments) per word."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, message in page_words(source):
        yield line, "", message, []
