"""1,000 boards in 10 halls, bridged to the federation's broker cluster, at tournament pace:
how late does a board's move reach the federation's wall?

What runs, all on this machine: a three-node RabbitMQ cluster with its MQTT plugin over TLS
only (Debian's rabbitmq-server, tests/federation/services.py; three as docs/federation.md asks,
``--nodes``);
the federation's service (``damath-board federation serve``, its wall reading the cluster); ten
real hubs (``damath-board hub``, each with its own Mosquitto and the bridge ``hub federation
bridge`` writes), 100 boards each added with ``board-add``.

The boards are lightweight simulated publishers, not whole boards: each is an MQTT client with
its own credential that publishes, at tournament pace, the records of a real game (the bundled
sample game played through a board's own session once, its journal read back), each sealed
with the board's own key and chain as a board's link seals it, and after each record the
board's retained state, as the link computes it (``link.gamestate``). So every hub checks and
stores real signed records and every bridge carries real states; what the publishers skip is a
board's sensors, tracker and journal (the hub's own benchmark, bench_hub.py, covers those).
Tournament pace: a board moves every 25 s on average (uniform 12.5 to 37.5 s), as in
bench_hub.py.

Latency: from a board publishing its state after a move to the federation's wall stream
(``/api/wall/stream?top=0``, what the wall's page reads) delivering that state. The wall keeps
only the newest state of a board for a slow reader: a state replaced before it left is counted
as skipped, not as late.

    .venv/bin/python bench/bench_federation_live.py            # 1,000 boards, 10 halls, 120 s
    .venv/bin/python bench/bench_federation_live.py --halls 2 --boards 20 --seconds 30
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.federation.services import (  # noqa: E402
    DAMATH,
    RabbitCluster,
    damath,
    definitions_of,
    free_port,
    make_certificates,
    wait_until,
)

PACE = 25.0
READER_PASSWORD = "federation-reader-password"


def template_game(folder: Path) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """The sample game's journal records, each with what it meant and the game's summary after
    it (computed once: every board plays the same game, sealed with its own key)."""
    from controller.link.gamestate import GameState
    from controller.link.playback import PlaybackBoard, sample_game_moves

    board = PlaybackBoard(folder, sync=False)
    board.play_moves(sample_game_moves()[1])
    board.stop_game()
    board.close()
    from controller.record.journal_file import read as read_journal

    state, out = GameState(), []
    for record in read_journal(folder / "journal.jsonl").records:
        info = state.apply(record)
        out.append((record, info, state.summary()))
    return out


def steps(template: list[tuple[Any, Any, Any]]) -> list[list[int]]:
    """The records a board sends at once: everything up to and including the next move."""
    out, current = [], []
    for n, (record, _info, _summary) in enumerate(template):
        current.append(n)
        if record["k"] == "move" or n == len(template) - 1:
            out.append(current)
            current = []
    return out


def publisher(
    hall: str,
    confs: list[str],
    template: list[tuple[Any, Any, Any]],
    start: float,
    seconds: float,
    seed: int,
    results: Any,
) -> None:
    """One hall's boards: each its own MQTT client and credential, at tournament pace."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from controller.link.config import load
    from controller.link.protocol import (
        GENESIS,
        RECORDS,
        STATE,
        VERSION,
        board_topic,
        canonical,
        seal,
    )

    rng = random.Random(seed)
    boards = []
    for path in confs:
        c = load(path)
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=c.username,
                             protocol=mqtt.MQTTv311)  # fmt: skip
        client.username_pw_set(c.username, c.password)
        client.max_inflight_messages_set(100)
        client.connect(c.host, c.port, keepalive=30)
        client.loop_start()
        boards.append({"c": c, "client": client, "game": f"g-{c.board}-{seed}", "prev": GENESIS,
                       "sent": 0, "step": 0})  # fmt: skip
    plan = steps(template)
    while time.time() < start:
        time.sleep(0.05)
    queue: list[tuple[float, int]] = [(start + rng.uniform(0, PACE), n) for n in range(len(boards))]
    heapq.heapify(queue)
    published: list[tuple[str, str, int, float]] = []
    end = start + seconds
    while queue:
        at, n = heapq.heappop(queue)
        if at > end:
            break
        delay = at - time.time()
        if delay > 0:
            time.sleep(delay)
        b = boards[n]
        if b["step"] >= len(plan):
            continue
        c = b["c"]
        for index in plan[b["step"]]:
            record, info, _summary = template[index]
            b["sent"] += 1
            env = seal(c.board, b["game"], b["sent"], b["prev"], record, c.hmac_key, info, None)
            b["prev"] = env.hash
            b["client"].publish(board_topic(c.board, RECORDS), env.payload(), qos=1)
        summary = template[plan[b["step"]][-1]][2]
        state = {"v": VERSION, "board": c.board, "game": b["game"], "seq": b["sent"],
                 "software": "bench", "firmware": None, "problems": [], "assignment": None,
                 **summary}  # fmt: skip
        b["client"].publish(board_topic(c.board, STATE), canonical(state), qos=1, retain=True)
        published.append((hall, c.board, b["sent"], time.time()))
        b["step"] += 1
        heapq.heappush(queue, (at + rng.uniform(PACE / 2, PACE * 1.5), n))
    time.sleep(2)
    for b in boards:
        b["client"].loop_stop()
        b["client"].disconnect()
    results.put(published)


class WallReader(threading.Thread):
    """The wall's stream, as its page reads it: when each board's state arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[tuple[str, str, int], float] = {}
        self.events = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        conn.request("GET", "/api/wall/stream?top=0")
        response = conn.getresponse()
        event = ""
        while True:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"event: "):
                event = line[7:].strip().decode()
            elif line.startswith(b"data: ") and event == "card":
                now = time.time()
                card = json.loads(line[6:])
                self.events += 1
                key = (card["hall"], card["board"], card.get("seq") or 0)
                self.arrived.setdefault(key, now)


def proc_stat(pid: int) -> tuple[float, float]:
    """CPU seconds and peak RSS (MB) of a process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        peak = 0.0
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM"):
                peak = int(line.split()[1]) / 1024
        return cpu, peak
    except OSError:
        return 0.0, 0.0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--halls", type=int, default=10)
    p.add_argument("--boards", type=int, default=100, help="boards per hall")
    p.add_argument("--seconds", type=float, default=120.0)
    p.add_argument("--nodes", type=int, default=3, help="RabbitMQ nodes in the cluster")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="damath-fed-live-"))
    ca, cert, key = make_certificates(base / "cluster-certs")
    cluster = RabbitCluster(args.nodes, tls=(ca, cert, key))  # MQTT over TLS only
    hubs: list[Any] = []
    fed_proc = None
    started = time.perf_counter()
    try:
        from controller.federation.cluster import hall_user_commands, reader_user_commands
        from controller.federation.credentials import load as load_cred
        from controller.hub.credentials import add_board

        cluster.start(definitions_of(reader_user_commands("federation", READER_PASSWORD)))
        fed = base / "federation"
        fed_port = free_port()
        damath("federation", "init", "--dir", str(fed), "--url", f"https://127.0.0.1:{fed_port}",
               "--broker-nodes", ",".join(n.address for n in cluster.nodes), "--broker-user",
               "federation", "--broker-password", READER_PASSWORD, "--broker-ca", ca)  # fmt: skip
        log = open(fed / "serve.log", "w")  # noqa: SIM115
        fed_proc = mp_popen([DAMATH, "federation", "serve", "--dir", str(fed), "--http-host",
                             "127.0.0.1", "--http-port", str(fed_port), "--ready-file",
                             str(fed / "ready")], log)  # fmt: skip
        wait_until("the federation serves", (fed / "ready").exists, timeout=60)
        print(f"cluster and federation up in {time.perf_counter() - started:.0f} s", flush=True)
        confs: list[list[str]] = []
        for h in range(args.halls):
            hall_id = f"hall-{h + 1:02d}"
            damath("federation", "event", "add", hall_id, "--name", f"Hall {h + 1}", "--date",
                   "2026-12-05", "--dir", str(fed))  # fmt: skip
            cred_file = fed / "events" / f"{hall_id}.toml"
            cred = load_cred(cred_file)
            cluster.apply(hall_user_commands(cred.hall, cred.username, cred.password))
            folder = base / hall_id
            folder.mkdir()
            mqtt_port, http_port = free_port(), free_port()
            paths = []
            for n in range(args.boards):
                added = add_board(folder, f"b{n + 1:03d}", host="127.0.0.1", port=mqtt_port)
                paths.append(str(added.path))
            confs.append(paths)
            damath("hub", "federation", "bridge", "--dir", str(folder), "--credential",
                   str(cred_file))  # fmt: skip
            hub_log = open(folder / "hub.log", "w")  # noqa: SIM115
            proc = mp_popen([DAMATH, "hub", "--dir", str(folder), "--http-host", "127.0.0.1",
                             "--http-port", str(http_port), "--mqtt-port", str(mqtt_port),
                             "--mqtt-bind", "127.0.0.1", "--ready-file", str(folder / "ready"),
                             "--event", f"Hall {h + 1}"], hub_log)  # fmt: skip
            hubs.append((hall_id, folder, proc))
        for _hall, folder, _proc in hubs:
            wait_until("the hub serves", (folder / "ready").exists, timeout=120)
        print(f"{args.halls} hubs and {args.halls * args.boards} boards' credentials up in "
              f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
        template = template_game(base / "template")
        reader = WallReader(fed_port)
        reader.start()
        results: Any = mp.get_context("spawn").Queue()
        start = time.time() + 20  # every board connected before the first move
        workers = [
            mp.get_context("spawn").Process(
                target=publisher,
                args=(hall, confs[n], template, start, args.seconds, n + 1, results),
            )
            for n, (hall, _folder, _proc) in enumerate(hubs)
        ]
        for w in workers:
            w.start()
        cpu_before = {name: proc_stat(pid)[0] for name, pid in pids(cluster, fed_proc, hubs)}
        published = []
        for _ in workers:
            published += results.get(timeout=args.seconds + 300)
        for w in workers:
            w.join(30)
        usage = {name: proc_stat(pid) for name, pid in pids(cluster, fed_proc, hubs)}
        sent = sent_records(published)
        wait_until("every hub stores what its boards sent", lambda: stored(hubs)[0] >= sent,
                   timeout=120, every=1)  # fmt: skip
        wait_until("the wall has every state", lambda: all_arrived(published, reader),
                   timeout=30, every=0.5)  # fmt: skip
        report = summarise(published, reader, usage, cpu_before, args)
        report["records_sent"] = sent
        report["records_stored_by_the_hubs"], report["records_refused_by_the_hubs"] = stored(hubs)
        print(json.dumps(report, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1))
    finally:
        for _hall, _folder, proc in hubs:
            proc.terminate()
        for _hall, _folder, proc in hubs:
            proc.wait(30)
        if fed_proc is not None:
            fed_proc.terminate()
            fed_proc.wait(30)
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)
    return 0


def sent_records(published: list[tuple[str, str, int, float]]) -> int:
    """Records the boards sent: each board's last sequence number."""
    last: dict[tuple[str, str], int] = {}
    for hall, board, seq, _at in published:
        last[(hall, board)] = max(seq, last.get((hall, board), 0))
    return sum(last.values())


def stored(hubs: list[Any]) -> tuple[int, int]:
    """Records every hub has checked and stored, and messages it refused (its own store)."""
    import sqlite3

    kept = refused = 0
    for _hall, folder, _proc in hubs:
        db = sqlite3.connect(f"file:{folder / 'hub.sqlite'}?mode=ro", uri=True, timeout=10)
        try:
            kept += db.execute("SELECT count(*) FROM records").fetchone()[0]
            refused += db.execute("SELECT count(*) FROM rejects").fetchone()[0]
        finally:
            db.close()
    return kept, refused


def all_arrived(published: list[tuple[str, str, int, float]], reader: WallReader) -> bool:
    """Every published state on the wall, or replaced there by a newer one of its board."""
    newest: dict[tuple[str, str], int] = {}
    for hall, board, seq, _at in published:
        newest[(hall, board)] = max(seq, newest.get((hall, board), 0))
    return all((hall, board, seq) in reader.arrived for (hall, board), seq in newest.items())


def mp_popen(argv: list[str], log: Any) -> Any:
    import subprocess

    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)


def pids(cluster: RabbitCluster, fed_proc: Any, hubs: list[Any]) -> list[tuple[str, int]]:
    out = [(f"rabbitmq {n.name}", n.proc.pid) for n in cluster.nodes if n.proc is not None]
    out.append(("federation", fed_proc.pid))
    out += [(f"hub {hall}", proc.pid) for hall, _folder, proc in hubs]
    return out


def summarise(
    published: list[tuple[str, str, int, float]],
    reader: WallReader,
    usage: dict[str, tuple[float, float]],
    cpu_before: dict[str, float],
    args: argparse.Namespace,
) -> dict[str, Any]:
    late = []
    skipped = 0
    for hall, board, seq, at in published:
        arrived = reader.arrived.get((hall, board, seq))
        if arrived is None:
            skipped += 1
        else:
            late.append((arrived - at) * 1000)
    late.sort()

    def pct(q: float) -> float:
        return round(late[min(len(late) - 1, int(q * len(late)))], 1) if late else float("nan")

    hubs = [v for k, v in usage.items() if k.startswith("hub ")]
    rabbit = [v for k, v in usage.items() if k.startswith("rabbitmq ")]
    cpu = {k: round(100 * (v[0] - cpu_before.get(k, 0)) / args.seconds, 1)
           for k, v in usage.items()}  # fmt: skip
    return {
        "machine": _machine(),
        "halls": args.halls,
        "broker_nodes": args.nodes,
        "boards": args.halls * args.boards,
        "seconds": args.seconds,
        "states_published": len(published),
        "states_on_the_wall": len(late),
        "skipped_for_a_newer_state": skipped,
        "latency_ms": {"p50": pct(0.5), "p95": pct(0.95), "p99": pct(0.99),
                       "max": round(late[-1], 1) if late else None,
                       "mean": round(statistics.fmean(late), 1) if late else None},
        "cpu_percent_of_a_core": cpu,
        "peak_rss_mb": {
            "hub (largest)": max((v[1] for v in hubs), default=0),
            "rabbitmq node (largest)": max((v[1] for v in rabbit), default=0),
            "federation": usage.get("federation", (0, 0))[1],
        },
        "load_average": Path("/proc/loadavg").read_text().split()[:3],
    }  # fmt: skip


def _machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), "",
    )  # fmt: skip
    return f"{model}, {os.cpu_count()} cores, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    sys.exit(main())
