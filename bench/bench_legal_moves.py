"""Legal moves of Damath positions: median and 99th percentile time per position.

Positions come from seeded random games in every variant and both profiles; each timing is
the first (uncached) call of ``Game.legal_moves()``, Move records and takings included.
Run: .venv/bin/python bench/bench_legal_moves.py
"""

from __future__ import annotations

import platform
import random
import statistics
import time

from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.notation import game_from_json, game_to_json


def sample_positions(count_per_variant: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for variant in damath_data.VARIANTS:
        for profile in ("official", "online"):
            for _ in range(count_per_variant):
                game = Game.new(variant, profile)
                for _ in range(rng.randint(0, 80)):
                    moves = game.legal_moves()
                    if not moves or game.is_over():
                        break
                    game.push(rng.choice(moves))
                out.append(game_to_json(game))
    return out


def main() -> None:
    positions = sample_positions(40)
    times = []
    for _ in range(5):
        games = [game_from_json(p) for p in positions]
        for game in games:
            start = time.perf_counter()
            game.legal_moves()
            times.append(time.perf_counter() - start)
    times.sort()
    median = statistics.median(times) * 1e6
    p99 = times[int(len(times) * 0.99)] * 1e6
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"{len(positions)} positions x 5: legal moves median {median:.0f} us, p99 {p99:.0f} us,")
    print(f"max {times[-1] * 1e6:.0f} us")


if __name__ == "__main__":
    main()
