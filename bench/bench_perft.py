"""Perft speed: our generator side by side with pydraughts, same rule set, same depth, one run;
then ours alone deeper, Dam and Dadama included.

Both sides count the last ply without playing it (bulk counting) so the comparison is fair.
``--against REV`` instead runs this tree's rules engine side by side with the engine as it was
at the git revision REV (Damath perft and Damath legal moves, interleaved rounds, one run), to
show what a change to the generic core costs Damath.
Run: .venv/bin/python bench/bench_perft.py [--quick] [--against REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType

from draughts import Board as PyBoard

from controller.rules import damath_data
from controller.rules.dadama import DadamaGame
from controller.rules.game import Game
from controller.rules.notation import game_to_json
from controller.rules.pdn import board_from_fen
from controller.rules.perft import dadama_perft, perft

PYDRAUGHTS_NAMES = {"english": "english", "international": "standard", "italian": "italian"}
PYDRAUGHTS_NAMES["brazilian"] = "brazilian"


def py_perft(board: PyBoard, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


def timed(fn, *args) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = fn(*args)
    return nodes, time.perf_counter() - start


def rules_at(rev: str) -> ModuleType:
    """The package ``controller/rules`` as it was at ``rev``, imported under its own name."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "archive", rev, "controller/rules"], cwd=root, check=True, capture_output=True
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="rules-at-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / "controller" / "rules"
    name = "rules_at_" + "".join(ch for ch in rev if ch.isalnum())
    spec = importlib.util.spec_from_file_location(
        name, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    for sub in ("game", "notation", "perft"):
        importlib.import_module(f"{name}.{sub}")
    return module


def damath_positions(count: int, seed: int = 1) -> list[dict]:
    """Positions of seeded random Damath games, every variant and both profiles."""
    rng = random.Random(seed)
    out = []
    for variant in damath_data.VARIANTS:
        for profile in ("official", "online"):
            for _ in range(count):
                game = Game.new(variant, profile)
                for _ in range(rng.randint(0, 80)):
                    moves = game.legal_moves()
                    if not moves or game.is_over():
                        break
                    game.push(rng.choice(moves))
                out.append(game_to_json(game))
    return out


def against(rev: str, rounds: int) -> None:
    """This tree's engine and the engine at ``rev``, interleaved, on the same Damath work."""
    old = rules_at(rev)
    engines = {"before": old, "after": sys.modules["controller.rules"]}
    positions = damath_positions(40)
    print(f"Damath, this tree (after) against {rev} (before); {rounds} interleaved rounds")
    perft_times: dict[str, list[float]] = {"before": [], "after": []}
    moves_times: dict[str, list[float]] = {"before": [], "after": []}
    nodes = {}
    for _ in range(rounds):
        for label, pkg in engines.items():
            board = pkg.game.Game.new("integer").generator_board()
            start = time.perf_counter()
            nodes[label] = pkg.perft.perft(board, 7)
            perft_times[label].append(time.perf_counter() - start)
            games = [pkg.notation.game_from_json(p) for p in positions]
            each = []
            for game in games:
                start = time.perf_counter()
                game.legal_moves()
                each.append(time.perf_counter() - start)
            moves_times[label].append(statistics.median(each))
    if nodes["before"] != nodes["after"]:
        print(f"  perft counts differ: {nodes}", file=sys.stderr)
    b, a = statistics.median(perft_times["before"]), statistics.median(perft_times["after"])
    print(
        f"perft damath depth 7 ({nodes['after']} nodes): before {b:.3f} s, after {a:.3f} s, "
        f"after/before {a / b:.3f}"
    )
    b, a = statistics.median(moves_times["before"]), statistics.median(moves_times["after"])
    print(
        f"legal moves, {len(positions)} positions, median per position: before {b * 1e6:.1f} us, "
        f"after {a * 1e6:.1f} us, after/before {a / b:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shallower, for a smoke run")
    parser.add_argument("--against", metavar="REV", help="compare with the engine at REV")
    parser.add_argument("--rounds", type=int, default=7, help="rounds for --against")
    args = parser.parse_args()
    if args.against:
        print(f"python {platform.python_version()} on {platform.machine()}")
        against(args.against, args.rounds)
        return
    side_by_side = {"english": 5, "international": 4, "italian": 5, "brazilian": 5}
    deep = {"english": 8, "italian": 8, "brazilian": 8, "international": 7, "dam": 6}
    chance = {"damath": 7, "dadama": 6}
    if args.quick:
        chance = {k: v - 2 for k, v in chance.items()}
        side_by_side = {k: v - 1 for k, v in side_by_side.items()}
        deep = {k: v - 2 for k, v in deep.items()}
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor()})")
    print("\nside by side (same depth, one run):")
    header = ("game", "depth", "nodes", "ours n/s", "pydraughts n/s", "ratio")
    print("{:14} {:>5} {:>9} {:>11} {:>15} {:>7}".format(*header))
    for game, depth in side_by_side.items():
        ours, t_ours = timed(perft, board_from_fen(game), depth)
        theirs, t_theirs = timed(py_perft, PyBoard(variant=PYDRAUGHTS_NAMES[game]), depth)
        if ours != theirs:
            print(
                f"  {game}: node counts differ: ours {ours}, pydraughts {theirs}", file=sys.stderr
            )
        r_ours, r_theirs = ours / t_ours, theirs / t_theirs
        print(
            f"{game:14} {depth:>5} {ours:>9} {r_ours:>11,.0f} {r_theirs:>15,.0f} "
            f"{r_ours / r_theirs:>6.0f}x"
        )
    print("\nours alone, deeper:")
    for game, depth in deep.items():
        nodes, seconds = timed(perft, board_from_fen(game), depth)
        rate = nodes / seconds
        unique = perft(board_from_fen(game), depth, unique=True)
        print(
            f"{game:14} depth {depth}: {nodes:>10} nodes in {seconds:6.2f} s ({rate:,.0f} n/s); "
            f"published convention (unique moves): {unique}"
        )
    nodes, seconds = timed(perft, Game.new("integer").generator_board(), chance["damath"])
    print(f"{'damath':14} depth {chance['damath']}: {nodes:>10} nodes in {seconds:6.2f} s")
    depth = chance["dadama"]
    nodes, seconds = timed(dadama_perft, DadamaGame.opening(), depth)
    print(
        f"{'dadama':14} depth {depth}: {nodes:>10} turn sequences (every throw outcome) in "
        f"{seconds:6.2f} s ({nodes / seconds:,.0f} per s)"
    )
    nodes, seconds = timed(dadama_perft, DadamaGame.opening(), depth, 6)
    print(f"{'dadama, all 6':14} depth {depth}: {nodes:>10} in {seconds:6.2f} s")


if __name__ == "__main__":
    main()
