"""A term of a class, simulated: 30 children, 20 weeks, one game a week each (15 boards, one per
pair, new pairs every week), played by the engine at several levels through the simulator's own
board (``SimBoard``: tracker, session, journal) and kept as the boards keep them; then indexed
into the progress store (each game reviewed by the coach) and the teacher's pages measured:

- the server's time for the class's figures (``/api/progress``) and a child's
  (``/api/progress/child``), median and worst of ``ROUNDS`` requests over HTTP;
- in Chromium, the time from navigation to the page showing its figures with every chart drawn
  (``body[data-ready]``), for the class page and a child's page.

Each child has a level that grows over the term (the base level 1–3, one more every 7 weeks, at
most 4), so the figures have a trend. Seeded: the same games every run.

Run from the repository root:
``.venv/bin/python bench/bench_class_term.py [--children 30] [--weeks 20] [--depth 3]``
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FIRST = ["Ana", "Ben", "Cara", "Dan", "Ela", "Fe", "Gino", "Hana", "Ian", "Joy", "Kiko", "Lea",
         "Migo", "Nina", "Oli", "Pia", "Quin", "Rey", "Sol", "Tala", "Uma", "Vic", "Wen", "Xian",
         "Yna", "Zed", "Aly", "Bea", "Cid", "Dina"]  # fmt: skip
LAST = ["Cruz", "Reyes", "Lim", "Uy", "Santos", "Bautista", "Garcia", "Mendoza", "Torres", "Ramos"]
SINCE_NAVIGATION = "performance.now() - performance.getEntriesByType('navigation')[0].startTime"
FIRST_MONDAY = dt.date(2026, 8, 31)  # ISO week 2026-W36


def names(n: int) -> list[str]:
    return [f"{FIRST[i % len(FIRST)]} {LAST[(i * 7) % len(LAST)]}" for i in range(n)]


def level(child: int, week: int) -> int:
    return min(4, 1 + child % 3 + week // 7)


def schedule(children: int, weeks: int) -> dict[str, list[tuple[int, int, int]]]:
    """Board id -> its games in order: (week, blue child, red child)."""
    rng = random.Random(2026)
    boards: dict[str, list[tuple[int, int, int]]] = {}
    for week in range(weeks):
        order = list(range(children))
        rng.shuffle(order)
        for k in range(children // 2):
            boards.setdefault(f"pair-{k + 1}", []).append((week, order[2 * k], order[2 * k + 1]))
    return boards


def ids_number(board_id: str) -> int:
    return int(board_id.rsplit("-", 1)[1])


def play_boards(job: tuple[str, list[str], dict[str, list[tuple[int, int, int]]]]) -> int:
    """One worker: every game of its boards, in order (a board's games follow each other)."""
    from tests.progress.kept import keep, new_board, play_game
    from tests.sim.conftest import ManualClock

    state, roster, boards = job
    played = 0
    for board_id, games in boards.items():
        clock = ManualClock()
        board = new_board(Path(state), board_id, clock)
        for week, blue, red in games:
            day = FIRST_MONDAY + dt.timedelta(weeks=week, days=blue % 5)
            play_game(board, clock, roster[blue], roster[red], date=day.isoformat(),
                      levels=(level(blue, week), level(red, week)),
                      seed=week * 100 + ids_number(board_id))  # fmt: skip
            played += 1
        keep(board)
        board.close()
    return played


def machine() -> str:
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def timed_get(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url) as response:
        response.read()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--children", type=int, default=30)
    ap.add_argument("--weeks", type=int, default=20)
    ap.add_argument("--depth", type=int, default=3, help="the review's depth (the board's: 6)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--keep", type=Path, help="keep the state folder here")
    ap.add_argument("--measure", type=Path, help="only measure the pages of a kept term's folder")
    args = ap.parse_args()
    if args.measure is not None:
        roster = names(args.children)
        print(
            json.dumps(
                {"machine": machine(), **measure(args.measure, roster, args.rounds)}, indent=1
            )
        )
        return

    state = args.keep or Path(tempfile.mkdtemp(prefix="class-term-"))
    if state.exists():
        shutil.rmtree(state)
    state.mkdir(parents=True)
    roster = names(args.children)
    (state / "players.txt").write_text("# a simulated class\n" + "\n".join(roster) + "\n")
    plan = schedule(args.children, args.weeks)
    ids = sorted(plan)
    jobs = [
        (str(state), roster, {b: plan[b] for b in ids[i :: args.jobs]}) for i in range(args.jobs)
    ]
    t0 = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        games = sum(pool.map(play_boards, jobs))
    t_play = time.perf_counter() - t0

    from controller.progress.service import Progress

    t0 = time.perf_counter()
    progress = Progress(state, depth=args.depth)
    done = progress.index_now(limit=10**6)
    t_index = time.perf_counter() - t0
    again = progress.index_now(limit=10**6)
    plays = len(progress.store().plays())  # type: ignore[union-attr]
    progress.stop()
    assert again.read == 0, "indexing twice must read nothing new"

    pages = measure(state, roster, args.rounds)
    result = {
        "machine": machine(),
        "children": args.children,
        "weeks": args.weeks,
        "games": games,
        "plays_stored": plays,
        "games_indexed": done.counted,
        "review_depth": args.depth,
        "play_seconds": round(t_play, 1),
        "index_seconds": round(t_index, 1),
        **pages,
        "state": str(state),
    }
    print(json.dumps(result, indent=1))
    if args.keep is None:
        shutil.rmtree(state)


def measure(state: Path, roster: list[str], rounds: int) -> dict[str, object]:
    """The teacher's pages over HTTP and in Chromium (after one warm-up navigation: the
    browser's own start is not the page's)."""
    from controller.sim.server import create_app
    from tests.sim.conftest import ARGS, CHROMIUM, ManualClock, serve

    clock = ManualClock()
    app = create_app(clock=clock, state_dir=state)
    child = roster[0]
    quoted = urllib.request.quote(child)
    with serve(app, clock) as server:
        urls = {
            "class": f"{server.url}/api/progress",
            "child": f"{server.url}/api/progress/child?name={quoted}",
        }
        server_ms = {}
        for what, url in urls.items():
            timed_get(url)  # warm
            times = [timed_get(url) for _ in range(rounds)]
            server_ms[what] = (1000 * statistics.median(times), 1000 * max(times))
        from playwright.sync_api import sync_playwright

        browser_ms: dict[str, list[float]] = {"class": [], "child": []}
        pages = {"class": "/class/progress", "child": f"/class/progress?child={quoted}"}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url + "/class")  # warm-up: the browser's first page
            for _ in range(5):
                for what, path in pages.items():
                    page.goto(server.url + path)
                    page.wait_for_selector("body[data-ready='1']")
                    ms = page.evaluate(SINCE_NAVIGATION)
                    browser_ms[what].append(ms)
            drawn = page.evaluate("Object.values(Chart.instances).length")
            browser.close()
    return {
        "server_ms_median_max": {k: [round(a, 1), round(b, 1)] for k, (a, b) in server_ms.items()},
        "chromium_ms_median_max": {
            k: [round(statistics.median(v), 1), round(max(v), 1)] for k, v in browser_ms.items()
        },
        "charts_drawn_on_child_page": drawn,
    }


if __name__ == "__main__":
    main()
