"""``damath-board engine``: the computer opponent as a persistent JSON Lines process.

One request a line on standard input, one answer a line on standard output, flushed at once,
until the input ends (docs/engine.md). A line that cannot be answered gets
``{"line": N, "error": "…"}`` and the engine goes on with the next one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TextIO

from controller.engine.levels import LEVELS
from controller.engine.protocol import MAX_DEPTH, Defaults, answer_line
from controller.rules.options import add_rules, add_variant


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_variant(parser, required=True)
    add_rules(parser)
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--movetime", type=_bounded(1, 24 * 3600 * 1000), metavar="MS", help="time per move"
    )
    limit.add_argument(
        "--depth", type=_bounded(1, MAX_DEPTH), metavar="N", help="fixed depth (reproducible)"
    )
    parser.add_argument(
        "--level",
        type=_bounded(1, len(LEVELS)),
        metavar="1..8",
        help="a child's level (default: full strength)",
    )


def _bounded(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"expected a number from {lo} to {hi}, not {n}")
        return n

    return parse


def run(args: argparse.Namespace) -> int:
    defaults = Defaults(
        variant=args.variant,
        profile=args.rules,
        movetime_ms=args.movetime,
        depth=args.depth,
        level=args.level,
    )
    serve(sys.stdin, sys.stdout, defaults)
    return 0


def serve(lines: TextIO, out: TextIO, defaults: Defaults) -> None:
    """Answer every line until the input ends; blank lines are skipped."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            reply = answer_line(line, number, defaults, time.monotonic)
        except Exception as exc:  # a bug must not take the opponent away mid-game
            reply = {"line": number, "error": f"internal error: {type(exc).__name__}: {exc}"}
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()
