"""The power-cut harness on a really full file system: a small tmpfs mounted in this process's
own mount namespace (run under ``unshare -m``, or ``unshare -rm`` without root), filled and freed
at random moments while the board is killed and restarted. Prints one JSON report line.

    unshare -m python -m tests.session.fullfs WORKDIR KILLS SEED [MIN_REFUSALS]

The lives go on past KILLS until the disk refused MIN_REFUSALS writes (a loaded machine
changes how many a number of kills meets).
"""

from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from .powercut import cut_on_failing_disk, plan, play
from .test_powercut import _finishing_trace

SIZE = "16m"


def main(workdir: str, kills: str, seed: str, min_refusals: str = "0") -> int:
    work = Path(workdir)
    mount = work / "fs"
    mount.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE}", "tmpfs", str(mount)], check=True)
    journals = mount / "journals"
    journals.mkdir()
    results = work / "results"  # the results are told on the ordinary disk
    results.mkdir(exist_ok=True)
    filler = mount / "filler"

    def fill() -> None:
        """Take every free byte of the file system (as another program filling the card)."""
        try:
            fd = os.open(filler, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        except OSError as exc:  # already full, to the last inode
            if exc.errno != errno.ENOSPC:
                raise
            return
        try:
            for chunk in (1 << 20, 65536, 4096, 512, 64, 1):
                while True:
                    try:
                        os.write(fd, b"\0" * chunk)
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break
        finally:
            os.close(fd)

    def free() -> None:
        filler.unlink(missing_ok=True)

    p = plan(_finishing_trace(11))
    clean_out = results / "clean.json"
    play(p, results / "clean.jsonl", clean_out, sync=False)
    clean = json.loads(clean_out.read_text())
    report, outcomes = cut_on_failing_disk(
        p,
        journals,
        results,
        int(kills),
        random.Random(int(seed)),
        fill=fill,
        free=free,
        min_refusals=int(min_refusals),
    )
    print(
        json.dumps(
            {
                "kills": report.kills,
                "games": report.games,
                "lives": report.lives,
                "refusals": report.refusals_seen,
                "lost": report.lost,
                "same": sum(o == clean for o in outcomes),
                "outcomes": len(outcomes),
                "reason": clean["reason"],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
