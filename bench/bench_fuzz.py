"""The fuzz targets of the suite (tests/fuzz/targets.py), run far longer: positions, sensor
traces, scoresheets, WebSocket messages and journal records. Counts what was accepted, what was
refused with a clear message, and failures (a traceback, an unclear message, an input over the
deadline); the slowest input and the peak memory of the process.

Run from the repository root: ``.venv/bin/python bench/bench_fuzz.py [EXAMPLES]`` (default 5000
per target; the journal target gets a fifth: each input is a file and a session).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.fuzz import targets  # noqa: E402


def run(name: str, strategy, target, examples: int) -> dict:
    counts: Counter[str] = Counter()
    slowest = [0.0]
    failures: list[str] = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def fuzz(value) -> None:
        began = time.perf_counter()
        try:
            counts[target(value)] += 1
        except Exception as exc:  # a failure: counted, shown, and the run goes on
            counts["failed"] += 1
            if len(failures) < 5:
                failures.append(f"{type(exc).__name__}: {str(exc)[:200]}")
        slowest[0] = max(slowest[0], time.perf_counter() - began)

    began = time.perf_counter()
    fuzz()
    return {
        "target": name,
        "inputs": sum(counts.values()),
        "accepted": counts["accepted"],
        "refused": counts["refused"],
        "failed": counts["failed"],
        "slowest_ms": round(slowest[0] * 1000, 1),
        "seconds": round(time.perf_counter() - began, 1),
        "failures": failures,
    }


def main() -> None:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    channel = targets.Channel()
    plan = [
        ("positions", targets.position_texts, targets.position, examples),
        ("traces", targets.traces, targets.trace, examples),
        ("scoresheets", targets.sheets, targets.sheet, examples),
        ("WebSocket messages", targets.channel_inputs, channel, examples),
        ("journal records", targets.journals, targets.journal, max(1, examples // 5)),
    ]
    print("| target | inputs | accepted | refused with a message | failures | slowest input "
          "| peak memory so far |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    total_failed = 0
    for name, strategy, target, n in plan:
        r = run(name, strategy, target, n)
        total_failed += r["failed"]
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"| {name} | {r['inputs']:,} | {r['accepted']:,} | {r['refused']:,} | "
              f"{r['failed']} | {r['slowest_ms']} ms | {peak:.0f} MB |", flush=True)  # fmt: skip
        for failure in r["failures"]:
            print(f"    failure: {failure}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of the whole run: {peak:.0f} MB; failures: {total_failed}")
    print("(Hypothesis keeps every input it generated: the peak grows with the count. The")
    print(" targets alone, in a plain loop, in a fresh process:)")
    subprocess.run([sys.executable, __file__, "--steady"], check=True)
    sys.exit(1 if total_failed else 0)


def steady() -> None:
    """The targets in a plain loop (no Hypothesis): memory after 1,000, 2,000 … inputs."""
    import json
    import random

    def rss() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    rng = random.Random(1)
    channel = targets.Channel()
    messages = [json.dumps(m) for m in (
        {"type": "click", "square": [1, 2]}, {"type": "click", "square": [2, 3]},
        {"type": "arrange"}, {"type": "new_game", "variant": "radical"},
        {"type": "button", "name": "next"}, {"type": "lift", "square": [3, 2]},
        {"type": "place", "square": [3, 2]})] + ["[" * 3000, "x" * 5000]  # fmt: skip
    marks = []
    for i in range(1, 6001):
        channel((rng.choice(messages), rng.choice(["player", "arbiter"])))
        if i % 2000 == 0:
            marks.append(f"{rss():.0f}")
    print(f"WebSocket messages, RSS after 2,000 / 4,000 / 6,000: {' / '.join(marks)} MB")
    marks = []
    for i in range(1, 401):
        targets.journal(((rng.randint(1, 100), []), [(rng.randint(0, 9999), 7)], i % 2 == 0))
        if i % 200 == 0:
            marks.append(f"{rss():.0f}")
    print(f"journals, RSS after 200 / 400: {' / '.join(marks)} MB")


if __name__ == "__main__":
    if sys.argv[1:] == ["--steady"]:
        steady()
    else:
        main()
