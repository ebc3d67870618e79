"""The audit of a handwritten scoresheet typed in as CSV (docs/scoring.md, "The audit format").

``add_arguments(parser)`` and ``run(args) -> int`` mount it on the main command line;
``audit_text(text, variant, profile)`` is the same check as a function.
"""

from .check import HEADER, FileError, Finding, Report, audit_text
from .cli import add_arguments, format_report, main, run

__all__ = [
    "HEADER",
    "FileError",
    "Finding",
    "Report",
    "add_arguments",
    "audit_text",
    "format_report",
    "main",
    "run",
]
