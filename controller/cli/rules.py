"""``damath-board rules moves`` and ``damath-board rules perft``: the engine on the command line.

``moves`` reads one JSON position, or JSON Lines (one position per line) so that thousands of
positions can be checked in one call; a bad line answers with an error object on its own line
and the others are still answered.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from controller import registry
from controller.games.answers import Answers, Ask, PerftAsk, RuleSetPerft, parse_object
from controller.rules.draughts import GAMES as RULE_SETS
from controller.rules.notation import NotationError, load_json
from controller.rules.options import add_rules, add_variant

# What the commands say, each sentence defined once with named placeholders (plural forms
# apart), so that a translation catalogue can take them over as they are.
HELP_MOVES = "every legal move of a position"
DESCRIPTION_MOVES = (
    "List every legal move of a position (Damath by default; Dadama, Dam and Mathematical Chess "
    "with --game), "
    "with its takings and what each scores. "
    "Without --position-json: the opening of --variant. A file may hold one JSON position "
    "(docs/notation.md) or JSON Lines, one position a line, each answered on its own line; "
    "'-' reads standard input. When a taking is possible, only takings are legal (taking is "
    "mandatory, and the most chips must be taken)."
)
HELP_PERFT = "count the move tree's leaves to a depth"
DESCRIPTION_PERFT = (
    "Count the leaves of the tree of legal moves to --depth plies (perft), to check the move "
    "generator against published tables: Damath or Dadama from its opening or a JSON position, "
    "or one of the draughts games (Dam included) from its start or a PDN FEN. "
    "--divide splits the count by first move."
)
MOVES_GAMES = tuple(e.name for e in registry.ENTRIES if e.answers is not None)
"""The games ``rules moves`` answers for (each its own ``answers``), the default first."""
PERFT_GAMES = (*MOVES_GAMES, *(name for name in RULE_SETS if name not in MOVES_GAMES))
"""``rules perft`` counts those, and every draughts rule set of the engine from a PDN FEN."""


def answers(name: str) -> Answers | RuleSetPerft:
    """The game's answers (its registry entry), or a draughts rule set's perft."""
    return _moves_answers(name) if name in MOVES_GAMES else RuleSetPerft(name)


def add_arguments(rules: argparse.ArgumentParser) -> None:
    """``rules moves`` and ``rules perft`` under the ``rules`` command's parser."""
    rsub = rules.add_subparsers(dest="rules_command", metavar="RULES_COMMAND", required=True)

    moves = rsub.add_parser("moves", help=HELP_MOVES, description=DESCRIPTION_MOVES)
    moves.add_argument(
        "--game",
        choices=MOVES_GAMES,
        default=None,
        help="the game (default: the position's 'game' key, else damath)",
    )
    add_variant(moves, default=None)
    add_rules(moves, default=None)
    moves.add_argument(
        "--position-json",
        metavar="FILE",
        help="a JSON position, or JSON Lines of positions; '-' reads standard input "
        "(default: the opening)",
    )
    moves.add_argument("--json", action="store_true", help="answer in JSON")
    moves.set_defaults(rules_handler=run_moves)

    pf = rsub.add_parser("perft", help=HELP_PERFT, description=DESCRIPTION_PERFT)
    pf.add_argument("--game", choices=PERFT_GAMES, default=registry.DAMATH)
    pf.add_argument("--depth", type=_depth, required=True)
    add_variant(pf)
    add_rules(pf)
    pf.add_argument("--fen", help="PDN FEN of the start position (draughts games)")
    pf.add_argument("--position-json", metavar="FILE", help="JSON position (damath, dadama, dam)")
    pf.add_argument(
        "--throw",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="dadama: every die shows N (default: sum over every outcome of every throw)",
    )
    pf.add_argument("--divide", action="store_true", help="split the count by first move")
    pf.add_argument(
        "--unique",
        action="store_true",
        help="count captures that differ only in landing squares once (the published tables' "
        "convention; by default every path counts, RULES.md D-5)",
    )
    pf.add_argument("--json", action="store_true", help="answer in JSON")
    pf.set_defaults(rules_handler=run_perft)


def run(args: argparse.Namespace) -> int:
    """The ``rules`` subcommand chosen (argparse requires one)."""
    handler: Callable[[argparse.Namespace], int] = args.rules_handler
    return handler(args)


def _depth(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, not {text!r}") from None
    if not 0 <= n <= 20:
        raise argparse.ArgumentTypeError("depth must be between 0 and 20")
    return n


# ---------------------------------------------------------------------- moves


def run_moves(args: argparse.Namespace) -> int:
    ask = Ask(args.variant, args.rules)
    if args.position_json is None:
        game = _moves_answers(args.game or registry.DAMATH)
        game.print_moves(game.opening(ask), args.json, sys.stdout)
        return 0
    text = _read(args.position_json)
    if not text.strip():
        where = "standard input" if args.position_json == "-" else args.position_json
        raise NotationError(
            f"{where} is empty: expected a JSON position, or JSON Lines with one position a line"
        )
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if _is_single_document(text):
        _print_moves(text, args)
        return 0
    failures = 0
    for number, line in enumerate(lines, start=1):
        try:
            _print_moves(line, args)
        except NotationError as exc:
            failures += 1
            if args.json:
                print(json.dumps({"line": number, "error": str(exc)}))
            else:
                print(f"line {number}: error: {exc}")
    return 1 if failures else 0


def _moves_answers(name: str) -> Answers:
    """A game ``rules moves`` answers for (argparse and ``_print_moves`` offer no other)."""
    found: Answers = registry.entry(name).load_answers()
    return found


def _is_single_document(text: str) -> bool:
    try:
        load_json(text)
    except NotationError:  # JSON Lines, or bad JSON: each line is answered on its own
        return False
    return True


def _print_moves(text: str, args: argparse.Namespace) -> None:
    """One position's moves, in the game its ``game`` key (or ``--game``) names."""
    obj = parse_object(text)
    name = str(obj.get("game", args.game or registry.DAMATH)).strip().lower()
    if args.game is not None and name != args.game:
        raise NotationError(f"game: the position says {name!r} but --game says {args.game!r}")
    if name not in MOVES_GAMES:
        raise NotationError(f"game: unknown game {name!r}; games are: {', '.join(MOVES_GAMES)}")
    game = _moves_answers(name)
    game.print_moves(game.from_json(obj, Ask(args.variant, args.rules)), args.json, sys.stdout)


# ---------------------------------------------------------------------- perft


def run_perft(args: argparse.Namespace) -> int:
    ask = PerftAsk(
        args.game,
        args.depth,
        divide=args.divide,
        unique=args.unique,
        throw=args.throw,
        fen=args.fen,
        position=args.position_json,
        read=_read,
        variant=args.variant,
        rules=args.rules,
        show=(lambda text, count: None) if args.json else _show_row,
    )
    start = time.perf_counter()
    nodes = answers(args.game).perft(ask)
    seconds = time.perf_counter() - start
    if args.json:
        out: dict[str, Any] = {
            "game": args.game,
            "depth": args.depth,
            "nodes": nodes,
            "seconds": round(seconds, 6),
        }
        if args.unique:
            out["unique"] = True
        out.update(ask.facts)
        if args.throw is not None:
            out["throw"] = args.throw
        if args.divide:
            out["divide"] = [{"move": m, "nodes": c} for m, c in ask.rows]
        print(json.dumps(out))
    else:
        rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
        print(f"perft {args.game} depth {args.depth}: {nodes} nodes in {seconds:.3f} s{rate}")
    return 0


def _show_row(text: str, count: int) -> None:
    print(f"{text}: {count}", flush=True)


MAX_INPUT = 16 * 1024 * 1024
"""Characters read for ``--position-json``: thousands of positions fit; a file larger than this
is refused rather than read whole into memory."""


def _read(path: str) -> str:
    if path == "-":
        text = sys.stdin.read(MAX_INPUT + 1)
    else:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(MAX_INPUT + 1)
    if len(text) > MAX_INPUT:
        raise NotationError(
            f"{'standard input' if path == '-' else path} is larger than {MAX_INPUT // 2**20} MiB: "
            "split it into several calls"
        )
    return text
