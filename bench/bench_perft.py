"""Perft speed: our generator side by side with pydraughts, same rule set, same depth, one run.

Both sides count the last ply without playing it (bulk counting) so the comparison is fair.
Run: .venv/bin/python bench/bench_perft.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from draughts import Board as PyBoard

from controller.rules.pdn import board_from_fen
from controller.rules.perft import perft

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shallower, for a smoke run")
    args = parser.parse_args()
    side_by_side = {"english": 5, "international": 4, "italian": 5, "brazilian": 5}
    deep = {"english": 8, "italian": 8, "brazilian": 8, "international": 7}
    if args.quick:
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


if __name__ == "__main__":
    main()
