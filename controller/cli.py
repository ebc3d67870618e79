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
    _add_optional(
        sub, "controller.federation.cli", "federation",
        _("the federation: registry, verified events, ratings, every hall live"),
    )  # fmt: skip
    _add_optional(sub, "controller.engine_cli", "engine", "the computer opponent (JSON Lines)")
    _add_optional(sub, "controller.review_cli", "review", "the coach's review of a game")
    _add_optional(sub, "controller.puzzles.cli", "puzzles", _("the class's puzzles from games"))
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
                raise ValueError(_("--lang needs a language: en or fil"))
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


def _add_optional(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    module: str,
    name: str,
    help_text: str,
) -> None:
    """Mount a subcommand whose module exposes ``add_arguments(parser)`` and ``run(args)``.

    A subcommand whose module needs a package that is not installed (an optional extra, e.g.
    the hub's or the simulator's) is still listed; running it says which package is missing and
    how to install it. Any other import error is a bug and is raised, never hidden."""
    import importlib

    p = sub.add_parser(name, help=help_text, description=help_text)
    _add_lang(p)
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.split(".")[0] in _OWN_PACKAGES:
            raise  # a module of this program missing: a broken install, said as it is
        p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        p.set_defaults(handler=_missing(name, exc.name))
        return
    mod.add_arguments(p)
    p.set_defaults(handler=mod.run)


_OWN_PACKAGES = ("controller", "drivers", "firmware")
EXTRAS = {
    "caissify_pairings": "hub",
    "sympy": "symbolic",
    "RPi": "rpigpio",
    "sqlalchemy": "federation",
    "alembic": "federation",
    "psycopg": "federation",
}
"""The module a command may miss -> the extra of pyproject.toml that installs it."""


def _missing(command: str, module: str) -> Handler:
    """The handler of a subcommand that cannot run here: one line naming what to install."""
    extra = EXTRAS.get(module.split(".")[0])

    def handler(args: argparse.Namespace) -> int:
        if extra is not None:
            said = _(
                "damath-board {command}: needs the Python module {module}, which is not "
                "installed: pip install 'damath-board[{extra}]'"
            )
        else:
            said = _(
                "damath-board {command}: needs the Python module {module}, which is not "
                "installed: install damath-board again (pip install damath-board)"
            )
        print(said.format(command=command, module=module, extra=extra), file=sys.stderr)
        return 2

    return handler


def main(argv: Sequence[str] | None = None) -> int:
    try:
        explicit, argv = choose_language(sys.argv[1:] if argv is None else argv)
    except ValueError as exc:
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
    except (ValueError, OSError) as exc:
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
