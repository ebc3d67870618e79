"""The simulator under load and attack, on 127.0.0.1: what a player on another board feels.

A probe page on a board of its own measures, round after round, the tick latency (the
simulator's clock moved one second: until the page shows the new time) and the action latency
(a chip lifted or set down: until the answer), while, one scenario at a time:

- nothing else happens (the baseline);
- 200 pages are open on 50 other boards, each reading everything;
- one page floods its board with 10,000 messages as fast as it can;
- one raw socket opens a board's channel and never reads, while a page on that board changes
  it 8 times a second (every change is pushed to the never-reader);
- 50 connections send their request headers one byte every 0.2 s;
- all of it at once.

Each scenario runs on a fresh server with ``damath-board sim``'s configuration
(``guard.server_config``) and a listening socket whose kernel send buffer is 4 KiB, so that a
page that never reads backs the server's writes up within a second, as a slow phone on a busy
Wi-Fi would after a while.

Run from the repository root: ``.venv/bin/python bench/bench_sim_load.py [ROUNDS [SCENARIO…]]``.
"""

from __future__ import annotations

import asyncio
import logging
import platform
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.sim.clients import Client  # noqa: E402
from controller.sim.server import create_app  # noqa: E402
from tests.sim.conftest import ManualClock, serve  # noqa: E402
from tests.sim.loadclients import (  # noqa: E402
    Probe,
    churn,
    close_all,
    create_board,
    crowd,
    flood,
    get_latency,
    never_reader,
    slow_headers,
    summary,
)


async def scenario(name: str, url: str, clock: ManualClock, rounds: int, hub) -> dict:
    port = int(url.rsplit(":", 1)[1])
    probe = await Probe.start(url, "probe", clock.advance)
    tasks: list[asyncio.Task] = []
    pages: list = []
    writers: list = []
    extra: dict = {}
    if name in ("200 pages", "everything at once"):
        pages = await crowd(url, [f"b{i}" for i in range(50)], 200)
    if name in ("flood", "everything at once"):
        tasks.append(asyncio.create_task(flood(url, "flooded", 10_000)))
    if name in ("never reads", "everything at once"):
        writers.append(await never_reader("127.0.0.1", port, "victim"))
        tasks.append(asyncio.create_task(churn(url, "victim", 60.0)))
    slow: list[asyncio.Task] = []
    if name in ("slow headers", "everything at once"):
        slow = [asyncio.create_task(slow_headers("127.0.0.1", port)) for _ in range(50)]
        tasks += slow
    gets = []
    began = time.perf_counter()
    for _ in range(rounds):
        await probe.measure(1)
        gets.append(await asyncio.to_thread(get_latency, url))
    elapsed = time.perf_counter() - began
    if slow:  # they are cut off 10 s after they connected: wait for it
        await asyncio.wait(slow, timeout=15)
    dropped = list(DROPS)
    DROPS.clear()
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    cut = [r for r in results if isinstance(r, float) and r != float("inf")]
    if cut:
        extra["slow headers"] = (
            f"{len(cut)} connections closed by the server, after {min(cut):.1f} to {max(cut):.1f} s"
        )
    for result in results:
        if hasattr(result, "refused"):
            extra["flood"] = (
                f"{result.sent:,} sent, {result.refused} told to slow down, "
                f"{'dropped' if result.closed else 'not dropped'} {result.reason}"
            )
    if dropped:
        extra["dropped"] = "; ".join(f"{n} x {d}" for d, n in Counter(dropped).items())
    for writer in writers:
        writer.close()
    await close_all(pages)
    await probe.ws.close()
    return {"ticks": summary(probe.ticks), "actions": summary(probe.actions),
            "gets": summary(gets), "seconds": round(elapsed, 1), **extra}  # fmt: skip


def run(name: str, rounds: int) -> dict:
    clock = ManualClock()
    app = create_app(clock=clock)  # the ticker's production period: 50 ms
    with serve(app, clock, sndbuf=4096) as server:
        boards = ["probe", "flooded", "victim", *(f"b{i}" for i in range(50))]
        for board in boards:
            create_board(server.url, board)
        return asyncio.run(scenario(name, server.url, clock, rounds, app.state.hub))


DROPS: list[str] = []
_drop = Client.drop


def _counted_drop(self: Client, reason: str) -> None:
    if not self.closed:
        DROPS.append(f"{self.name.split()[0]}: {reason}")
    _drop(self, reason)


Client.drop = _counted_drop  # type: ignore[method-assign]


def main() -> None:
    logging.getLogger("damath-board.sim").setLevel(logging.ERROR)  # drops are counted instead
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    only = sys.argv[2:]  # scenario names, to run some only
    names = ["baseline", "200 pages", "flood", "never reads", "slow headers",
             "everything at once"]  # fmt: skip
    print(f"{platform.processor() or platform.machine()}, {platform.python_version()}, "
          f"{rounds} probe rounds a scenario\n")  # fmt: skip
    print("| scenario | tick latency median / p95 / max | action latency median / p95 / max "
          "| GET /api/boards median / max |")  # fmt: skip
    print("|---|---|---|---|")
    for name in names:
        if only and name not in only:
            continue
        r = run(name, rounds)
        t, a, g = r["ticks"], r["actions"], r["gets"]
        print(f"| {name} | {t['median_ms']} / {t['p95_ms']} / {t['max_ms']} ms "
              f"| {a['median_ms']} / {a['p95_ms']} / {a['max_ms']} ms "
              f"| {g['median_ms']} / {g['max_ms']} ms |", flush=True)  # fmt: skip
        for key in ("flood", "dropped", "slow headers"):
            if key in r:
                print(f"    {key}: {r[key]}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (server and clients in one process): {peak:.0f} MB")


if __name__ == "__main__":
    main()
