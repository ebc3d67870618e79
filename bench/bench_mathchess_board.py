"""Mathematical Chess on a board: what one sensor change costs the board (C-13).

For every position right after a move that allows a removal (the seeded random games of
``bench_mathchess.sample``), the pieces the turn may take are lifted one at a time, each as one
frame of the 81 point sensors; timed per frame: the tracker's reading (the lifted set explained
by the rules engine, a wrong piece refused), the LEDs' meanings (what may still be removed,
``still_removable_rules``), and the simulator's whole JSON state for its page.
Run: .venv/bin/python bench/bench_mathchess_board.py
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mathchess import sample

from controller.games.mathchess.kind import MathChessGame
from controller.games.mathchess.leds import point_colours
from controller.games.mathchess.session import MathChessSession
from controller.rules.mathchess import Phase, Position, removal_sets
from controller.sim.engine import SimBoard


def occupied(position: Position) -> frozenset[tuple[int, int]]:
    return frozenset(p for p, _piece in position.board.pieces())


def main() -> None:
    after_move, _starts = sample()
    cases = [p for p in after_move if p.phase is Phase.PLAY and p.turn and p.removable()]
    frame_ms: list[float] = []
    leds_ms: list[float] = []
    state_ms: list[float] = []
    board = SimBoard("bench", time.monotonic, defaults={"game": "mathchess"})
    for position in cases:
        # the move is already made: the session reads the pieces lifted after it
        session = MathChessSession.start(position)
        board.game = MathChessGame(session)
        now = set(occupied(position))
        session.frame(frozenset(now))
        biggest = max(removal_sets(position), key=len)
        for point in sorted(biggest):
            now.discard(point)
            t0 = time.perf_counter()
            session.frame(frozenset(now))
            t1 = time.perf_counter()
            point_colours(session.tracker, 0.0)
            t2 = time.perf_counter()
            board.snapshot()
            t3 = time.perf_counter()
            frame_ms.append((t1 - t0) * 1000)
            leds_ms.append((t2 - t1) * 1000)
            state_ms.append((t3 - t2) * 1000)
    print(f"python {platform.python_version()} on {platform.machine()}, {len(cases)} positions")
    print("| work per piece lifted | frames | median | p99 | max |")
    print("|---|---|---|---|---|")
    for label, values in (
        ("tracker: the lifted set explained", frame_ms),
        ("LEDs: what may still be removed", leds_ms),
        ("simulator: the page's whole state", state_ms),
    ):
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(
            f"| {label} | {len(values)} | {statistics.median(values):.2f} ms | {p99:.2f} ms "
            f"| {values[-1]:.2f} ms |"
        )


if __name__ == "__main__":
    main()
