"""The text of a PDN file, one grammar for every game's reader and writer: the header's tags
(``[Name "value"]``, a quote and a backslash escaped with a backslash), the movetext after
them (its comments in braces set aside for the words), its lines wrapped at 79 characters.

Each game reads its moves from ``PdnText.words`` (Damath's squares, the draughts numbers,
Dadama's throws) and writes its header and movetext through ``write``; the hub sets an
event's tags on a board's PDN with ``retag`` (a tag the board wrote replaced in place, never
twice). Every reader sees the same tags the same way, unescaped; every writer escapes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .notation import NotationError

TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
COMMENT = re.compile(r"\{[^}]*\}")
_ESCAPED = re.compile(r"\\(.)")
_WORD = re.compile(r"\S*\[%[^\]]*\]\S*|\S+")
WIDTH = 79


def quote(value: str) -> str:
    """A tag's value as written between its quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unquote(written: str) -> str:
    """A tag's value as written, read back."""
    return _ESCAPED.sub(r"\1", written)


def tag_line(name: str, value: str) -> str:
    return f'[{name} "{quote(value)}"]'


def tag_lines(tags: Mapping[str, str] | Iterable[tuple[str, str]]) -> list[str]:
    pairs = tags.items() if isinstance(tags, Mapping) else tags
    return [tag_line(k, v) for k, v in pairs]


@dataclass(frozen=True)
class PdnText:
    """One game's PDN: its tags in the order written (values unescaped), and the lines after
    the last of them as they stand (the blank line that ends the header included)."""

    tags: dict[str, str]
    body: list[str]

    @property
    def movetext(self) -> str:
        return " ".join(line.strip() for line in self.body if line.strip())

    def words(self) -> list[str]:
        """The movetext's words, its comments left out: move numbers, moves, a throw's dice,
        the result."""
        return COMMENT.sub(" ", self.movetext).split()


def read(text: str, strict: bool = False) -> PdnText:
    """The header (every tag up to the first line that is not one; blank lines among them
    skipped) and the lines after its last tag. ``strict``: a line that starts with ``[``
    before the movetext must be a tag, else ``NotationError`` names its line (a reader of files
    a person wrote); otherwise such a line begins the movetext."""
    tags: dict[str, str] = {}
    lines = text.split("\n")  # a last newline kept: retag gives the text back whole
    end = 0
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        found = TAG.match(stripped)
        if found is None:
            if strict and stripped.startswith("["):
                raise NotationError(f'line {number}: a tag is written [Name "value"]')
            break
        tags[found.group(1)] = unquote(found.group(2))
        end = number
    return PdnText(tags, lines[end:])


def wrap(words: Iterable[str] | str, width: int = WIDTH) -> str:
    """Lines of at most ``width`` where possible; a ``[%…]`` command in a comment is never
    split."""
    text = words if isinstance(words, str) else " ".join(words)
    lines, line = [], ""
    for word in _WORD.findall(text):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def write(tags: Mapping[str, str] | Iterable[tuple[str, str]], words: Iterable[str] | str) -> str:
    """A whole game: its header, a blank line, its movetext wrapped."""
    return "\n".join(tag_lines(tags)) + "\n\n" + wrap(words) + "\n"


def retag(text: str, tags: Mapping[str, str], first: Iterable[str] = ()) -> str:
    """A PDN with ``tags`` set: each replaces the tag of its name where the text has one, the
    others are added; ``first`` names the tags written first, in that order (then the text's
    own, then the new). An empty value leaves the tag as it was. The movetext is untouched."""
    pdn = read(text)
    merged = dict(pdn.tags)
    merged.update({k: v for k, v in tags.items() if v})
    leading = [k for k in first if k in merged]
    order = leading + [k for k in merged if k not in leading]
    return "\n".join([*(tag_line(k, merged[k]) for k in order), *pdn.body])
