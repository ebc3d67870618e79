"""Hub benchmark: 200 simulated boards publishing through the real broker to the real hub.

Run from the repository root: ``.venv/bin/python bench/bench_hub.py`` (about 4 minutes;
``--boards``, ``--seconds``, ``--paces`` to change it). What it does, per pace:

- ``damath-board hub`` in a fresh event directory (its own Mosquitto), 200 boards added;
- worker processes, each holding a share of the boards: every board is its own session
  (``PlaybackBoard``: simulated hands, tracker, rules engine, fsynced journal) and its own
  ``Link`` (its own MQTT connection, signing every record), as on 200 Pis;
- each board plays the bundled sample game, one move every ``25 s / pace`` on average (uniform
  from half to one and a half of it): pace 1 is a tournament (a 20-minute game of about 50
  moves), pace 10 ten times that;
- the spectator wall open in Debian's Chromium, which notes when each card update is on the page.

Figures: moves accepted and moves in the hub's store (loss), records stored once (duplicates
would break the store's key; the check compares every journal with the store), latency from a
board's accepted move (its journal record written) to the wall showing it (p50/p95/p99/max),
the hub's CPU (per cent of one core) and peak RSS, the broker's too.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EXE = str(ROOT / ".venv" / "bin" / "damath-board")
CHROMIUM = os.environ.get("DAMATH_CHROMIUM", "/usr/bin/chromium")
TOURNAMENT_SECONDS_PER_MOVE = 25.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int, peak: bool = True) -> float:
    name = "VmHWM" if peak else "VmRSS"
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(name):
            return int(line.split()[1]) / 1024
    return 0.0


def worker(boards: list[tuple[str, str, str]], seconds: float, interval: float, seed: int,
           out: str, ready, go) -> None:  # fmt: skip
    """Boards of one process: play a move when its time comes; note when each was accepted."""
    from controller.link.config import load
    from controller.link.playback import PlaybackBoard, sample_game_moves
    from controller.link.publisher import Link

    moves = sample_game_moves()[1]
    rng = random.Random(seed)
    accepted: list[tuple[str, int, float]] = []
    state = []
    for board, folder, conn in boards:
        link = Link(load(conn), folder, poll_seconds=0.5, resend_seconds=5.0).start()

        def noted(pb, count, board=board, link=link, last=[0]):  # noqa: B006
            ply = pb.session.game.ply
            if ply > last[0]:
                accepted.append((board, count, time.time()))
            last[0] = ply
            link.nudge()

        play = PlaybackBoard(folder, on_record=noted)
        play.play_moves([])  # the opening stands on the board: the game is ready
        state.append([board, link, play, 0])
    ready.set()
    go.wait()
    start = time.monotonic()
    due = [start + rng.uniform(0, interval) for _ in state]
    while time.monotonic() - start < seconds:
        now = time.monotonic()
        i = min(range(len(due)), key=due.__getitem__)
        if due[i] > now:
            time.sleep(min(0.05, due[i] - now))
            continue
        board, link, play, n = state[i]
        if n < len(moves):
            play.play_moves([moves[n]], seed=n)
            state[i][3] = n + 1
        due[i] = now + rng.uniform(0.5, 1.5) * interval
    for _, link, play, _ in state:
        play.close()  # the boards stop first (a last clock checkpoint), then their links
        link.nudge()
    deadline = time.monotonic() + 120
    while any(s[1].status().unacked for s in state) and time.monotonic() < deadline:
        time.sleep(0.2)
    for _, link, _, _ in state:
        link.stop(5.0)
    unacked = sum(s[1].status().unacked for s in state)
    Path(out).write_text(json.dumps({"accepted": accepted, "unacked": unacked}))


def run_pace(args, pace: float, seconds: float) -> dict:
    base = Path(tempfile.mkdtemp(prefix="bench-hub-"))
    event = base / "event"
    mqtt_port, http_port = free_port(), free_port()
    from controller.hub.credentials import add_board

    names = [f"b{n:03d}" for n in range(args.boards)]
    t0 = time.monotonic()
    conns = [str(add_board(event, n, host="127.0.0.1", port=mqtt_port).path) for n in names]
    print(f"  {len(names)} boards added in {time.monotonic() - t0:.1f} s", flush=True)
    ready_file = base / "ready"
    log = open(base / "hub.log", "w")  # noqa: SIM115
    hub = subprocess.Popen(
        [EXE, "hub", "--dir", str(event), "--http-host", "127.0.0.1", "--http-port",
         str(http_port), "--mqtt-port", str(mqtt_port), "--mqtt-bind", "127.0.0.1",
         "--ready-file", str(ready_file), "--event", "Benchmark"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    while not ready_file.exists():
        assert hub.poll() is None, (base / "hub.log").read_text()
        time.sleep(0.05)
    broker_pid = int((event / "broker" / "mosquitto.pid").read_text())
    folders = [str(base / "boards" / n) for n in names]
    per = [list(zip(names, folders, conns, strict=True))[i :: args.workers]
           for i in range(args.workers)]  # fmt: skip
    interval = TOURNAMENT_SECONDS_PER_MOVE / pace
    ctx = mp.get_context("spawn")
    go = ctx.Event()
    readies, procs, outs = [], [], []
    for i, share in enumerate(per):
        ready = ctx.Event()
        out = str(base / f"worker{i}.json")
        p = ctx.Process(target=worker, args=(share, seconds, interval, i, out, ready, go))
        p.start()
        readies.append(ready)
        procs.append(p)
        outs.append(out)
    for r in readies:
        r.wait(300)
    time.sleep(3)  # let the set-up records settle
    browser = page = pw = None
    if not args.no_browser:
        from playwright.sync_api import sync_playwright

        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.add_init_script("window.hubTrace = []")
        page.goto(f"http://127.0.0.1:{http_port}/")
        page.wait_for_function(f"document.querySelectorAll('.card').length >= {len(names)}",
                               timeout=60000)  # fmt: skip
    cpu0, broker_cpu0, t_start = (
        proc_cpu_seconds(hub.pid),
        proc_cpu_seconds(broker_pid),
        time.time(),
    )
    spy = None
    if args.spy:  # a sampling profile of the hub's threads while the boards play
        spy = subprocess.Popen(
            [args.spy_exe, "record", "--pid", str(hub.pid), "--duration", str(int(seconds)),
             "--rate", "200", "--threads", "--idle", "--format", "raw", "--nonblocking",
             "--output", f"{args.spy}-x{pace:g}.txt"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    go.set()
    for p in procs:
        p.join()
    if spy is not None:
        spy.wait(60)
    t_end = time.time()
    cpu1, broker_cpu1 = proc_cpu_seconds(hub.pid), proc_cpu_seconds(broker_pid)
    time.sleep(1.0)
    seen = page.evaluate("window.hubTrace") if page is not None else []
    results = [json.loads(Path(o).read_text()) for o in outs]
    accepted = [tuple(a) for r in results for a in r["accepted"]]
    by_board: dict[str, list[tuple[int, float, float, float]]] = {}
    for board, _game, seq, t_ms, as_of, pushed in seen:
        by_board.setdefault(board, []).append((seq, t_ms / 1000, as_of or 0.0, pushed or 0.0))
    latencies, missing = [], 0
    parts: dict[str, list[float]] = {"board_to_hub": [], "in_hub": [], "hub_to_page": []}
    for board, seq, t_acc in accepted:
        shown = [x for x in by_board.get(board, []) if x[0] >= seq]
        if shown:
            _, t_page, as_of, pushed = min(shown, key=lambda x: x[1])
            latencies.append(max(0.0, t_page - t_acc))
            parts["board_to_hub"].append(as_of - t_acc)
            parts["in_hub"].append(pushed - as_of)
            parts["hub_to_page"].append(t_page - pushed)
        else:
            missing += 1
    db = sqlite3.connect(event / "hub.sqlite")
    stored = db.execute("SELECT COUNT(*) FROM records WHERE kind = 'move'").fetchone()[0]
    records = db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    db.close()
    from controller.record.journal_file import read

    journal_records = sum(len(read(Path(f) / "journal.jsonl").records) for f in folders)
    hub_rss = proc_rss_mb(hub.pid)
    broker_rss = proc_rss_mb(broker_pid)
    if browser is not None:
        browser.close()
        pw.stop()
    hub.terminate()
    hub.wait(30)
    shutil.rmtree(base, ignore_errors=True)
    lat = sorted(latencies)

    def q(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    wall = t_end - t_start
    return {
        "pace": pace,
        "boards": len(names),
        "seconds": round(wall, 1),
        "moves_accepted": len(accepted),
        "moves_stored": stored,
        "journal_records": journal_records,
        "records_stored": records,
        "unacked_at_end": sum(r["unacked"] for r in results),
        "moves_per_second": round(len(accepted) / wall, 1),
        "latency_ms": {
            "p50": q(0.5),
            "p95": q(0.95),
            "p99": q(0.99),
            "max": q(1.0),
            "mean": statistics.mean(lat) * 1000 if lat else None,
            "not_seen": missing,
        },
        "latency_parts_median_ms": {
            k: round(statistics.median(v) * 1000, 1) if v else None for k, v in parts.items()
        },
        "latency_parts_p99_ms": {
            k: round(sorted(v)[int(0.99 * len(v))] * 1000, 1) if v else None
            for k, v in parts.items()
        },
        "load_average": os.getloadavg()[0],
        "hub_cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1),
        "hub_peak_rss_mb": round(hub_rss, 1),
        "broker_cpu_percent": round(100 * (broker_cpu1 - broker_cpu0) / wall, 1),
        "broker_peak_rss_mb": round(broker_rss, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--paces", default="1,10", help="multiples of tournament pace (1,10)")
    parser.add_argument("--seconds", default="120,60", help="seconds of play per pace")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium wall")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument("--spy", metavar="PREFIX", help="profile the hub with py-spy (raw "
                        "stacks in PREFIX-xPACE.txt)")  # fmt: skip
    parser.add_argument("--spy-exe", default="py-spy", help="the py-spy to use")
    args = parser.parse_args()
    paces = [float(p) for p in args.paces.split(",")]
    seconds = [float(s) for s in args.seconds.split(",")]
    out = []
    for pace, secs in zip(paces, seconds, strict=True):
        print(f"pace x{pace:g}: {args.boards} boards, {secs:g} s", flush=True)
        r = run_pace(args, pace, secs)
        out.append(r)
        print(json.dumps(r, indent=1), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
