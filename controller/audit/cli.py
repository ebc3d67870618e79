"""``damath-board audit SHEET.csv --variant V [--rules R] [--json]``: the command line of the
audit. Exit codes: 0 the sheet is right, 1 it has errors, 2 the file cannot be read."""

from __future__ import annotations

import argparse
import json
import sys

from controller.i18n import _

from ..rules.options import add_rules, add_variant
from .check import FileError, Report, audit_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Mount the audit's arguments on a (sub)parser."""
    parser.add_argument("sheet", metavar="SHEET.csv", help=_("the scoresheet typed in as CSV"))
    add_variant(parser, required=True, help=_("the Damath variant"))
    add_rules(parser, help=_("rule profile (default official)"))
    parser.add_argument("--json", action="store_true", help=_("print the report as JSON"))


def format_report(report: Report) -> str:
    """One line per wrong entry, then a summary."""
    out = []
    for f in report.findings:
        if f.ok:
            continue
        if f.written:
            written = _("wrote {written!r}").format(written=f.written)
        else:
            written = _("nothing written")
        expected = _(", should be {expected}").format(expected=f.expected) if f.expected else ""
        line = _("line {line}: {why}: {written}{expected}")
        out.append(line.format(line=f.line, why=f.why, written=written, expected=expected))
    checked = len({f.line for f in report.findings})
    if report.errors:
        out.append(
            _("{errors} error(s) in {checked} entries").format(
                errors=report.errors, checked=checked
            )
        )
    else:
        out.append(_("all {checked} entries are right").format(checked=checked))
    return "\n".join(out) + "\n"


MAX_SHEET = 2**20
"""Characters read of a sheet at most (a real one has a few thousand; 40,000 rows, 1 MB, are
audited in under 2 s): a larger file is refused in one line, never read whole."""


def run(args: argparse.Namespace) -> int:
    """Read, audit, print; return the exit code."""
    try:
        with open(args.sheet, encoding="utf-8-sig", newline="") as fh:
            text = fh.read(MAX_SHEET + 1)  # never more: /dev/zero, a 1 GB file
    except (OSError, UnicodeDecodeError) as err:
        print(
            _("audit: cannot read {sheet}: {err}").format(sheet=args.sheet, err=err),
            file=sys.stderr,
        )
        return 2
    if len(text) > MAX_SHEET:
        print(
            _(
                "audit: {sheet}: larger than {limit} characters: a scoresheet is a few "
                "thousand (is it the right file?)"
            ).format(sheet=args.sheet, limit=f"{MAX_SHEET:,}"),
            file=sys.stderr,
        )
        return 2
    try:
        report = audit_text(text, args.variant, args.rules)
    except FileError as err:
        print(f"audit: {args.sheet}: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.json(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(format_report(report))
    return 1 if report.errors else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="damath-board audit", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))
