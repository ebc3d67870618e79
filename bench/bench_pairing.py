"""How long the organiser waits for a Swiss round to be paired, and for the standings.

A whole Swiss of N players is played with seeded random results (a third each of Blue wins,
Red wins and draws, Damath scores to match) through ``Tournament`` on a real SQLite file:
each round's ``pair`` (history, the engine, the checks, the colours, the write) and the final
``standings`` (every tie-break) are timed.

Run: .venv/bin/python bench/bench_pairing.py [--players 16,64,128] [--rounds 7]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import tempfile
import time
from fractions import Fraction

import caissify_pairings  # noqa: F401  (imported here: its import is not a round's wait)

from controller.rules.values import Sqrt2
from controller.tournament.model import TIEBREAKS, Division, Event, GameResult
from controller.tournament.tournament import Tournament


def score(n: int) -> Sqrt2:
    return Sqrt2(Fraction(n), Fraction(0))


def run(players: int, rounds: int, seed: int = 1) -> tuple[list[float], float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        event = Event("bench", tiebreaks=tuple(TIEBREAKS))
        t = Tournament.create(d, event, Division("open", "swiss", rounds))
        t.add_players((f"P{i:03}", "", "open", 2000 - i) for i in range(players))
        times = []
        for rnd in range(1, rounds + 1):
            start = time.perf_counter()
            made = t.pair(rnd)
            times.append(time.perf_counter() - start)
            for p in made:
                if p.is_bye:
                    continue
                a, b = rng.randint(0, 60), rng.randint(0, 60)
                outcome = "blue" if a > b else "red" if b > a else "draw"
                t.record_result(p.id, GameResult(outcome, score(a), score(b)))
        start = time.perf_counter()
        t.standings()
        table = time.perf_counter() - start
        t.close()
    return times, table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="16,64,128")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| players | rounds | pair: median s | pair: slowest s | standings s |")
    print("|---|---|---|---|---|")
    for n in (int(x) for x in args.players.split(",")):
        times, table = run(n, args.rounds)
        print(
            f"| {n} | {args.rounds} | {statistics.median(times):.2f} | {max(times):.2f} "
            f"| {table:.3f} |"
        )


if __name__ == "__main__":
    main()
