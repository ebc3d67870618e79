"""The engine's speed: nodes a second, side by side with the rules engine's perft, and the depth
it reaches in a given time; with an estimate for a Raspberry Pi 4.

Positions: seeded random games in every variant and both profiles (10–50 plies). For each, in
one run: the engine's search to a fixed depth (nodes, seconds) and the rules engine's perft to
depth 3 (bulk counting, as bench/bench_perft.py), so the ratio of the two speeds comes from
the same positions on the same machine at the same moment.

Times are CPU time of the process (``time.process_time``): the machine is shared with other
jobs, and CPU time is what a Pi would spend. Run from the repository root:
``.venv/bin/python bench/bench_engine.py [--quick]``.
The Pi 4 figure is an estimate: see bench/pi_estimate.py.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pi_estimate import PI4_FACTOR

from controller.engine.evaluation import DEFAULT_WEIGHTS
from controller.engine.position import Position
from controller.engine.search import Limits, Search
from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.perft import perft


def positions(per_variant: int, seed: int = 3) -> list[Game]:
    rng = random.Random(seed)
    out = []
    for variant in damath_data.VARIANTS:
        for n in range(per_variant):
            game = Game.new(variant, ("official", "online")[n % 2])
            for _ in range(rng.randrange(10, 50)):
                if game.ending() is not None:
                    break
                game.push(rng.choice(game.legal_moves()))
            if game.ending() is None:
                out.append(game)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--depth", type=int, default=7)
    args = parser.parse_args()
    per_variant = 2 if args.quick else 6
    depth = args.depth - 2 if args.quick else args.depth
    games = positions(per_variant)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor()})")
    print(f"{len(games)} positions, search depth {depth}, perft depth 3\n")
    print(f"{'variant':12} {'search nodes':>12} {'search n/s':>11} {'perft n/s':>10} {'ratio':>6}")
    rows = {}
    for game in games:
        pos = Position.from_game(game, DEFAULT_WEIGHTS)
        t = time.process_time()
        search = Search(pos)
        search.run(Limits(depth=depth))
        s_sec = time.process_time() - t
        board = game.generator_board()
        t = time.process_time()
        p_nodes = perft(board, 3)
        p_sec = time.process_time() - t
        r = rows.setdefault(game.variant, [0, 0.0, 0, 0.0])
        r[0] += search.nodes
        r[1] += s_sec
        r[2] += p_nodes
        r[3] += p_sec
    total = [0, 0.0, 0, 0.0]
    for variant, (sn, ss, pn, ps) in rows.items():
        ratio = sn / ss / (pn / ps)
        print(f"{variant:12} {sn:>12,} {sn / ss:>11,.0f} {pn / ps:>10,.0f} {ratio:>6.2f}")
        for i, v in enumerate((sn, ss, pn, ps)):
            total[i] += v
    sn, ss, pn, ps = total
    print(f"{'all':12} {sn:>12,} {sn / ss:>11,.0f} {pn / ps:>10,.0f} {sn / ss / (pn / ps):>6.2f}")

    print("\ntime to finish a depth from scratch (fresh tables, as for one move), median:")
    sample = games[:: max(1, len(games) // (7 if args.quick else 14))]
    print(
        f"{'depth':>5} {'seconds here':>13} {'Pi 4 estimate':>14}   (Pi 4 = here × {PI4_FACTOR:g})"
    )
    for d in range(1, (depth if args.quick else depth + 3) + 1):
        times = []
        for game in sample:
            pos = Position.from_game(game, DEFAULT_WEIGHTS)
            t = time.process_time()
            Search(pos).run(Limits(depth=d))
            times.append(time.process_time() - t)
        m = statistics.median(times)
        print(f"{d:>5} {m:>13.3f} {m * PI4_FACTOR:>14.3f}")


if __name__ == "__main__":
    main()
