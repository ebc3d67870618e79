"""A Damath position drawn as an SVG picture, for the guides and the rules document.

Pure: chips, the operator of every dark square, coordinates, and optionally the path of a move
(arrows from square to square), squares to mark and a caption. Blue sits at the bottom, as in
the simulator. The SVG is plain text with no fonts or images from outside, so the pictures in
``docs/`` are regenerated from data (``scripts/make_diagrams.py``) and checked by a test.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from controller.rules.damath_data import OPERATORS
from controller.rules.move import Square

CELL = 56
MARGIN = 22
WOOD_DARK = "#5b3a1e"
WOOD_LIGHT = "#e8d3a9"
BLUE = "#0b57a4"
RED = "#b3261e"
MARK = "#f0e442"
PATH = "#e69f00"
FONT = "DejaVu Sans, Arial, sans-serif"


@dataclass(frozen=True)
class Piece:
    side: str
    """``blue`` or ``red``."""
    label: str
    dama: bool = False


@dataclass(frozen=True)
class Diagram:
    pieces: Mapping[Square, Piece] = field(default_factory=dict)
    path: Sequence[Square] = ()
    """A move: its start, every landing, its end (drawn as arrows)."""
    taken: Iterable[Square] = ()
    """Chips jumped by the move (crossed out)."""
    marks: Iterable[Square] = ()
    """Squares to point at (a yellow ring)."""
    caption: str = ""
    """One or two lines (a newline between them)."""


def _centre(square: Square) -> tuple[float, float]:
    x, y = square
    return MARGIN + x * CELL + CELL / 2, MARGIN + (7 - y) * CELL + CELL / 2


def _label(text: str) -> str:
    return text.replace("-", "−")


def _chip(square: Square, piece: Piece) -> list[str]:
    cx, cy = _centre(square)
    colour = BLUE if piece.side == "blue" else RED
    dash = ' stroke-dasharray="4 2"' if piece.side == "red" else ""
    ring = "#ffd54a" if piece.dama else "#ffffff"
    width = 4 if piece.dama else 2
    label = _label(piece.label)
    size = 17 if len(label) <= 3 else 13 if len(label) <= 5 else 10
    out = [
        f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{CELL * 0.4:.0f}" fill="{colour}" '
        f'stroke="{ring}" stroke-width="{width}"{dash}/>',
        f'<text x="{cx:.0f}" y="{cy + size * 0.36:.1f}" font-size="{size}" font-weight="bold" '
        f'text-anchor="middle" fill="#fff">{escape(label)}</text>',
    ]
    if piece.dama:
        out.append(
            f'<text x="{cx:.0f}" y="{cy - CELL * 0.24:.1f}" font-size="11" text-anchor="middle" '
            f'fill="#ffd54a">♛</text>'
        )
    return out


def svg(diagram: Diagram) -> str:
    """The whole picture as SVG text."""
    size = 8 * CELL + 2 * MARGIN
    lines = diagram.caption.split("\n") if diagram.caption else []
    height = size + 20 * len(lines) + (6 if lines else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {height}" '
        f'width="{size}" height="{height}" font-family="{FONT}">',
        f'<rect width="{size}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{MARGIN - 4}" y="{MARGIN - 4}" width="{8 * CELL + 8}" height="{8 * CELL + 8}" '
        'fill="#3a220f"/>',
        '<defs><marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{PATH}"/></marker>'
        "</defs>",
    ]
    for y in range(8):
        for x in range(8):
            left, top = MARGIN + x * CELL, MARGIN + (7 - y) * CELL
            dark = (x + y) % 2 == 1
            fill = WOOD_DARK if dark else WOOD_LIGHT
            parts.append(
                f'<rect x="{left}" y="{top}" width="{CELL}" height="{CELL}" fill="{fill}"/>'
            )
            if dark:
                parts.append(
                    f'<text x="{left + 4}" y="{top + 14}" font-size="13" font-weight="bold" '
                    f'fill="#ffffff" opacity="0.85">{OPERATORS[(x, y)]}</text>'
                )
    for i in range(8):  # coordinates: x along the bottom, y up the left side
        cx = MARGIN + i * CELL + CELL / 2
        parts.append(
            f'<text x="{cx:.0f}" y="{MARGIN + 8 * CELL + 16}" font-size="12" '
            f'text-anchor="middle" fill="#333">{i}</text>'
        )
        cy = MARGIN + (7 - i) * CELL + CELL / 2 + 4
        parts.append(
            f'<text x="{MARGIN - 12}" y="{cy:.0f}" font-size="12" text-anchor="middle" '
            f'fill="#333">{i}</text>'
        )
    for square in diagram.marks:
        cx, cy = _centre(square)
        parts.append(
            f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{CELL * 0.46:.0f}" fill="none" '
            f'stroke="{MARK}" stroke-width="4"/>'
        )
    for a, b in zip(diagram.path, diagram.path[1:], strict=False):  # under the chips
        (x1, y1), (x2, y2) = _centre(a), _centre(b)
        parts.append(
            f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="{PATH}" '
            'stroke-width="5" marker-end="url(#head)"/>'
        )
    for square, piece in sorted(diagram.pieces.items()):
        parts.extend(_chip(square, piece))
    for square in diagram.taken:  # a taken chip: a cross on its corner, the value readable
        cx, cy = _centre(square)
        bx, by = cx + CELL * 0.3, cy - CELL * 0.3
        parts.append(
            f'<circle cx="{bx:.0f}" cy="{by:.0f}" r="9" fill="#ffffff" stroke="#000" '
            'stroke-width="1"/>'
        )
        parts.append(
            f'<path d="M{bx - 4:.0f},{by - 4:.0f} L{bx + 4:.0f},{by + 4:.0f} '
            f'M{bx + 4:.0f},{by - 4:.0f} L{bx - 4:.0f},{by + 4:.0f}" stroke="#b3261e" '
            'stroke-width="2.5" stroke-linecap="round"/>'
        )
    for i, line in enumerate(lines):
        parts.append(
            f'<text x="{size / 2:.0f}" y="{size + 14 + 20 * i}" font-size="15" '
            f'text-anchor="middle" fill="#111">{escape(line)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
