"""The engine's worker processes end when the process that started them is killed (issue 39,
item 11: 20 simulators killed with SIGKILL left 40 workers, 842 MB, behind). A real parent
process starts the board's pool and keeps both workers busy; it is killed; both are gone well
before their work would have ended."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PARENT = """
import time
from controller.coach import worker

pool = worker._executor()
busy = [pool.submit(time.sleep, 600) for _ in range(worker.WORKERS)]
while len(pool._processes) < worker.WORKERS or not all(f.running() for f in busy):
    time.sleep(0.05)
print(*pool._processes, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended: only its parent's reaping is left


def test_the_engines_workers_end_with_a_killed_parent() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(map(_alive, pids))
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 120  # the work would take 600 s
        while any(map(_alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, pids)), "a worker outlived its killed parent"
    finally:
        parent.kill()
        for pid in locals().get("pids", []):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
