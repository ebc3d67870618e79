"""One board floods the hub; what the other boards and the hub see (issue 27, item 2).

Run from the repository root: ``.venv/bin/python bench/bench_hub_flood.py`` (about 2 minutes;
``--boards``, ``--flood-seconds``, ``--compare SRC`` to change it). What it does:

- ``damath-board hub`` in a fresh event directory (its own Mosquitto), ``--boards`` boards and
  one flooder added (``board-add``: each its own credential and key);
- the other boards in a process of their own: each a paho client with its own credential that
  publishes the records of the bundled sample game, sealed with its key as its link seals them,
  one every ``--interval`` seconds (QoS 1), and notes when the hub acknowledges each (the
  acknowledgement comes after the hub's commit: this is what a board waits for);
- the flooder, with its own valid credential: 200 signed ``start`` records (200 new games),
  then 1 KB messages at QoS 0 on its records topic, as fast as the socket takes them (MQTT
  written by hand, a thousand packets a write: no client library in its way), for
  ``--flood-seconds``, connecting again at once whenever it is dropped;
- the other boards resend what is not acknowledged 5 s after it went, as a board's link does
  (``--hold-minutes 0`` shows the hub's rate limit alone, without the broker holding the
  flooder's credential);
- every second: the hub's and the broker's resident memory, and how long ``/api/boards`` takes.

Figures, before, during and after the flood: the other boards' acknowledgement latency
(p50/p99/max) and how many records were acknowledged, the hub's memory, the broker's, the
board list's slowest answer, what the flooder sent and what the hub counted. ``--compare SRC``
runs the same with the hub's code from another checkout's ``SRC/controller`` (say, ``git archive
main controller | tar -x -C /tmp/main``) first, for the figures before the limits.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EXE = str(ROOT / ".venv" / "bin" / "damath-board")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _string(text: str) -> bytes:
    raw = text.encode()
    return len(raw).to_bytes(2, "big") + raw


def _packet(kind: int, body: bytes) -> bytes:
    length, n = b"", len(body)
    while True:
        n, digit = divmod(n, 128)
        length += bytes([digit | (0x80 if n else 0)])
        if not n:
            return bytes([kind]) + length + body


def flood_raw(port: int, user: str, password: str, seconds: float) -> tuple[int, int]:
    """A client as fast as the socket takes it (MQTT 3.1.1 written by hand: CONNECT, then
    1 KB QoS-0 PUBLISHes a thousand at a time), connecting again whenever it is dropped, ten
    times a second while its logins are refused. Returns (messages sent, logins refused)."""
    connect = b"\x00\x04MQTT\x04\xc2\x00\x3c" + _string("flood") + _string(user)
    hello = _packet(0x10, connect + _string(password))
    payload = json.dumps({"v": 1, "pad": "x" * 1000}).encode()
    chunk = _packet(0x30, _string("damath/v1/boards/flood/records") + payload) * 1000
    sent = refused = 0
    start = time.time()
    while time.time() - start < seconds:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            time.sleep(0.1)
            continue
        try:
            s.sendall(hello)
            answer = s.recv(4)
            if answer[:4] != b"\x20\x02\x00\x00":
                refused += 1
                time.sleep(0.1)
                continue
            while time.time() - start < seconds:
                s.sendall(chunk)
                sent += 1000
        except OSError:  # dropped by the broker
            pass
        finally:
            s.close()
    return sent, refused


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 1)


def boards_worker(conns: list[str], records: list[list[bytes]], interval: float,
                  seconds: float, out: mp.Queue) -> None:  # fmt: skip
    """Each board publishes its records one by one; (phase time, latency) per acknowledged."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from controller.link.config import load

    sent: dict[tuple[str, int], float] = {}
    acked: dict[tuple[str, int], float] = {}
    lock = threading.Lock()
    clients = []
    for path, recs in zip(conns, records, strict=True):
        c = load(path)
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=c.board,
                             protocol=mqtt.MQTTv311)  # fmt: skip
        client.username_pw_set(c.username, c.password)

        def on_message(_c, _u, m, board=c.board) -> None:
            data = json.loads(m.payload)
            now = time.time()
            with lock:
                for seq in range(1, data["seq"] + 1):
                    acked.setdefault((board, seq), now)

        client.on_message = on_message
        client.on_connect = lambda cl, _u, _f, _rc, _p, board=c.board: cl.subscribe(
            f"damath/v1/boards/{board}/ack", qos=1
        )  # again at every connection, as a link does
        client.connect("127.0.0.1", int(c.port))
        client.loop_start()
        clients.append((c.board, client, recs))
    start = time.time()
    n = 0
    last_try: dict[str, float] = {}
    while time.time() - start < seconds:
        now = time.time()
        for board, client, recs in clients:
            if n < len(recs):
                with lock:
                    sent[(board, n + 1)] = now
                client.publish(f"damath/v1/boards/{board}/records", recs[n], qos=1)
            # as a board's link does: what is not acknowledged 5 s after it went (or after
            # the last try) is sent again, from the first record not acknowledged
            with lock:
                waiting = [k[1] for k in sent if k[0] == board and k not in acked]
            if waiting and now - max(sent[(board, min(waiting))], last_try.get(board, 0)) > 5:
                last_try[board] = now
                for seq in range(min(waiting), min(n + 1, len(recs)) + 1):
                    client.publish(f"damath/v1/boards/{board}/records", recs[seq - 1], qos=1)
        n += 1
        time.sleep(interval)
    deadline = time.time() + 60
    while time.time() < deadline:
        with lock:
            waiting = [k for k in sent if k not in acked]
        if not waiting:
            break
        for board, client, recs in clients:  # the last ones again, as a link would
            mine = [seq for b, seq in waiting if b == board]
            if mine and time.time() - last_try.get(board, 0) > 5:
                last_try[board] = time.time()
                for seq in range(min(mine), max(mine) + 1):
                    client.publish(f"damath/v1/boards/{board}/records", recs[seq - 1], qos=1)
        time.sleep(0.2)
    for _, client, _ in clients:
        client.loop_stop()
        client.disconnect()
    with lock:
        out.put([(t, acked.get(k, float("inf")) - t) for k, t in sent.items()])


def sealed(conn: str, games: int = 1) -> list[bytes]:
    """The sample game's records as this board's link seals them (a game per ``games``)."""
    from controller.link.config import load
    from controller.link.follower import Follower
    from controller.link.playback import PlaybackBoard, sample_game_moves

    c = load(conn)
    folder = Path(tempfile.mkdtemp(prefix="flood-board-"))
    play = PlaybackBoard(folder, sync=False)
    play.play_moves(sample_game_moves()[1])
    play.close()
    (game,) = Follower(folder, c.board, c.hmac_key).scan()
    shutil.rmtree(folder, ignore_errors=True)
    return [env.payload() for env in game.envelopes]


def run(args: argparse.Namespace, src: str | None) -> dict:
    from controller.hub.credentials import add_board
    from controller.link.config import load
    from controller.link.protocol import GENESIS, seal

    folder = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    event = folder / "event"
    mqtt_port, http_port = free_port(), free_port()
    names = [f"b{n:02d}" for n in range(args.boards)]
    conns = [str(add_board(event, b, host="127.0.0.1", port=mqtt_port).path) for b in names]
    flood = load(add_board(event, "flood", host="127.0.0.1", port=mqtt_port).path)
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    log = open(folder / "hub.log", "w")  # noqa: SIM115
    hub = subprocess.Popen(
        [EXE, "hub", "--dir", str(event), "--http-host", "127.0.0.1", "--http-port",
         str(http_port), "--mqtt-port", str(mqtt_port), "--mqtt-bind", "127.0.0.1",
         "--ready-file", str(folder / "ready"),
         *([] if src else ["--hold-minutes", str(args.hold_minutes)])],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder,
    )  # fmt: skip
    while not (folder / "ready").exists():
        assert hub.poll() is None, (folder / "hub.log").read_text()
        time.sleep(0.1)
    broker = int((event / "broker" / "mosquitto.pid").read_text())
    url = f"http://127.0.0.1:{http_port}/api/boards"
    records = [sealed(c) for c in conns]
    total = args.before + args.flood_seconds + args.after
    out: mp.Queue = mp.Queue()
    worker = mp.Process(target=boards_worker,
                        args=(conns, records, args.interval, total, out))  # fmt: skip
    samples: list[tuple[float, float, float, float]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            asked = time.time()
            try:
                with urllib.request.urlopen(url, timeout=60) as r:
                    r.read()
                took = time.time() - asked
            except OSError:
                took = float("inf")
            samples.append((asked, rss_mb(hub.pid), rss_mb(broker), took))
            stop.wait(max(0.0, 1.0 - (time.time() - asked)))

    sampler = threading.Thread(target=sample, daemon=True)
    start = time.time()
    worker.start()
    sampler.start()
    time.sleep(args.before)
    # the flooder: new games first (signed, valid), then junk as fast as a C client sends it
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="flood", protocol=mqtt.MQTTv311)
    c.username_pw_set(flood.username, flood.password)
    c.connect("127.0.0.1", mqtt_port)
    c.loop_start()
    start_record = {"k": "start", "t": 0.0, "variant": "integer", "rules": "official",
                    "position": {}}  # fmt: skip
    for n in range(200):
        e = seal("flood", f"junk-{n}", 1, GENESIS, {**start_record, "t": float(n)},
                 flood.hmac_key)  # fmt: skip
        c.publish("damath/v1/boards/flood/records", e.payload(), qos=1)
    c.loop_stop()
    c.disconnect()
    flood_start = time.time()
    flooded, refused_logins = flood_raw(mqtt_port, flood.username, flood.password,
                                        args.flood_seconds)  # fmt: skip
    flood_end = time.time()
    worker.join(total + 120)
    latencies = out.get(timeout=30)
    stop.set()
    sampler.join(5)
    with urllib.request.urlopen(url, timeout=60) as r:
        listing = json.loads(r.read())
    counters = {b["board"]: b["counters"] for b in listing["boards"]}
    hub.terminate()
    hub.wait(30)
    games = {b: 0 for b in ["flood"]}
    import sqlite3

    db = sqlite3.connect(event / "hub.sqlite")
    games["flood"] = db.execute("SELECT COUNT(*) FROM games WHERE board_id = 'flood'").fetchone()[0]
    db.close()

    def phase(lo: float, hi: float) -> dict:
        lat = [d for t, d in latencies if lo <= t < hi]
        done = [d for d in lat if d != float("inf")]
        return {"records": len(lat), "acknowledged": len(done), "p50_ms": pct(done, 0.5),
                "p99_ms": pct(done, 0.99), "max_ms": pct(done, 1.0)}  # fmt: skip

    def mem(lo: float, hi: float, index: int) -> float:
        values = [s[index] for s in samples if lo <= s[0] < hi]
        return round(max(values), 1) if values else float("nan")

    result = {
        "code": src or "this checkout",
        "boards": args.boards,
        "record_every_s": args.interval,
        "hold_minutes": args.hold_minutes,
        "flood": {"messages": flooded, "seconds": round(flood_end - flood_start, 1),
                  "per_second": round(flooded / max(0.001, flood_end - flood_start)),
                  "logins_refused": refused_logins},
        "acks_before": phase(start, flood_start),
        "acks_during": phase(flood_start, flood_end),
        "acks_after": phase(flood_end, flood_end + args.after + 60),
        "hub_rss_mb": {"before": mem(start, flood_start, 1),
                       "during_peak": mem(flood_start, flood_end + 2, 1),
                       "after": round(samples[-1][1], 1)},
        "broker_rss_mb": {"before": mem(start, flood_start, 2),
                          "during_peak": mem(flood_start, flood_end + 2, 2),
                          "after": round(samples[-1][2], 1)},
        "boards_list_slowest_s": {"before": mem(start, flood_start, 3),
                                  "during": mem(flood_start, flood_end + 2, 3)},
        "flooder_counters": counters.get("flood", {}),
        "flooder_games_stored": games["flood"],
        "others_refused": sum(v for b, n in counters.items() if b != "flood"
                              for k, v in n.items() if k.startswith("rejected")),
        "load_average": round(os.getloadavg()[0], 1),
    }  # fmt: skip
    result["broker_connections_of_the_hub"] = listing["broker"].get("connections")
    if os.environ.get("KEEP"):
        result["folder"] = str(folder)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--boards", type=int, default=20)
    p.add_argument("--interval", type=float, default=1.0, help="seconds between a board's records")
    p.add_argument("--before", type=float, default=10.0)
    p.add_argument("--flood-seconds", type=float, default=20.0)
    p.add_argument("--after", type=float, default=20.0)
    p.add_argument(
        "--hold-minutes",
        type=float,
        default=10.0,
        help="the hub's --hold-minutes (0: a flooding board is never held)",
    )
    p.add_argument("--compare", metavar="SRC", help="also run with SRC/controller's hub first")
    args = p.parse_args()
    runs = []
    if args.compare:
        runs.append(run(args, args.compare))
        print(json.dumps(runs[-1], indent=1), flush=True)
    runs.append(run(args, None))
    print(json.dumps(runs[-1], indent=1), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
