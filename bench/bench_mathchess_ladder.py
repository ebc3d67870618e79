"""Mathematical Chess's computer: each level against the one below, and the top level against a
one-ply greedy player, over seeded openings with both colours.

An opening is Prepare now! played at random from its seed (every piece placed, so the games
start at Play now! from varied boards); each opening is played twice, the colours swapped.
A game stops at ``--max-turns`` whole turns of Play now! and is then decided on the score, as
a game stopped by its time limit is (C-11). Prints each pairing's wins, draws and losses for
the stronger side, and the top level's time per turn (max, median).
Run: .venv/bin/python bench/bench_mathchess_ladder.py --games 4 --max-turns 20
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from controller.games.computer import Level
from controller.games.mathchess.computer import COMPUTER, MathChessRules
from controller.games.search import Search
from controller.rules.mathchess import Phase, Position, Stop, play_turn

GREEDY = Level(0, "greedy", 1, None, 0.0, quiescence=False)
"""One ply, its best turn by the evaluation, no follow-up of takings."""


def opening(seed: int) -> Position:
    rng = random.Random(seed)
    position = Position.start()
    while position.phase is Phase.PREPARE:
        position = position.apply(rng.choice(position.legal_placements()))
    return position


def play(
    white: Level, black: Level, start: Position, seed: int, max_turns: int, times: list[float]
) -> int | None:
    """The winner (0 White, 1 Black) or None; the top level's times per turn go to ``times``."""
    position = start
    for n in range(max_turns):
        if position.phase is Phase.OVER:
            break
        level = (white, black)[position.to_move]
        begun = time.perf_counter()
        found = Search(MathChessRules()).choose(position, level, seed * 1000 + n)
        if level is COMPUTER.top:
            times.append(time.perf_counter() - begun)
        position = play_turn(position, found.move)
    if position.phase is not Phase.OVER:
        position = position.apply(Stop("time"))
    ending = position.ending()
    assert ending is not None
    return ending.winner


def level_of(text: str) -> Level:
    try:
        return COMPUTER.level(int(text))
    except ValueError as exc:
        raise SystemExit(f"--levels: {exc}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games a pairing (even: colours)")
    parser.add_argument(
        "--levels",
        default=",".join(str(lv.number) for lv in COMPUTER.levels[1:]),
        help="the levels that meet the level below, comma-separated (default 2 to the top)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the first opening's seed")
    parser.add_argument("--max-turns", type=int, default=20, help="turns of Play now! a game")
    parser.add_argument("--no-greedy", action="store_true", help="skip the top vs greedy")
    args = parser.parse_args()
    if args.games < 1 or args.max_turns < 1:
        raise SystemExit("--games and --max-turns: at least 1")
    strong = [level_of(t) for t in args.levels.split(",") if t.strip()]
    pairings = [(lv, COMPUTER.level(lv.number - 1)) for lv in strong if lv.number > 1]
    if not args.no_greedy:
        pairings.append((COMPUTER.top, GREEDY))
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {sys.platform}"
    )
    times: list[float] = []
    for high, low in pairings:
        won = drawn = lost = 0
        begun = time.perf_counter()
        for g in range(args.games):
            seed = args.seed + g // 2
            start = opening(seed)
            white, black = (high, low) if g % 2 == 0 else (low, high)
            winner = play(white, black, start, seed, args.max_turns, times)
            mine = 0 if g % 2 == 0 else 1
            if winner is None:
                drawn += 1
            elif winner == mine:
                won += 1
            else:
                lost += 1
        print(
            f"level {high.number} ({high.name}) vs {low.number or 'greedy'} ({low.name}): "
            f"{won} won, {drawn} drawn, {lost} lost over {args.games} games "
            f"({time.perf_counter() - begun:.0f} s)",
            flush=True,
        )
    if times:
        print(
            f"level {COMPUTER.top.number}'s time per turn: max {max(times):.2f} s, "
            f"median {statistics.median(times):.2f} s over {len(times)} turns"
        )


if __name__ == "__main__":
    main()
