"""Where the suite's time goes: the tables of docs/testing.md from a run's ``--durations=0``.

    ./test.sh --durations=0 -q > run.log 2>&1
    .venv/bin/python bench/suite_profile.py run.log [--top 50] [--before OLD.log]

Prints, as Markdown, the time per test directory (setup, call and teardown summed: a test that
waits for a server pays the wait in its setup) and the slowest tests; with ``--before``, the
old run's figures beside the new. With parallel workers the times add up to more than the
run's wall time: each worker's tests are counted in full."""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

LINE = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(\S+)")


def durations(text: str) -> Counter[str]:
    """Seconds per test id (its phases summed) from pytest's ``--durations`` report."""
    _, found, report = text.partition("slowest durations")
    if not found:
        raise ValueError("no '--durations' report in this log (run pytest with --durations=0)")
    per_test: Counter[str] = Counter()
    for line in report.splitlines():
        m = LINE.match(line)
        if m:
            per_test[m.group(2).split("@")[0]] += float(m.group(1))
    return per_test


def directory(test_id: str) -> str:
    parts = test_id.split("::")[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else "tests/*.py"


def per_directory(per_test: Counter[str]) -> Counter[str]:
    out: Counter[str] = Counter()
    for test_id, seconds in per_test.items():
        out[directory(test_id)] += seconds
    return out


def tables(new: Counter[str], old: Counter[str] | None, top: int) -> str:
    rows = ["| directory | seconds | share |" + (" before |" if old is not None else "")]
    rows.append("|---|---:|---:|" + ("---:|" if old is not None else ""))
    dirs, old_dirs = per_directory(new), per_directory(old or Counter())
    total = sum(dirs.values())
    for name in sorted(set(dirs) | set(old_dirs), key=lambda d: -dirs.get(d, 0.0)):
        seconds = dirs.get(name, 0.0)
        row = f"| `{name}` | {seconds:.0f} | {100 * seconds / total:.1f} % |"
        rows.append(row + (f" {old_dirs.get(name, 0.0):.0f} |" if old is not None else ""))
    rows.append(f"| all | {total:.0f} | |" + (f" {sum(old_dirs.values()):.0f} |" if old else ""))
    rows += ["", f"| the {top} slowest tests | seconds |" + (" before |" if old else "")]
    rows.append("|---|---:|" + ("---:|" if old is not None else ""))
    for test_id, seconds in new.most_common(top):
        row = f"| `{test_id}` | {seconds:.1f} |"
        if old is not None:
            row += f" {old[test_id]:.1f} |" if test_id in old else " (new) |"
        rows.append(row)
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("log", type=Path)
    p.add_argument("--before", type=Path, help="an earlier run's log, beside")
    p.add_argument("--top", type=int, default=50)
    args = p.parse_args(argv)
    try:
        new = durations(args.log.read_text(errors="replace"))
        old = durations(args.before.read_text(errors="replace")) if args.before else None
    except (OSError, ValueError) as exc:
        print(f"suite_profile: {exc}", file=sys.stderr)
        return 2
    print(tables(new, old, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
