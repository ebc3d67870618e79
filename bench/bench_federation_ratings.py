"""A federation of 100,000 games rated from scratch, on PostgreSQL and on SQLite: the time and
the memory of the rating run, and whether the ratings find the players' true order.

The league is bench/fedsim.py's (a strength model calibrated on the engine's levels; read its
docstring): ``--players`` in ``--regions``, each region holding ``--events-per-month`` events
of ``--event-size`` players and ``--rounds`` rounds, until ``--games`` games are played. The
games go into the store as accepted results (straight into its tables: loading is not what is
measured), then ``damath-board federation rate``'s own code (``Federation.rate``) runs in a
process of its own, timed, its peak memory read from /proc (VmHWM).

Quality, from the rating rows the run stored: after each period, Spearman's rho between the
players' ratings and their true strengths (every player who has played), and how often the
higher-rated player (as of the period before) won a decisive game of the period; with
``--family-sd`` each player also has a strength of their own per variant family, and the family
pools are compared with the overall one on the family's games (log loss: lower is better).

    .venv/bin/python bench/bench_federation_ratings.py                 # both stores, 100,000
    .venv/bin/python bench/bench_federation_ratings.py --store sqlite --games 20000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fedsim import League, spearman  # noqa: E402

from controller.federation import glicko2, ratings  # noqa: E402
from controller.federation import schema as s  # noqa: E402
from controller.federation.ids import make_id  # noqa: E402


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024
    return 0.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


def simulate(args: argparse.Namespace) -> tuple[League, list[dict[str, Any]]]:
    ids = [make_id(100_000 + n) for n in range(args.players)]
    league = League.make(args.players, seed=args.seed, regions=args.regions, ids=ids,
                         family_sd=args.family_sd)  # fmt: skip
    field_size = min(args.event_size, args.players // args.regions) // 2 * 2
    per_month = args.regions * args.events_per_month * (field_size // 2) * args.rounds
    months = math.ceil(args.games / per_month)
    games = league.play(months, args.event_size, args.rounds, seed=args.seed + 1,
                        events_per_month=args.events_per_month)[: args.games]  # fmt: skip
    return league, games


def load(url: str, league: League, games: list[dict[str, Any]]) -> float:
    """Players, events, their (empty) accepted submissions and every result, in bulk."""
    from sqlalchemy import insert

    from controller.federation.store import FederationStore, now

    store = FederationStore.open(url)
    started = time.perf_counter()
    stamp = now()
    with store.engine.begin() as conn:
        conn.execute(insert(s.player), [
            {"fed_id": pid, "name": f"Player {pid}", "school": league.school[pid],
             "region": league.region[pid], "birth_year": league.birth_year[pid],
             "added_at": stamp, "changed_at": stamp} for pid in league.strength
        ])  # fmt: skip
        events = sorted({(g["event_id"], g["date"]) for g in games})
        conn.execute(insert(s.event), [
            {"id": f"e{n}", "name": ev, "date": date, "region": "", "token_hash": f"{n:064x}",
             "sign_key": "0" * 64, "state": "accepted", "submission_id": n + 1,
             "added_at": stamp} for n, (ev, date) in enumerate(events)
        ])  # fmt: skip
        conn.execute(insert(s.submission), [
            {"id": n + 1, "event_id": f"e{n}", "received_at": stamp, "sha256": "0" * 64,
             "size": 0, "body": b"", "verdict": "accepted", "reasons": "[]", "notes": "[]",
             "games": 0, "records": 0} for n in range(len(events))
        ])  # fmt: skip
        number = {ev: n for n, (ev, _date) in enumerate(events)}
        batch = []
        for g in games:
            n = number[g["event_id"]]
            batch.append({
                "submission_id": n + 1, "event_id": f"e{n}", "date": g["date"],
                "division": "open", "round": g["round"], "table_no": g["table_no"],
                "blue": g["blue"], "red": g["red"], "blue_name": "", "red_name": "",
                "outcome": g["outcome"], "blue_score": None, "red_score": None,
                "source": "board", "reason": "", "corrected": False, "verified": True,
                "variant": "integer", "family": g["family"], "game_id": None,
            })  # fmt: skip
            if len(batch) == 5000:
                conn.execute(insert(s.result), batch)
                batch = []
        if batch:
            conn.execute(insert(s.result), batch)
    seconds = time.perf_counter() - started
    store.close()
    return seconds


def rate_child(url: str) -> dict[str, Any]:
    """In this process: the rating run as the federation does it, timed, its memory read."""
    from controller.federation.service import Federation
    from controller.federation.settings import FederationSettings
    from controller.federation.store import FederationStore

    store = FederationStore.open(url)
    fed = Federation(Path(tempfile.gettempdir()), FederationSettings(), store)
    with store.engine.connect():  # the pool's first connection made before the baseline
        pass
    before = rss_mb()
    started = time.perf_counter()
    run = fed.rate()
    seconds = time.perf_counter() - started
    return {
        "seconds": round(seconds, 2),
        "run_seconds": run.seconds,
        "games": run.games,
        "players": run.players,
        "periods": run.periods,
        "rss_before_mb": round(before, 1),
        "peak_mb": round(peak_mb(), 1),
    }


def quality(url: str, league: League, games: list[dict[str, Any]]) -> dict[str, Any]:
    """Rho per period and the share of decisive games the higher-rated player won."""
    from controller.federation.store import FederationStore

    store = FederationStore.open(url)
    pools = {pool: store.ratings(pool) for pool in ratings.POOLS}
    store.close()
    periods = sorted({r["period"] for r in pools["all"]})
    by_period: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for pool, rows in pools.items():
        for r in rows:
            by_period.setdefault(r["period"], {}).setdefault(pool, {})[r["fed_id"]] = r
    last: dict[str, dict[str, dict[str, Any]]] = {pool: {} for pool in ratings.POOLS}
    rho: list[float] = []
    predicted: list[float | None] = []
    oracle: list[float | None] = []
    loss = {"all": [0.0, 0], "family": [0.0, 0]}
    games_in: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        games_in.setdefault(g["date"][:7], []).append(g)
    half = periods[len(periods) // 2] if periods else ""
    for p in periods:
        idx = ratings.period_index(p + "-01")

        def now(pool: str, pid: str, idx: int = idx) -> glicko2.Rating:
            row = last[pool].get(pid)
            if row is None:
                return glicko2.Rating()
            gap = idx - ratings.period_index(row["period"] + "-01") - 1
            return glicko2.idle(glicko2.Rating(row["rating"], row["rd"], row["volatility"]), gap)

        right = decisive = truth = 0
        for g in games_in.get(p, []):
            a, b = now("all", g["blue"]), now("all", g["red"])
            if g["outcome"] != "draw" and a.rating != b.rating:
                decisive += 1
                right += (a.rating > b.rating) == (g["outcome"] == "blue")
                stronger = league.true(g["blue"], g["family"]) > league.true(g["red"], g["family"])
                truth += stronger == (g["outcome"] == "blue")
            if p >= half:
                score = {"blue": 1.0, "red": 0.0, "draw": 0.5}[g["outcome"]]
                for name, pool in (("all", "all"), ("family", g["family"])):
                    e = glicko2.expected(now(pool, g["blue"]), now(pool, g["red"]))
                    e = min(max(e, 1e-9), 1 - 1e-9)
                    loss[name][0] -= score * math.log(e) + (1 - score) * math.log(1 - e)
                    loss[name][1] += 1
        predicted.append(round(right / decisive, 3) if decisive else None)
        oracle.append(round(truth / decisive, 3) if decisive else None)
        for pool, rows in by_period.get(p, {}).items():
            last[pool].update(rows)
        played = sorted(last["all"])
        rho.append(round(spearman([last["all"][i]["rating"] for i in played],
                                  [league.strength[i] for i in played]), 3))  # fmt: skip
    return {
        "period_names": periods,
        "rho": rho,
        "higher_rated_won": predicted,
        "truly_stronger_won": oracle,
        "log_loss_second_half": {
            k: round(v[0] / v[1], 4) if v[1] else None for k, v in loss.items()
        },
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--players", type=int, default=2000)
    p.add_argument("--regions", type=int, default=10)
    p.add_argument("--event-size", type=int, default=40)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--events-per-month", type=int, default=4)
    p.add_argument("--family-sd", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--store", choices=("both", "sqlite", "postgresql"), default="both")
    p.add_argument("--json", metavar="FILE")
    p.add_argument("--rate-only", metavar="URL", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.rate_only:
        print(json.dumps(rate_child(args.rate_only)))
        return 0
    started = time.perf_counter()
    league, games = simulate(args)
    print(f"simulated {len(games)} games of {args.players} players in "
          f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    stores = ["postgresql", "sqlite"] if args.store == "both" else [args.store]
    out: dict[str, Any] = {"games": len(games), "players": args.players,
                           "machine": machine(), "stores": {}}  # fmt: skip
    for kind in stores:
        with tempfile.TemporaryDirectory(prefix="damath-fed-bench-") as tmp:
            pg = None
            if kind == "postgresql":
                from tests.federation.services import Postgres

                pg = Postgres().start()
                url = pg.url()
            else:
                url = str(Path(tmp) / "federation.sqlite")
            try:
                loaded = load(url, league, games)
                child = subprocess.run(
                    [sys.executable, __file__, "--rate-only", url],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                figures = json.loads(child.stdout.strip().splitlines()[-1])
                figures["load_seconds"] = round(loaded, 1)
                figures.update(quality(url, league, games))
            finally:
                if pg is not None:
                    pg.stop()
        out["stores"][kind] = figures
        print(f"{kind}: rated {figures['games']} games of {figures['players']} players in "
              f"{figures['periods']} periods: {figures['seconds']} s, peak "
              f"{figures['peak_mb']} MB (before the run {figures['rss_before_mb']} MB)",
              flush=True)  # fmt: skip
    first = next(iter(out["stores"].values()))
    names = first["period_names"]
    marks = [0, 1, 2, 5, 11, 17, len(names) - 1]
    print("period   rho    higher-rated won  truly stronger won")
    for i in sorted({m for m in marks if 0 <= m < len(names)}):
        print(f"{names[i]}  {first['rho'][i]:.3f}  {first['higher_rated_won'][i]}  "
              f"{first['truly_stronger_won'][i]}")  # fmt: skip
    print("log loss, second half:", first["log_loss_second_half"])
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


def machine() -> str:
    model = ""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{model}, {os.cpu_count()} cores, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    sys.exit(main())
