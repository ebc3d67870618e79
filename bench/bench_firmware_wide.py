"""The co-processor's loop per board size (32, 72, 81, 144 points): a scan, a scan while every
point debounces, a report, the loop's buffers and what 1,000 scans allocate, on CPython and on
the MicroPython unix port side by side (the same script, bench/mp_firmware_wide.py), with the
fake pins of firmware/fakes (Python code standing for the RP2040's registers).

Then the loop as the RP2040 runs it, under the MicroPython unix port with the Pico's heap
(-X heapsize=230K): the scan through the SIO registers, 5,000 passes with LED frames arriving
at 25 a second, the CRC of an LED frame three ways, the collector's pause; and an estimate of
each on an RP2040 at 125 MHz: the unix port's time x 35..70 (RP2040_FACTOR, docs/benchmarks.md
says why) plus what does not scale, the settle time (20 us a row).

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


RP2040_FACTOR = (35, 70)
"""RP2040 MicroPython time / this machine's unix-port time, low and high (docs/benchmarks.md)."""
SETTLE_US = 20
ROWS = {"damath 8x4": 8, "dam 12x6": 12, "mathchess 9x9": 9, "full 12x12": 12}


def run(exe: str, *mode: str, options: tuple[str, ...] = ()) -> list[dict[str, object]]:
    rows = []
    for board in range(4):
        out = subprocess.run(
            [exe, *options, str(SCRIPT), str(ROOT), str(board), *mode],
            capture_output=True, text=True, check=True, timeout=600,
        ).stdout  # fmt: skip
        rows += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return rows


def rp2040(us: float, rows: int = 0) -> str:
    """The estimate on an RP2040: the unix port's time scaled, plus the settle time."""
    low, high = (us * f + SETTLE_US * rows for f in RP2040_FACTOR)
    return f"{low / 1000:.2f}–{high / 1000:.2f}"


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
    loop = run(str(micropython), "loop", options=("-X", "heapsize=230K"))
    print()
    print(
        "| board | scan through the SIO µs (MP) | a pass: mean / p99 / worst µs (MP) | "
        "RP2040 estimate: scan ms, scans a second | RP2040 estimate: worst pass ms | "
        "LED frame CRC µs: bit by bit / table / viper (MP) | collector µs (MP); "
        "allocated a frame |"
    )
    print("|---|---|---|---|---|---|---|")
    for m in loop:
        rows = ROWS[str(m["board"])]
        scan = float(m["loop_sio_scan_us"])
        fast = 1e6 / (scan * RP2040_FACTOR[1] + SETTLE_US * rows)
        slow = 1e6 / (scan * RP2040_FACTOR[0] + SETTLE_US * rows)
        print(
            f"| {m['board']} | {scan} | {m['loop_mean_us']} / {m['loop_p99_us']} / "
            f"{m['loop_max_us']} | {rp2040(scan, rows)}, {fast:.0f}–{slow:.0f} | "
            f"{rp2040(float(m['loop_max_us']), rows)} | "
            f"{m['loop_crc_bits_us']} / {m['loop_crc_table_us']} / {m['loop_crc_us']} | "
            f"{m['loop_gc_us']}; {m['loop_bytes_per_led_frame']} B |"
        )


if __name__ == "__main__":
    main()
