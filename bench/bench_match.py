"""A match between two players (bench/players.py): the engine's strength, measured.

Openings: from each variant's starting position, a few random plies (seeded), cycling through
the seven variants and both rules profiles; each opening is played twice, the players swapping
colours. Time a move is CPU time (``time.process_time``), the same budget for both players
whatever else runs on the machine. A game ends by the rules (no chip, no move, repetition) or,
standing in for the 20-minute game clock, after ``--max-plies`` plies; the remaining chips are
then counted and the greater grand total wins (RULES.md §5), scored by the rules engine.

Run from the repository root, e.g.:

    .venv/bin/python bench/bench_match.py engine:ms=1000 proxy:ms=1000 --games 100 --jobs 2

It prints one line per game and a summary (points of the first player, wins/draws/losses, the
score with a 95 % interval, the mean grand-total difference in ordinary takings, time and
nodes a move per player); ``--out FILE`` keeps every game as a JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from players import build

from controller.engine.position import game_totals
from controller.rules import damath_data
from controller.rules.game import Game
from controller.rules.scoring import remaining_chips_score
from controller.rules.scoring import sign as exact_sign

PROFILES = ("official", "online")


def opening(index: int, plies: int, seed: int) -> tuple[str, str, list[list[list[int]]]]:
    """Opening ``index``: a variant, a profile and ``plies`` random moves (seeded)."""
    variant = damath_data.VARIANTS[index % len(damath_data.VARIANTS)]
    profile = PROFILES[(index // len(damath_data.VARIANTS)) % 2]
    rng = random.Random(seed * 1_000_003 + index)
    game = Game.new(variant, profile)
    moves = []
    for _ in range(plies):
        legal = game.legal_moves()
        if not legal or game.ending():
            break
        move = rng.choice(legal)
        game.push(move)
        moves.append([list(sq) for sq in move.path])
    return variant, profile, moves


def play(task: tuple[int, int, str, str, int, int, int]) -> dict:
    """One game: ``first`` plays Blue when ``swap`` is 0, Red when it is 1."""
    index, swap, first, second, plies, seed, max_plies = task
    variant, profile, moves = opening(index, plies, seed)
    game = Game.new(variant, profile)
    for path in moves:
        game.push(game.find_move([tuple(sq) for sq in path]))
    players = [build(first, seed + index), build(second, seed + index + 7)]
    blue, red = (players[0], players[1]) if swap == 0 else (players[1], players[0])
    start = time.monotonic()
    while game.ending() is None and game.ply < max_plies:
        mover = blue if game.side_to_move == 0 else red
        game.push(mover.choose(game))
    ending = game.ending()
    totals = game_totals(game)
    assert game.profile is not None
    rc_profile = "official" if game.profile.remaining_dama_double else "online"
    chips = game.chips()
    grand = [totals[s] + remaining_chips_score(chips, s, variant, rc_profile).score for s in (0, 1)]
    diff = grand[0] - grand[1]
    first_side = swap  # the side the first player had: 0 Blue, 1 Red
    sign = 1 if first_side == 0 else -1
    s = exact_sign(diff) * sign
    points = 1.0 if s > 0 else 0.5 if s == 0 else 0.0
    unit = typical_points(variant, profile) or 1.0
    stats = {}
    for who, p in (("first", players[0]), ("second", players[1])):
        stats[who] = {
            "moves": getattr(p, "moves", 0),
            "seconds": round(getattr(p, "seconds_used", 0.0), 3),
            "nodes": getattr(p, "nodes", 0),
        }
    return {
        "opening": index,
        "variant": variant,
        "profile": profile,
        "first_is": "blue" if swap == 0 else "red",
        "plies": game.ply,
        "ending": ending.reason if ending else "ply-limit",
        "diff_first": sign * float(diff),
        "diff_first_takings": sign * float(diff) / unit,
        "points_first": points,
        "seconds": round(time.monotonic() - start, 1),
        "stats": stats,
    }


_TYPICAL: dict[tuple[str, str], float] = {}


def typical_points(variant: str, profile: str) -> float:
    """One ordinary taking of the variant in points (the engine's unit of heuristic terms)."""
    key = (variant, profile)
    if key not in _TYPICAL:
        from controller.engine.evaluation import DEFAULT_WEIGHTS
        from controller.engine.position import Position

        pos = Position.from_game(Game.new(variant, profile), DEFAULT_WEIGHTS)
        _TYPICAL[key] = pos.tables.scale.points(pos.tables.typical)
    return _TYPICAL[key]


def summary(first: str, second: str, games: list[dict]) -> str:
    n = len(games)
    pts = sum(g["points_first"] for g in games)
    wins = sum(1 for g in games if g["points_first"] == 1.0)
    draws = sum(1 for g in games if g["points_first"] == 0.5)
    losses = n - wins - draws
    p = pts / n
    # 95 % interval of the mean score per game (normal approximation over game results).
    var = sum((g["points_first"] - p) ** 2 for g in games) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    mean_diff = sum(g["diff_first_takings"] for g in games) / n
    endings: dict[str, int] = {}
    for g in games:
        endings[g["ending"]] = endings.get(g["ending"], 0) + 1
    lines = [
        f"{first} vs {second}: {n} games, {pts:g} points to {n - pts:g} "
        f"(+{wins} ={draws} -{losses}), score {100 * p:.1f} % "
        f"(95 % interval {100 * max(0, p - half):.1f}–{100 * min(1, p + half):.1f} %), "
        f"mean grand-total difference {mean_diff:+.2f} takings",
        "endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())),
    ]
    for who, name in (("first", first), ("second", second)):
        moves = sum(g["stats"][who]["moves"] for g in games)
        secs = sum(g["stats"][who]["seconds"] for g in games)
        nodes = sum(g["stats"][who]["nodes"] for g in games)
        if moves:
            lines.append(
                f"{name}: {moves} moves, {secs / moves:.3f} s a move, "
                f"{nodes / moves:,.0f} nodes a move, {nodes / max(secs, 1e-9):,.0f} nodes/s"
            )
    by_variant: dict[str, list[float]] = {}
    for g in games:
        by_variant.setdefault(g["variant"], []).append(g["points_first"])
    lines.append(
        "by variant: "
        + ", ".join(f"{v} {sum(x):g}/{len(x)}" for v, x in sorted(by_variant.items()))
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=20, help="an even number: openings × 2")
    parser.add_argument("--plies", type=int, default=4, help="random plies of each opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", help="keep every game as a JSON line")
    parser.add_argument(
        "--start", type=int, default=0, help="skip the first games (resume an interrupted --out)"
    )
    parser.add_argument(
        "--summary-of", metavar="FILE", help="only summarise the games kept in FILE by --out"
    )
    args = parser.parse_args()
    if args.summary_of:
        with open(args.summary_of, encoding="utf-8") as kept:
            games = [json.loads(line) for line in kept if line.strip()]
        print(summary(args.first, args.second, games))
        return
    print(
        f"python {platform.python_version()} on {platform.machine()}; "
        f"{args.first} vs {args.second}, {args.games} games, seed {args.seed}",
        flush=True,
    )
    tasks = [
        (i // 2, i % 2, args.first, args.second, args.plies, args.seed, args.max_plies)
        for i in range(args.start, args.games)
    ]
    games = []
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for g in pool.map(play, tasks):
            games.append(g)
            print(
                f"{args.start + len(games):3} opening {g['opening']:2} "
                f"{g['variant']:10} {g['profile']:8} "
                f"first={g['first_is']:4} plies {g['plies']:3} {g['ending']:10} "
                f"diff {g['diff_first']:+10.2f} points {g['points_first']}",
                flush=True,
            )
            if out:
                out.write(json.dumps({"first": args.first, "second": args.second, **g}) + "\n")
                out.flush()
    if out:
        out.close()
    print(summary(args.first, args.second, games))


if __name__ == "__main__":
    main()
