"""``damath-board audit SHEET.csv --variant V [--profile P] [--json]``: the command line of the
audit. Exit codes: 0 the sheet is right, 1 it has errors, 2 the file cannot be read."""

from __future__ import annotations

import argparse
import json
import sys

from ..rules.damath_data import PROFILES, VARIANTS
from .check import FileError, Report, audit_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Mount the audit's arguments on a (sub)parser."""
    parser.add_argument("sheet", metavar="SHEET.csv", help="the scoresheet typed in as CSV")
    parser.add_argument("--variant", required=True, choices=VARIANTS, help="the Damath variant")
    parser.add_argument(
        "--profile", default="official", choices=PROFILES, help="rule profile (default official)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def format_report(report: Report) -> str:
    """One line per wrong entry, then a summary."""
    out = []
    for f in report.findings:
        if f.ok:
            continue
        written = f"wrote {f.written!r}" if f.written else "nothing written"
        expected = f", should be {f.expected}" if f.expected else ""
        out.append(f"line {f.line}: {f.why}: {written}{expected}")
    checked = len({f.line for f in report.findings})
    if report.errors:
        out.append(f"{report.errors} error(s) in {checked} entries")
    else:
        out.append(f"all {checked} entries are right")
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    """Read, audit, print; return the exit code."""
    try:
        with open(args.sheet, encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        print(f"audit: cannot read {args.sheet}: {err}", file=sys.stderr)
        return 2
    try:
        report = audit_text(text, args.variant, args.profile)
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
