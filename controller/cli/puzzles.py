"""``damath-board puzzles``: generate the class's puzzles from kept games and the engine's own
games, and list them. The store is ``puzzles.sqlite`` in the simulator's state folder (beside
``players.txt``), where the simulator's puzzle page reads it."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

from controller.i18n import _
from controller.puzzles.sources import generate
from controller.puzzles.store import StoreError, add_puzzles, puzzle_db_path, puzzles
from controller.puzzles.themes import THEMES
from controller.rules.damath_data import VARIANTS

MAX_ENGINE_GAMES = 10_000
"""Engine games a run may ask for per variant (each takes seconds: 10,000 is a night's run)."""


def default_state_dir() -> Path:
    """The simulator's state folder, as ``damath-board sim`` finds it."""
    env = os.environ.get("STATE_DIRECTORY")
    base = Path(env.split(":")[0]) if env else Path.home() / ".local/state" / "damath-board"
    return base / "sim"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help=_("the class's state folder (default: the simulator's, beside players.txt)"),
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    gen = sub.add_parser("generate", help=_("find puzzles in kept games and engine games"))
    gen.add_argument(
        "--games",
        metavar="DIR",
        action="append",
        default=[],
        help=_("a folder of kept games (journals, PDN, JSON), searched inside; repeatable"),
    )
    gen.add_argument(
        "--engine-games",
        metavar="N",
        type=int,
        default=0,
        help=_("also N games of the engine against itself per variant, at children's levels"),
    )
    gen.add_argument(
        "--variant",
        action="append",
        choices=VARIANTS,
        help=_("only this variant (repeatable; default: every Damath variant)"),
    )
    lst = sub.add_parser("list", help=_("the puzzles in the store, easiest first"))
    lst.add_argument("--variant", choices=VARIANTS, help=_("only this variant"))


def run(args: argparse.Namespace) -> int:
    state = Path(args.state_dir) if args.state_dir else default_state_dir()
    db = puzzle_db_path(state)
    try:
        if args.action == "generate":
            return _generate(args, state, db)
        return _list(db, args.variant)
    except StoreError as exc:
        print(f"damath-board puzzles: {exc}", file=sys.stderr)
        return 2


def _generate(args: argparse.Namespace, state: Path, db: Path) -> int:
    folders = [Path(g) for g in args.games]
    for folder in folders:
        if not folder.exists():
            print(_("damath-board puzzles: no such folder: {f}").format(f=folder), file=sys.stderr)
            return 2
    if not 0 <= args.engine_games <= MAX_ENGINE_GAMES:
        print(
            _("damath-board puzzles: --engine-games is 0 to {most}").format(most=MAX_ENGINE_GAMES),
            file=sys.stderr,
        )
        return 2
    if not folders and not args.engine_games:
        print(_("damath-board puzzles: give --games DIR or --engine-games N"), file=sys.stderr)
        return 2
    variants = tuple(args.variant or VARIANTS)
    started = time.monotonic()
    found, skipped = generate(folders, args.engine_games, variants)
    state.mkdir(parents=True, exist_ok=True)
    new = add_puzzles(db, found)
    for line in skipped:
        print(_("skipped {line}").format(line=line), file=sys.stderr)
    print(
        _("{n} puzzles found ({new} new) in {s:.0f} s; the store: {db}").format(
            n=len(found), new=new, s=time.monotonic() - started, db=db
        )
    )
    _counts(found_variants=[p.variant for p in found], themes=[t for p in found for t in p.themes])
    return 0


def _counts(found_variants: list[str], themes: list[str]) -> None:
    by_variant = Counter(found_variants)
    by_theme = Counter(themes)
    print(_("per variant:"))
    for v in VARIANTS:
        print(f"  {v:<12} {by_variant.get(v, 0):>5}")
    print(_("per theme:"))
    for name, words in THEMES.items():
        print(f"  {_(words):<28} {by_theme.get(name, 0):>5}")


def _list(db: Path, variant: str | None) -> int:
    rows = puzzles(db, variant)
    if not rows:
        print(_("no puzzles yet: damath-board puzzles generate --engine-games 4"))
        return 0
    for p, rating in rows:
        themes = ", ".join(_(THEMES.get(t, t)) for t in p.themes)
        where = f"{p.source.get('game', '')} ply {p.source.get('ply', '')}"
        print(f"{p.id}  {p.variant:<10} {rating.rating:6.0f}  {themes}  ({where})")
    print(_("{n} puzzles").format(n=len(rows)))
    return 0
