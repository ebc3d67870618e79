"""The scoresheet: a model built from the moves of a game, and its renderings (terminal, JSON,
CSV in the audit format, printable HTML)."""

from .html import render_html
from .model import ROW_KINDS, Player, Row, Scoresheet, build_scoresheet, format_square
from .render import CSV_HEADER, render_csv, render_json, render_text, sheet_json

__all__ = [
    "CSV_HEADER",
    "ROW_KINDS",
    "Player",
    "Row",
    "Scoresheet",
    "build_scoresheet",
    "format_square",
    "render_csv",
    "render_html",
    "render_json",
    "render_text",
    "sheet_json",
]
