"""The ``damath-board`` command: one entry point, a subcommand per job, each in a module of
its own (here, or the package's ``cli`` module it belongs to) loaded only when it runs. Nothing
imports this package but the entry point.

Every subcommand turns bad input into one clear line on stderr and exit code 2; a traceback
reaches the user only for a bug, never for a mistake of theirs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from controller import i18n
from controller.i18n import N_, _

Handler = Callable[[argparse.Namespace], int]


COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("controller.cli.rules", "the rules engine: legal moves, perft"),
    "audit": ("controller.audit", N_("check a handwritten scoresheet (CSV)")),
    "demo": ("controller.cli.demo", N_("play a bundled sample game and print it")),
    "run": ("controller.cli.run", N_("run the board (a board profile from hardware/)")),
    "selftest": ("controller.cli.selftest", N_("walk the LEDs, map the sensors")),
    "pico": ("controller.cli.pico", N_("free the Pico's REPL for a firmware update")),
    "replay": ("controller.cli.replay", N_("replay a recorded sensor trace")),
    "sim": ("controller.cli.sim", N_("serve the virtual board in a browser")),
    "hub": ("controller.cli.hub", "the tournament hub: every board, live"),
    "federation": (
        "controller.cli.federation",
        N_("the federation: registry, verified events, ratings, every hall live"),
    ),
    "engine": ("controller.cli.engine", "the computer opponent (JSON Lines)"),
    "review": ("controller.cli.review", "the coach's review of a game"),
    "puzzles": ("controller.cli.puzzles", N_("the class's puzzles from games")),
}
"""Every command: the module that runs it (``add_arguments(parser)`` and ``run(args)``) and its
line in the help (translated when the parser is built). A module is imported only when its
command runs (or when a whole parser is asked for), as gpiozero loads a pin factory by name:
``damath-board --help`` imports none, and ``damath-board rules perft`` only the rules engine."""


def build_parser(command: str | None = "") -> argparse.ArgumentParser:
    """The command line's parser. ``command`` names the one command whose module is loaded
    (the others are listed by their help line only); ``None`` loads none, and the default
    (``""``) loads every command, for a caller that walks the whole tree."""
    parser = argparse.ArgumentParser(
        prog="damath-board",
        description=_("A smart Damath board: rules engine, scoring, audit, and the board itself."),
    )
    _add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        said = _(help_text)
        p = sub.add_parser(name, help=said, description=said)
        _add_lang(p)
        if command == "" or command == name:
            _mount(p, module, name)
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The command an argument list runs: its first word that is not an option (``--lang`` is
    taken out before), or None (``--help``, nothing, or an unknown word argparse will refuse)."""
    for item in argv:
        if item == "--":
            return None
        if not item.startswith("-"):
            return item if item in COMMANDS else None
    return None


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


def _mount(p: argparse.ArgumentParser, module: str, name: str) -> None:
    """Load a command's module and let it add its arguments.

    A command whose module needs a package that is not installed (an optional extra, e.g.
    the hub's or the simulator's) is still listed; running it says which package is missing and
    how to install it. Any other import error is a bug and is raised, never hidden."""
    import importlib

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
    parser = build_parser(command_of(argv) or None)
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
