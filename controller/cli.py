"""The ``damath-board`` command: one entry point, a subcommand per job.

Every subcommand turns bad input into one clear line on stderr and exit code 2; a traceback
reaches the user only for a bug, never for a mistake of theirs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from . import i18n, rules_cli
from .i18n import _

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A mistake in what the user asked for: shown as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="damath-board",
        description=_("A smart Damath board: rules engine, scoring, audit, and the board itself."),
    )
    _add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    rules_cli.add_parsers(sub)
    _add_optional(sub, "controller.audit", "audit", _("check a handwritten scoresheet (CSV)"))
    _add_optional(sub, "controller.demo", "demo", _("play a bundled sample game and print it"))
    _add_optional(sub, "controller.app", "run", _("run the board (a board profile from hardware/)"))
    _add_optional(sub, "controller.selftest", "selftest", _("walk the LEDs, map the sensors"))
    _add_optional(
        sub, "controller.pico_cli", "pico", _("free the Pico's REPL for a firmware update")
    )
    _add_optional(sub, "controller.replay", "replay", _("replay a recorded sensor trace"))
    _add_optional(sub, "controller.sim.cli", "sim", _("serve the virtual board in a browser"))
    _add_optional(sub, "controller.hub.cli", "hub", "the tournament hub: every board, live")
    _add_optional(sub, "controller.engine_cli", "engine", "the computer opponent (JSON Lines)")
    _add_optional(sub, "controller.review_cli", "review", "the coach's review of a game")
    return parser


def _add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang`` in the help of the command and of each subcommand (``take_language`` reads it
    wherever it stands, before argparse)."""
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "the language the board and this command speak: en (English) or fil (Filipino); "
            "also DAMATH_LANG, a board profile's [board] language, then LANGUAGE/LANG. Given "
            "anywhere on the line (damath-board sim --lang fil)"
        ),
    )


def take_language(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` (or ``--lang=X``) wherever it stands, and the arguments without it: the
    language must be known before the help texts are built."""
    rest: list[str] = []
    chosen: str | None = None
    items = list(argv)
    i = 0
    while i < len(items):
        item = items[i]
        if item == "--":
            rest += items[i:]
            break
        if item == "--lang":
            if i + 1 >= len(items):
                raise UsageError(_("--lang needs a language: en or fil"))
            chosen = items[i + 1]
            i += 2
            continue
        if item.startswith("--lang="):
            chosen = item.partition("=")[2]
        else:
            rest.append(item)
        i += 1
    return chosen, rest


def choose_language(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """Sets the process's language: ``--lang``, else ``DAMATH_LANG``, else the locale (a board
    profile's own ``[board] language`` comes before the locale: ``run`` applies it). Returns the
    explicit choice (or None) and the arguments left."""
    chosen, rest = take_language(argv)
    explicit = chosen or os.environ.get(i18n.ENV, "").strip() or None
    i18n.set_language(i18n.check(explicit) if explicit else i18n.from_environment())
    return explicit, rest


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
    _add_lang(p)
    p.set_defaults(handler=mod.run)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        explicit, argv = choose_language(sys.argv[1:] if argv is None else argv)
    except (UsageError, ValueError) as exc:
        print(f"damath-board: error: {exc}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    args.lang = explicit
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
        print(
            _("damath-board {command}: error: {error}").format(command=args.command, error=exc),
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(
            _("damath-board {command}: interrupted").format(command=args.command), file=sys.stderr
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
