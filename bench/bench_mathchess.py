"""Mathematical Chess: how long the engine takes to say what a player may remove.

Positions come from seeded random games (every level, boards of 9 and of 6 lines, pieces placed
anywhere on the 6-line board to crowd its lines): every position right after a move, the
moment a page or the board asks "what can this player remove now, and by which rule".
Measured per position, in 3 rounds (the partial-value cache cleared before each round):
``removal_options()`` (every match with its arithmetic; also at the start of a turn, where
every operator on the board is looked at for removals without moving), ``removal_sets()``
(every set of pieces the turn could still remove, going on included: what the board needs to
check lifted pieces and light what may still be taken), and ``turns()`` at the start of a
turn (every whole turn: each move with each set of removals it allows).
Run: .venv/bin/python bench/bench_mathchess.py
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from collections.abc import Callable

from controller.rules.mathchess import (
    Done,
    MathChessSettings,
    Pass,
    Phase,
    Position,
    Remove,
    from_level,
    removal_sets,
    turns,
)
from controller.rules.mathchess.arithmetic import recipes


def sample(seed: int = 1) -> tuple[list[Position], list[Position]]:
    """Positions after a move, and positions at the start of a turn, from random games."""
    rng = random.Random(seed)
    after_move: list[Position] = []
    starts: list[Position] = []
    for level in range(1, 11):
        for settings in (MathChessSettings(), MathChessSettings(size=6, placement="anywhere")):
            for _ in range(3):
                pos = Position.start(from_level(level, digits=9), settings)
                for _ in range(80):
                    if pos.phase is Phase.OVER:
                        break
                    if pos.phase is Phase.PREPARE:
                        pos = pos.apply(rng.choice(pos.legal_placements()))
                        continue
                    starts.append(pos)
                    moves = pos.legal_moves()
                    if not moves:
                        pos = pos.apply(Pass())
                        continue
                    pos = pos.apply(rng.choice(moves))
                    after_move.append(pos)
                    options = pos.removable()
                    if options and rng.random() < 0.7:
                        pos = pos.apply(Remove(frozenset(rng.sample(sorted(options), 1))))
                    if pos.phase is not Phase.OVER:
                        pos = pos.apply(Done())
    return after_move, starts


def timed(label: str, positions: list[Position], work: Callable[[Position], object]) -> None:
    times = []
    for _ in range(3):
        recipes.cache_clear()
        for pos in positions:
            start = time.perf_counter()
            work(pos)
            times.append(time.perf_counter() - start)
    times.sort()
    median = statistics.median(times) * 1e6
    p99 = times[int(len(times) * 0.99)] * 1e6
    print(
        f"{label:<20} {len(positions):>5} positions x 3: median {median:8.0f} us, "
        f"p99 {p99:8.0f} us, max {times[-1] * 1e6:8.0f} us"
    )


def main() -> None:
    after_move, starts = sample()
    with_removals = [p for p in after_move if p.removable()]
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(
        f"{len(after_move)} positions after a move ({len(with_removals)} with a removal), "
        f"{len(starts)} at the start of a turn"
    )
    timed("removal_options()", after_move, lambda p: p.removal_options())
    timed("  with a removal", with_removals, lambda p: p.removal_options())
    timed("  at a turn's start", starts, lambda p: p.removal_options())
    timed("removal_sets()", with_removals, removal_sets)
    timed("turns()", starts, turns)


if __name__ == "__main__":
    main()
