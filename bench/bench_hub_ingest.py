"""The hub's own share of the latency, without a broker, boards or a browser around it.

Run from the repository root: ``.venv/bin/python bench/bench_hub_ingest.py [--compare SRC]``.
The sealed records of 200 boards (the bundled sample game, each board with its own key, as its
link seals them) and each board's retained state after each record arrive at the hub's ingest
(the real ``Ingest`` worker thread, a real SQLite store in WAL with ``synchronous=FULL`` on
this machine's disk) at ``--rate`` records a second, interleaved across the boards as at 10x
tournament pace (75 moves a second). Per record: from its arrival in the hub's queue to the
wall's update (``Live.update``) and to the board's acknowledgement (after the commit).

``--compare SRC`` runs the same thing, in the same run and alternately, with the hub's code
from another checkout's ``SRC/controller`` (say, ``git archive main controller | tar -x -C
/tmp/main``), and prints the ratio: the machine's load hits both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sealed_games(boards: int, folder: Path) -> list[list[tuple[str, bytes, bytes]]]:
    """Per board: (topic, record payload, state payload) for each record of the sample game."""
    from controller.link.follower import Follower
    from controller.link.playback import PlaybackBoard, sample_game_moves
    from controller.link.protocol import board_topic, canonical

    play = PlaybackBoard(folder / "board", sync=False)
    play.play_moves(sample_game_moves()[1])
    play.close()
    out = []
    for n in range(boards):
        board = f"b{n:03d}"
        follower = Follower(folder / "board", board, bytes([n % 256]) * 32,
                            state_path=folder / f"state-{board}.json")  # fmt: skip
        (game,) = follower.scan()
        rows = []
        for env in game.envelopes:
            state = {"v": 1, "board": board, "game": env.game, "seq": env.seq, "problems": []}
            rows.append((board_topic(board, "records"), env.payload(), canonical(state)))
        out.append(rows)
    return out


def measure(boards: int, rate: float, seconds: float) -> dict:
    from controller.hub.ingest import Ingest
    from controller.hub.live import Live
    from controller.hub.store import Store
    from controller.link.protocol import board_topic

    base = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    games = sealed_games(boards, base)
    store = Store(base / "hub.sqlite", "bench")
    for n in range(boards):
        store.add_board(f"b{n:03d}", (bytes([n % 256]) * 32).hex())
    arrived: dict[tuple[str, int], float] = {}
    shown: dict[tuple[str, int], float] = {}
    acked: dict[tuple[str, int], float] = {}

    class Wall(Live):
        def update(self, card, detail=None):
            now = time.perf_counter()
            for seq in range(1, card["seq"] + 1):
                shown.setdefault((card["board"], seq), now)

    class Acks:
        def publish(self, topic, payload, qos=0):
            now, board = time.perf_counter(), topic.split("/")[3]
            for seq in range(1, json.loads(payload)["seq"] + 1):
                acked.setdefault((board, seq), now)

    ingest = Ingest(store, Wall(), None)
    ingest.client = Acks()
    worker = threading.Thread(target=ingest._work, daemon=True)
    worker.start()
    order = [(n, i) for i in range(max(len(g) for g in games)) for n in range(boards)
             if i < len(games[n])]  # fmt: skip
    start = time.perf_counter()
    sent = 0
    for sent, (n, i) in enumerate(order, start=1):
        due = start + sent / rate
        while (now := time.perf_counter()) < due:
            time.sleep(min(0.002, due - now))
        if now - start > seconds:
            break
        topic, record, state = games[n][i]
        board = f"b{n:03d}"
        arrived[(board, i + 1)] = time.perf_counter()
        ingest.queue.put(("mqtt", topic, record, time.time()))
        ingest.queue.put(("mqtt", board_topic(board, "state"), state, time.time()))
    deadline = time.perf_counter() + 30
    while len(acked) < len(arrived) and time.perf_counter() < deadline:
        time.sleep(0.05)
    ingest._stopping.set()
    ingest.queue.put(("show", "", b"", 0.0))
    worker.join(5)
    store.close()

    def pct(values: list[float], p: float) -> float:
        values = sorted(values)
        return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 1)

    to_wall = [shown[k] - t for k, t in arrived.items() if k in shown]
    to_ack = [acked[k] - t for k, t in arrived.items() if k in acked]
    return {
        "records": len(arrived),
        "acknowledged": len(to_ack),
        "rate": rate,
        "to_wall_ms": {
            "p50": pct(to_wall, 0.5),
            "p99": pct(to_wall, 0.99),
            "mean": round(statistics.mean(to_wall) * 1000, 1),
        },
        "to_ack_ms": {"p50": pct(to_ack, 0.5), "p99": pct(to_ack, 0.99)},
        "load_average": round(os.getloadavg()[0], 1),
    }


def run_with(src: str | None, args: argparse.Namespace) -> dict:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src  # the hub's code from there; this file's helpers too
    cmd = [sys.executable, __file__, "--child", "--boards", str(args.boards), "--rate",
           str(args.rate), "--seconds", str(args.seconds)]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/", check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--rate", type=float, default=90.0, help="records a second (90)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--compare", metavar="SRC", help="also the hub's code from SRC")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.boards, args.rate, args.seconds)))
        return 0
    rows = []
    for _ in range(args.rounds):
        for label, src in (("this", str(ROOT)), ("compare", args.compare)):
            if src is None:
                continue
            r = run_with(src, args)
            r["code"] = label
            rows.append(r)
            print(json.dumps(r), flush=True)
    if args.compare:
        for key in ("to_wall_ms", "to_ack_ms"):
            for q in ("p50", "p99"):
                this = statistics.median(r[key][q] for r in rows if r["code"] == "this")
                other = statistics.median(r[key][q] for r in rows if r["code"] == "compare")
                print(f"{key} {q}: this {this} ms, compare {other} ms, ratio {other / this:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
