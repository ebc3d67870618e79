"""The options every command spells the same way, so one word means one thing everywhere:
``--variant`` from the rules engine's variant registry (a variant added to the engine is offered
by every command at once) and ``--rules`` for a rules profile (official, online). ``--profile``
is a board's TOML file (``run``, ``selftest``, ``pico``); where it used to name the rules it
still works, with one line saying the new spelling."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from . import variants
from .profiles import PROFILES

RULES: tuple[str, ...] = tuple(PROFILES)
"""The rules profiles' names (``rules.profiles``)."""


def add_variant(
    parser: argparse.ArgumentParser,
    *,
    default: str | None = variants.DEFAULT,
    required: bool = False,
    help: str | None = None,
) -> None:
    """``--variant`` with the registry's names as its choices."""
    parser.add_argument(
        "--variant",
        choices=variants.NAMES,
        default=None if required else default,
        required=required,
        help=help,
    )


def add_rules(
    parser: argparse.ArgumentParser, *, default: str | None = "official", help: str | None = None
) -> None:
    """``--rules NAME``, and the old ``--profile NAME`` read the same way with a note."""
    parser.add_argument("--rules", choices=RULES, default=default, help=help)
    parser.add_argument(
        "--profile",
        dest="rules",
        choices=RULES,
        default=argparse.SUPPRESS,
        action=_OldRulesSpelling,
        help=argparse.SUPPRESS,
    )


class _OldRulesSpelling(argparse.Action):
    """``--profile`` where it meant the rules: the value is taken, the new spelling is said."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(
            f"{parser.prog}: {option_string} is now spelled --rules "
            "(--profile names a board's file); the old spelling will go away",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, values)
