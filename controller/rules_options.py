"""The options every command spells the same way: ``--variant`` from the rules engine's variant
registry, so a variant added to the engine is offered by every command at once."""

from __future__ import annotations

import argparse

from .rules import variants


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
