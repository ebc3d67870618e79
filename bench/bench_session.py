"""Session benchmark: start-up to the board ready, memory after a full game, idle CPU at 200 Hz.

Run from the repository root: ``.venv/bin/python bench/bench_session.py``. Each figure comes from
a fresh process (``damath-board run --profile hardware/sim.toml``: every device a mock), so the
numbers include the interpreter and every import, as on the Pi.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXE = str(ROOT / ".venv" / "bin" / "damath-board")
PROFILE = str(ROOT / "hardware" / "sim.toml")

FULL_GAME = r"""
import random, resource, sys
sys.path.insert(0, {root!r})
from controller.board import BoardHost, ScanLoop
from controller.session import SessionConfig
from controller.rules.game import Game
from controller.tracker.generator import human_trace, random_game
from controller.tracker.trace import Frame, read_trace
from drivers.factory import build_devices
from drivers.profile import load_profile
clock = [0.0]
devices = build_devices(load_profile({profile!r}), clock=lambda: clock[0])
session = BoardHost.of_board({state!r}, "bench").open(SessionConfig(), 0.0)
board = ScanLoop(session, devices)
hands = devices.controls()
g = Game.new("integer")
trace = read_trace(human_trace(g, random_game(g, 400, random.Random(11)), random.Random(1011)))
t = 0.0
for rec in trace.records:
    while t + 0.005 < rec.t:  # the 200 Hz scan loop, in fake time
        t += 0.005
        clock[0] = t
        board.step(t)
    t = clock[0] = rec.t
    if isinstance(rec, Frame):
        hands.set_occupied(rec.occupied)
    else:
        hands.press(rec.button)
    board.step(t)
for k in range(1000):
    board.step(t + k * 0.005)
print(session.phase, session.game.ply, "sympy" in sys.modules)
with open("/proc/self/status") as f:
    print([l for l in f if l.startswith("VmRSS")][0].split()[1])
"""


def startup(runs: int = 5) -> tuple[float, float]:
    """Seconds from spawning the process to its ready file (after the first render)."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            ready = Path(tmp) / f"ready{i}"
            began = time.time()
            subprocess.run(
                [
                    EXE,
                    "run",
                    "--profile",
                    PROFILE,
                    "--state-dir",
                    tmp,
                    "--exit-after",
                    "0",
                    "--ready-file",
                    str(ready),
                ],
                check=True,
            )
            times.append(float(ready.read_text()) - began)
    times.sort()
    return times[len(times) // 2], max(times)


def full_game() -> tuple[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        code = FULL_GAME.format(root=str(ROOT), profile=PROFILE, state=tmp)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split("\n")
    return out[0], int(out[1])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(seconds: float = 10.0) -> float:
    """CPU share of one core while the board waits at 200 Hz with the opening set up and
    nothing happening, measured from /proc after the board is ready (start-up excluded)."""
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "ready"
        proc = subprocess.Popen(
            [
                EXE,
                "run",
                "--profile",
                PROFILE,
                "--state-dir",
                tmp,
                "--scan-hz",
                "200",
                "--exit-after",
                str(seconds + 5),
                "--ready-file",
                str(ready),
            ]
        )
        while not ready.exists():
            time.sleep(0.05)
        time.sleep(1.0)
        cpu0, wall0 = _cpu_seconds(proc.pid), time.perf_counter()
        time.sleep(seconds)
        cpu1, wall1 = _cpu_seconds(proc.pid), time.perf_counter()
        proc.wait()
    return (cpu1 - cpu0) / (wall1 - wall0)


def sympy_at_start() -> bool:
    code = (
        "import sys; sys.argv=['x']; import controller.cli, controller.cli.run, controller.session,"
        " controller.view.compose, drivers.factory; print('sympy' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return out.stdout.strip() == "True"


def main() -> int:
    median, worst = startup()
    print(f"start-up to board ready: median {median:.3f} s, worst {worst:.3f} s (5 runs)")
    print(f"sympy imported at start: {sympy_at_start()}")
    state, rss_kb = full_game()
    phase, plies, sympy = state.split()
    print(
        f"after a full game (phase {phase}, {plies} plies, sympy loaded: {sympy}): "
        f"RSS {rss_kb / 1024:.1f} MB"
    )
    print(f"idle CPU at 200 Hz scan: {idle_cpu() * 100:.2f} % of one core")
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
