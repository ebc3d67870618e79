"""The co-processor's loop per board size (32, 72, 81, 144 points): a scan, a scan while every
point debounces, a report, the loop's buffers and what 1,000 scans allocate, on CPython and on
the MicroPython unix port side by side (the same script, bench/mp_firmware_wide.py), with the
fake pins of firmware/fakes (a Python call per pin read: on the RP2040 a read is a C call).

Run: .venv/bin/python bench/bench_firmware_wide.py
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "mp_firmware_wide.py"


def run(exe: str) -> list[dict[str, object]]:
    rows = []
    for board in range(4):
        out = subprocess.run(
            [exe, str(SCRIPT), str(ROOT), str(board)],
            capture_output=True, text=True, check=True, timeout=600,
        ).stdout  # fmt: skip
        rows += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return rows


def main() -> None:
    micropython = Path(sys.executable).with_name("micropython")
    cp = run(sys.executable)
    mp = run(str(micropython))
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(
        "| board | points | occupancy frame on the wire | LED body | "
        "scan µs CPython / MicroPython | debounce µs CPython / MP | report µs CPython / MP | "
        "MP heap: the loop (Firmware, Endpoint, pins), 1,000 scans |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for c, m in zip(cp, mp, strict=True):
        print(
            f"| {c['board']} | {c['points']} | {c['occupancy_frame']} B | {c['led_body']} B | "
            f"{c['scan_us']} / {m['scan_us']} | {c['debounce_us']} / {m['debounce_us']} | "
            f"{c['report_us']} / {m['report_us']} | "
            f"{m['buffers_bytes']} B, {m['bytes_per_1000_scans']} B |"
        )


if __name__ == "__main__":
    main()
