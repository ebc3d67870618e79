"""The fuzz targets of the suite (tests/fuzz/targets.py), run far longer: positions, sensor
traces, scoresheets, WebSocket messages and journal records. Counts what was accepted, what was
refused with a clear message, and failures (a traceback, an unclear message, an input over the
deadline); the slowest input and the peak memory of the process.

Run from the repository root: ``.venv/bin/python bench/bench_fuzz.py [EXAMPLES]`` (default 5000
per target; the journal target gets a fifth: each input is a file and a session).
"""

from __future__ import annotations

import resource
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
    print("| target | inputs | accepted | refused with a message | failures | slowest input |")
    print("|---|---|---|---|---|---|")
    total_failed = 0
    for name, strategy, target, n in plan:
        r = run(name, strategy, target, n)
        total_failed += r["failed"]
        print(f"| {name} | {r['inputs']:,} | {r['accepted']:,} | {r['refused']:,} | "
              f"{r['failed']} | {r['slowest_ms']} ms |", flush=True)  # fmt: skip
        for failure in r["failures"]:
            print(f"    failure: {failure}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of the whole run: {peak:.0f} MB; failures: {total_failed}")
    sys.exit(1 if total_failed else 0)


if __name__ == "__main__":
    main()
