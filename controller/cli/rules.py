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
from typing import Any, TextIO

from controller.rules import variants
from controller.rules.dadama import DadamaGame
from controller.rules.dam import DamGame
from controller.rules.draughts import GAMES, number_map
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.movegen import Board, RawMove
from controller.rules.notation import NotationError, game_from_json, load_json
from controller.rules.options import add_rules, add_variant
from controller.rules.pdn import board_from_fen
from controller.rules.perft import dadama_divide, dadama_perft, divide, perft
from controller.rules.scoring import score_move, taking_json

from .rules_games import FEN_GAMES, OTHER_GAMES
from .rules_games import from_json as other_game_from_json
from .rules_games import opening as other_game_opening
from .rules_games import print_moves as print_other_moves
from .rules_mathchess import MathChess
from .rules_mathchess import run_perft as mathchess_perft

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
LEGAL_MOVES = ("{side} to move: {count} legal move", "{side} to move: {count} legal moves")
LEGAL_TAKINGS = (
    "{side} to move: {count} legal taking (taking is mandatory)",
    "{side} to move: {count} legal takings (taking is mandatory)",
)
NO_LEGAL_MOVE = "{side} to move has no legal move."


def plural(forms: tuple[str, str], count: int) -> str:
    """The singular or the plural form of a sentence for ``count``."""
    return forms[0] if count == 1 else forms[1]


def add_arguments(rules: argparse.ArgumentParser) -> None:
    """``rules moves`` and ``rules perft`` under the ``rules`` command's parser."""
    rsub = rules.add_subparsers(dest="rules_command", metavar="RULES_COMMAND", required=True)

    moves = rsub.add_parser("moves", help=HELP_MOVES, description=DESCRIPTION_MOVES)
    moves.add_argument(
        "--game",
        choices=("damath", *OTHER_GAMES),
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
    pf.add_argument("--game", choices=("damath", "dadama", "mathchess", *GAMES), default="damath")
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
    if args.position_json is None:
        if args.game in OTHER_GAMES:
            _no_damath_options(args)
            print_other_moves(other_game_opening(args.game), args.json, sys.stdout)
            return 0
        game: Game | DadamaGame | DamGame | MathChess = Game.new(
            args.variant or variants.DEFAULT, args.rules or "official"
        )
        _print_moves(game, args.json, sys.stdout)
        return 0
    text = _read(args.position_json)
    if not text.strip():
        where = "standard input" if args.position_json == "-" else args.position_json
        raise NotationError(
            f"{where} is empty: expected a JSON position, or JSON Lines with one position a line"
        )
    lines = [ln for ln in text.splitlines() if ln.strip()]
    single = _is_single_document(text)
    if single:
        game = _game(text, args)
        _print_moves(game, args.json, sys.stdout)
        return 0
    failures = 0
    for number, line in enumerate(lines, start=1):
        try:
            game = _game(line, args)
        except NotationError as exc:
            failures += 1
            if args.json:
                print(json.dumps({"line": number, "error": str(exc)}))
            else:
                print(f"line {number}: error: {exc}")
            continue
        _print_moves(game, args.json, sys.stdout)
    return 1 if failures else 0


def _is_single_document(text: str) -> bool:
    try:
        load_json(text)
    except NotationError:  # JSON Lines, or bad JSON: each line is answered on its own
        return False
    return True


def _no_damath_options(args: argparse.Namespace) -> None:
    if getattr(args, "variant", None) or getattr(args, "rules", None):
        raise NotationError("--variant and --rules are for damath positions")


def _game(text: str, args: argparse.Namespace) -> Game | DadamaGame | DamGame | MathChess:
    obj = _parse_object(text)
    name = str(obj.get("game", args.game or "damath")).strip().lower()
    if args.game is not None and name != args.game:
        raise NotationError(f"game: the position says {name!r} but --game says {args.game!r}")
    if name in OTHER_GAMES:
        _no_damath_options(args)
        return other_game_from_json(name, obj)
    if name != "damath":
        raise NotationError(
            f"game: unknown game {name!r}; games are: damath, {', '.join(OTHER_GAMES)}"
        )
    obj.pop("game", None)
    for key, option in (("variant", "variant"), ("profile", "rules")):
        given = getattr(args, option)
        if given is None:
            continue
        if key in obj and str(obj[key]).lower() != given:
            raise NotationError(
                f"{key}: the position says {obj[key]!r} but --{option} says {given!r}"
            )
        obj[key] = given
    return game_from_json(obj)


def _parse_object(text: str) -> dict[str, Any]:
    obj = load_json(text)
    if not isinstance(obj, dict):
        raise NotationError("a position must be a JSON object with variant, to_move and pieces")
    return obj


def move_json(move: Move, variant: str | None) -> dict[str, Any]:
    """One move as the ``moves`` command and the simulator describe it, scored when Damath."""
    out: dict[str, Any] = {
        "path": [list(sq) for sq in move.path],
        "captures": [list(sq) for sq in move.captures],
        "promotes": move.promotes,
        "takings": [],
    }
    if variant is not None:
        scored = score_move(move, variant)
        out["takings"] = [taking_json(s) for s in scored.takings]
        out["score_text"] = scored.text
        out["score_value"] = scored.value
    return out


def _print_moves(game: Game | DadamaGame | DamGame | MathChess, as_json: bool, out: TextIO) -> None:
    if isinstance(game, DadamaGame | DamGame | MathChess) or game.rules.name in FEN_GAMES:
        print_other_moves(game, as_json, out)
        return
    if game.variant is None:
        raise NotationError("a plain draughts position has no Damath moves to score")
    moves = game.legal_moves()
    if as_json:
        out.write(json.dumps({"moves": [move_json(m, game.variant) for m in moves]}) + "\n")
        return
    side = "Blue" if game.side_to_move == 0 else "Red"
    if not moves:
        out.write(NO_LEGAL_MOVE.format(side=side) + "\n")
        return
    forms = LEGAL_TAKINGS if moves[0].captures else LEGAL_MOVES
    out.write(plural(forms, len(moves)).format(side=side, count=len(moves)) + "\n")
    for m in moves:
        label = f"{m.chip.value} " if m.chip is not None and m.chip.value is not None else ""
        extra = " (becomes dama)" if m.promotes else ""
        fields = move_json(m, game.variant)
        score = f"  score {fields['score_text']}" if "score_text" in fields else ""
        out.write(f"  {label}{m}{extra}{score}\n")


# ---------------------------------------------------------------------- perft


def run_perft(args: argparse.Namespace) -> int:
    if args.throw is not None and args.game != "dadama":
        raise NotationError("--throw is for dadama")
    start = time.perf_counter()
    rows: list[tuple[str, int]] = []
    if args.game == "mathchess":
        nodes = mathchess_perft(args, rows, _read)
        return _perft_answer(args, nodes, rows, time.perf_counter() - start)
    if args.game == "dadama":
        nodes = _perft_dadama(args, rows)
        return _perft_answer(args, nodes, rows, time.perf_counter() - start)
    board, describe = _perft_board(args)
    if args.divide:
        for raw, count in divide(board, args.depth, args.unique) if args.depth > 0 else []:
            rows.append((describe(raw), count))
            if not args.json:
                print(f"{describe(raw)}: {count}", flush=True)
        nodes = sum(c for _, c in rows) if args.depth > 0 else 1
    else:
        nodes = perft(board, args.depth, args.unique)
    return _perft_answer(args, nodes, rows, time.perf_counter() - start)


def _perft_answer(
    args: argparse.Namespace, nodes: int, rows: list[tuple[str, int]], seconds: float
) -> int:
    if args.json:
        out: dict[str, Any] = {
            "game": args.game,
            "depth": args.depth,
            "nodes": nodes,
            "seconds": round(seconds, 6),
        }
        if args.unique:
            out["unique"] = True
        if args.game == "damath":
            out["variant"] = args.variant
        if args.throw is not None:
            out["throw"] = args.throw
        if args.divide:
            out["divide"] = [{"move": m, "nodes": c} for m, c in rows]
        print(json.dumps(out))
    else:
        rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
        print(f"perft {args.game} depth {args.depth}: {nodes} nodes in {seconds:.3f} s{rate}")
    return 0


def _perft_dadama(args: argparse.Namespace, rows: list[tuple[str, int]]) -> int:
    """Dadama counts complete turns, summed over every throw's outcomes (or one fixed throw)."""
    if args.fen or args.unique:
        raise NotationError("--fen and --unique are not for dadama")
    if args.position_json:
        game = other_game_from_json("dadama", _parse_object(_read(args.position_json)))
    else:
        game = other_game_opening("dadama")
    if not args.divide:
        return dadama_perft(game, args.depth, args.throw)  # type: ignore[arg-type]
    for text, count in dadama_divide(game, args.depth, args.throw):  # type: ignore[arg-type]
        rows.append((text, count))
        if not args.json:
            print(f"{text}: {count}", flush=True)
    return sum(c for _, c in rows) if args.depth > 0 else 1


def _perft_board(args: argparse.Namespace) -> tuple[Board, Callable[[RawMove], str]]:
    if args.game == "damath":
        if args.fen:
            raise NotationError("--fen is for the draughts games; use --position-json for damath")
        if args.position_json:
            found = _game(
                _read(args.position_json),
                argparse.Namespace(variant=None, rules=None, game="damath"),
            )
            assert isinstance(found, Game)  # a damath position, as --game says
            game = found
        else:
            game = Game.new(args.variant, args.rules)
        squares = game.geo.squares

        def describe(raw: RawMove) -> str:
            sep = "x" if raw[1] else "-"
            return sep.join(f"({squares[i][0]},{squares[i][1]})" for i in raw[0])

        return game.generator_board(), describe
    if args.position_json and args.game != "dam":
        raise NotationError("--position-json is for damath and dam; use --fen for the others")
    if args.position_json and args.fen:
        raise NotationError("give either --fen or --position-json, not both")
    if args.position_json:
        dam = other_game_from_json("dam", _parse_object(_read(args.position_json)))
        assert isinstance(dam, DamGame)
        board = dam.generator_board()
    else:
        board = board_from_fen(args.game, args.fen)
    _, by_square = number_map(args.game)
    squares = board.geo.squares

    def describe_pdn(raw: RawMove) -> str:
        sep = "x" if raw[1] else "-"
        return sep.join(str(by_square[squares[i]]) for i in raw[0])

    return board, describe_pdn


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
