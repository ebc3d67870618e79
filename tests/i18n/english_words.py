"""Which words on a page in Filipino are English: the test's dictionary (docs/translation.md).

An English word that shows on a Filipino page comes from the project itself: a sentence of the
catalogue left untranslated or half translated, a script's word never marked, or a value the
server sends as it is (a side, a rule profile, a game's title). So the dictionary is the
project's own English: every word of the catalogue's English sentences and of the pages'
scripts and HTML. A word on a Filipino page is English when it is in
that dictionary, is not also a Filipino word (``FILIPINO_TOO``: "at" is "and"), and is not one
of the few words classrooms use as they are (``CLASSROOM``, the list docs/translation.md
documents).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from controller.i18n.html import page_words

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "controller/i18n/locale/fil/LC_MESSAGES/damath.po"
STATIC = ROOT / "controller/sim/static"

CLASSROOM = frozenset(
    {
        # the games' names, and the board's things as classrooms say them
        "damath", "dama", "dadama", "dam", "mathematical", "chess", "chip", "board", "score",
        "scoresheet", "grand", "total", "hint", "coach", "computer", "display", "projector",
        "online", "puzzle",
        # the tournament's words, as school tournaments use them
        "arbiter", "round", "touch-move", "mayor",
        # the Damath variants' names (names, as the rules give them)
        "counting", "whole", "integer", "rational", "radical", "polynomial", "fraction",
        # a keyboard's keys, as printed on them; abbreviations and files
        "enter", "space", "delete", "pdn", "csv", "json", "pin", "led", "ok", "rc", "gt", "pc",
    }
)  # fmt: skip
"""English words a Filipino classroom uses as they are (docs/translation.md, "Words kept")."""

FILIPINO_TOO = frozenset(
    {
        "at", "may", "man", "lang", "na", "pa", "ay", "sa", "ng", "ang", "mga", "para", "di",
        "ba", "ka", "kay", "ito", "iyan", "oo", "po", "si", "ni", "nang", "mula", "bawat",
        "tira", "pula", "asul", "laro", "hawak", "puti", "itim", "susunod", "mali", "tama",
        "pato", "dito", "siya", "kahon", "hati", "bago", "kain", "buo", "ikaw", "ako",
        "antas", "wala", "ulit", "dagdag", "bawas", "paano", "ano", "kung", "pag", "e",
    }
)  # fmt: skip
"""Words that are Filipino as well as something in the project's English sources."""

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
_PLACEHOLDER = re.compile(r"\{[^}]*\}")


_PATH = re.compile(r"\S*[/.]\w\S*")


def words_of(text: str) -> list[str]:
    """The words of a text (two letters or more; placeholders, numbers, signs and file names
    such as ``docs/notation.md`` dropped), lower case, a trailing possessive dropped."""
    out = []
    for w in _WORD.findall(_PATH.sub(" ", _PLACEHOLDER.sub(" ", text))):
        w = re.sub(r"['’]s$", "", w).lower().strip("-'’")
        if len(w) >= 2:
            out.append(w)
    return out


_JS_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@cache
def english() -> frozenset[str]:
    """The project's English: the catalogue's English sentences (every word the Python code and
    the pages mark) and the pages' scripts' strings and HTML (what they may show unmarked)."""
    found: set[str] = set()
    with CATALOGUE.open("rb") as f:
        for message in read_po(f):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            for text in ids:
                found.update(words_of(text))
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8") if path.suffix in (".js", ".html") else ""
        if path.suffix == ".html":
            found.update(w for _, message in page_words(text) for w in words_of(message))
        elif path.suffix == ".js":
            for literal in _JS_STRING.findall(text):
                found.update(w for w in words_of(literal) if len(w) >= 3)  # not a symbol (II)
    return frozenset(found - FILIPINO_TOO - CLASSROOM)


def english_words(text: str) -> list[str]:
    """The English words of a text shown on a Filipino page (each once, in order)."""
    vocabulary = english()
    seen: dict[str, None] = {}
    for w in words_of(text):
        if w in vocabulary:
            seen.setdefault(w, None)
    return list(seen)
