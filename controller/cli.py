"""The ``damath-board`` command: one entry point, a subcommand per job.

Every subcommand turns bad input into one clear line on stderr and exit code 2; a traceback
reaches the user only for a bug, never for a mistake of theirs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from . import rules_cli

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A mistake in what the user asked for: shown as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="damath-board",
        description="A smart Damath board: rules engine, scoring, audit, and the board itself.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    rules_cli.add_parsers(sub)
    _add_optional(sub, "controller.audit", "audit", "check a handwritten scoresheet (CSV)")
    _add_optional(sub, "controller.demo", "demo", "play a bundled sample game and print it")
    _add_optional(sub, "controller.app", "run", "run the board (a board profile from hardware/)")
    _add_optional(sub, "controller.selftest", "selftest", "walk the LEDs, map the sensors")
    _add_optional(sub, "controller.pico_cli", "pico", "free the Pico's REPL for a firmware update")
    _add_optional(sub, "controller.replay", "replay", "replay a recorded sensor trace")
    _add_optional(sub, "controller.sim.cli", "sim", "serve the virtual board in a browser")
    _add_optional(sub, "controller.hub.cli", "hub", "the tournament hub: every board, live")
    return parser


def _add_optional(sub: argparse._SubParsersAction, module: str, name: str, help_text: str) -> None:
    """Mount a subcommand whose module exposes ``add_arguments(parser)`` and ``run(args)``."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except ImportError:
        return
    if not (hasattr(mod, "add_arguments") and hasattr(mod, "run")):
        return
    p = sub.add_parser(name, help=help_text, description=help_text)
    mod.add_arguments(p)
    p.set_defaults(handler=mod.run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UsageError, ValueError, OSError) as exc:
        print(f"damath-board {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"damath-board {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
