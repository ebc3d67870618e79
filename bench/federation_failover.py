"""The federation's live wall over networks that fail, at full length (docs/benchmarks.md,
"The federation over real networks"): what the suite checks once, run many times.

What runs, all on this machine: a three-node RabbitMQ cluster (Debian's 3.10, MQTT over TLS
only, tests/federation/services.py), the federation's service with its wall, three real hubs
of two boards each bridged to the cluster (the third through an uplink of its own,
tests/federation/uplink.py), as tests/federation/test_wall_across_halls.py builds them.

- ``--runs N`` (20): the node the wall reads from (and every hall's bridge) killed with SIGKILL
  mid-event, N times in a row; each time every board plays its next move at once and the run
  passes if the wall shows every board's current state within 30 s; the node is brought back
  before the next run. Prints the tally, the time to the last board, and each board's move →
  wall latency during the loss (its p50, p99, max), and ``--json`` keeps them.
- ``--outages``: the third hall plays its event across ten outages of its uplink of 5 to 60 s
  (cut, stalled, slow), then submits it through cuts; prints how long after each outage the
  wall showed every board again, and whether every state was shown once and in order.

    .venv/bin/python bench/federation_failover.py --runs 20
    .venv/bin/python bench/federation_failover.py --runs 0 --outages
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.federation.cluster import hall_user_commands, reader_user_commands  # noqa: E402
from controller.federation.credentials import load  # noqa: E402
from tests.federation.conftest import EVENTS, READER_PASSWORD, new_federation  # noqa: E402
from tests.federation.halls import (  # noqa: E402
    WallWatch,
    node_loss,
    on_wall,
    play,
    play_across_outages,
    shown_once_in_order,
    start_hall,
    submit_through_cuts,
    through,
)
from tests.federation.services import (  # noqa: E402
    RabbitCluster,
    definitions_of,
    make_certificates,
)
from tests.federation.uplink import Uplink  # noqa: E402

BOUND = 30.0
LONG_OUTAGES = [("cut", 5), ("stall", 20), ("cut", 60), ("slow", 10), ("cut", 15),
                ("stall", 45), ("cut", 30), ("slow", 30), ("stall", 10), ("cut", 40)]  # fmt: skip
"""Ten outages of 5 to 60 s; the stalls of 20 and 45 s outlast the bridge's keepalive."""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=20, help="node losses in a row")
    p.add_argument("--outages", action="store_true", help="the uplink's ten long outages too")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="damath-failover-"))
    ca, cert, key = make_certificates(base / "cluster-certs")
    fed_certs = make_certificates(base / "fed-certs")
    cluster = RabbitCluster(3, tls=(ca, cert, key))
    halls, server, uplink = [], None, None
    figures: dict = {"runs": []}
    try:
        started = time.monotonic()
        cluster.start(definitions_of(reader_user_commands("federation", READER_PASSWORD)))
        server, ids = new_federation(base / "federation", "", fed_certs,
                                     broker=[n.address for n in cluster.nodes],
                                     broker_password=READER_PASSWORD, broker_ca=ca)  # fmt: skip
        creds = [server.folder / "events" / f"{e[0]}.toml" for e in EVENTS]
        cluster.import_definitions([a for f in creds for a in hall_user_commands(
            load(f).hall, load(f).username, load(f).password)])  # fmt: skip
        uplink = Uplink([("127.0.0.1", n.mqtt_port) for n in cluster.nodes]
                        + [("127.0.0.1", server.port)])  # fmt: skip
        for n in range(2):
            halls.append(start_hall(base / f"hall{n + 1}", creds[n], 2))
        flaky = through(creds[2], uplink, len(cluster.nodes), server.port)
        halls.append(start_hall(base / "hall3", flaky, 2, tables=False))
        halls[2].uplink = uplink
        print(f"cluster, federation and three halls up in {time.monotonic() - started:.0f} s",
              flush=True)  # fmt: skip

        if args.outages:
            event = EVENTS[2]
            fed_ids = [ids[i] for i in event[4]]
            caught: list[str] = []

            def say(text: str) -> None:
                print(text, flush=True)
                caught.append(text)

            watch = play_across_outages(server, halls[2], event, fed_ids, LONG_OUTAGES, say=say)
            shown = shown_once_in_order(watch, halls[2])
            watch.close()
            out = submit_through_cuts(server, halls[2], event[0], base / "event.zip", "2")
            print(out.stdout, flush=True)
            subs = server.json(f"/events/{event[0]}.json")["submissions"]
            figures["outages"] = {
                "said": caught,
                "states_shown": {b: len(v) for b, v in shown.items()},
                "submissions": [s["verdict"] for s in subs],
                "submit": out.stdout,
            }

        passed = 0
        for run in range(1, args.runs + 1):
            watch = WallWatch(server)
            try:
                took, lost, at = node_loss(cluster, server, halls, BOUND)
                ok = True
            except AssertionError as exc:
                took, lost, at, ok = float("nan"), "?", time.time(), False
                print(f"run {run}: FAILED {exc}", flush=True)
            # each board: from the node's loss (its next move played at once) to the wall
            latencies = [max(ts) - at for ts in watch.times.values() if ts and max(ts) > at]
            watch.close()
            passed += ok
            node = next((n for n in cluster.nodes if n.proc is None or n.proc.poll() is not None),
                        None)  # fmt: skip
            print(f"run {run}: node {lost} lost; every board's state on the wall after "
                  f"{took:.1f} s; {passed} of {run} passed", flush=True)  # fmt: skip
            figures["runs"].append({"ok": ok, "seconds": took, "node": lost,
                                    "latencies": latencies})  # fmt: skip
            if node is not None:
                cluster.restart(node)
            for hall in halls:
                for board in hall.boards.values():
                    play(board, 1)
            on_wall(server, halls, "every board once the node is back")
        if args.runs:
            times = [r["seconds"] for r in figures["runs"] if r["ok"]]
            late = [x for r in figures["runs"] for x in r["latencies"]]
            print(f"TALLY {passed} of {args.runs}: every board's current state on the wall "
                  f"{min(times):.1f} to {max(times):.1f} s after the loss (median "
                  f"{statistics.median(times):.1f} s); a move → the wall during a loss: p50 "
                  f"{percentile(late, 50):.1f} s, p99 {percentile(late, 99):.1f} s, max "
                  f"{max(late):.1f} s ({len(late)} states)")  # fmt: skip
    finally:
        for hall in halls:
            for b in hall.boards.values():
                b.close()
            hall.hub.stop()
        if uplink is not None:
            uplink.close()
        if server is not None:
            server.stop()
        cluster.stop()
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
