"""``damath-board review [GAME]``: the coach's review of a game (docs/engine.md).

GAME is the board's PDN export, a JSON game (``{"variant", "moves", …}``), ``-`` for standard
input, or nothing for the bundled sample game. It prints every move with the engine's best and
the points lost, the three biggest mistakes with the better move and its arithmetic, and each
player's accuracy per operation; ``--json`` gives the same as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources

from controller.engine.coach import REVIEW_DEPTH, review
from controller.engine.game_record import read_record
from controller.engine.review_format import review_json, review_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help="a PDN or JSON game; '-' reads standard input"
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=REVIEW_DEPTH,
        choices=range(1, 13),
        metavar="N",
        help=f"how far the engine looks at each move (1–12, default {REVIEW_DEPTH})",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON")


def run(args: argparse.Namespace) -> int:
    source, text = _read(args.game)
    record = read_record(text, source)
    progress = _progress if sys.stderr.isatty() and not args.json else None
    result = review(
        record.start, record.paths, totals=record.totals, depth=args.depth, progress=progress
    )
    if progress is not None:
        sys.stderr.write("\r" + " " * 40 + "\r")
    if args.json:
        print(json.dumps(review_json(result, record), ensure_ascii=False))
    else:
        print(review_text(result, record, source))
    return 0


def _read(path: str | None) -> tuple[str, str]:
    if path is None:
        data = resources.files("controller.data").joinpath("sample_game.json")
        return "the sample game", data.read_text("utf-8")
    if path == "-":
        return "standard input", _bounded("standard input", sys.stdin.read(MAX_GAME + 1))
    try:
        with open(path, encoding="utf-8") as fh:
            return path, _bounded(path, fh.read(MAX_GAME + 1))  # never more: /dev/zero
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file (UTF-8)") from None


MAX_GAME = 2**20
"""Characters read of a game at most (a whole Damath game's PDN or JSON has a few thousand):
a larger file is refused in one line, never read whole."""


def _bounded(source: str, text: str) -> str:
    if len(text) > MAX_GAME:
        raise ValueError(
            f"{source}: larger than {MAX_GAME:,} characters: a game's record is a few thousand "
            "(is it the right file?)"
        )
    return text


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\rreviewing move {done + 1} of {total}")
    sys.stderr.flush()
