"""Time ``damath-board audit`` on sheets of growing length: the manual's integer sheet repeated
(its remaining chips and totals included), so a reader that sums or scans everything again per
row shows as time growing with the square of the rows.

Run: ``.venv/bin/python bench/bench_audit.py`` (figures go in docs/benchmarks.md, "Hostile input
and load"). Each size runs the command once, as a teacher or an arbiter would.
"""

from __future__ import annotations

import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHEET = ROOT / "tests" / "scoring" / "data" / "manual_integer.csv"
ROWS = (10_000, 20_000, 40_000)


def main() -> int:
    head, *rows = SHEET.read_text(encoding="utf-8").splitlines()
    exe = str(ROOT / ".venv" / "bin" / "damath-board")
    print(f"# {platform.node()} {platform.machine()}, Python {platform.python_version()}")
    print("rows | bytes | seconds | seconds per 10,000 rows | the report's last line")
    with tempfile.TemporaryDirectory() as tmp:
        for n in ROWS:
            path = Path(tmp) / f"sheet{n}.csv"
            path.write_text("\n".join([head, *(rows[i % len(rows)] for i in range(n))]) + "\n")
            began = time.perf_counter()
            done = subprocess.run([exe, "audit", str(path), "--variant", "integer"],
                                  capture_output=True, check=False, text=True)  # fmt: skip
            took = time.perf_counter() - began
            said = (done.stdout or done.stderr).strip().splitlines()[-1]
            print(
                f"{n:,} | {path.stat().st_size:,} | {took:.2f} | {took / n * 10_000:.2f} | {said}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
