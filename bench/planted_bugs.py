"""The bugs the long soaks were written for, planted one at a time into a copy of the tree: the
suite's short tests that replaced the soaks must fail on each, and the soak beside them shows
what random kills find (docs/testing.md, "Soaks and the bugs they were written for").

Run from the repository root:

    .venv/bin/python bench/planted_bugs.py [--soaks] [--only NAME ...]

Each plant is a text replacement in one file, checked to apply exactly once; the copy is made
from the files git knows (the working tree's versions), its own ``controller`` first on the
path of every process the tests start. Without ``--soaks`` only the short tests run. Prints a
Markdown table; exits 1 if a short test passed with its bug planted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Plant:
    name: str
    bug: str
    path: str
    old: str
    new: str
    short: tuple[str, ...]
    """The suite's tests that must fail with the bug."""
    soak: tuple[str, ...]
    """The soak's command (from the copy's root), for the side-by-side figure."""


POWERCUT = (
    "tests/session/test_powercut.py"
    "::test_power_cuts_at_placed_journal_operations_lose_no_confirmed_move"
)
EVERY_GAME = (
    "tests/games/test_power_cuts.py"
    "::test_power_cuts_at_placed_journal_operations_lose_nothing_in_every_game[damath]"
)
HUB_KILL = "tests/hub/test_hub_kill.py"
TRACES_30 = (
    "tests/tracker/test_generated.py"
    "::test_human_traces_replay_to_the_original_game[polynomial]"
)  # one of the variants the suite plays 30 games of
INGEST_ORDER = "tests/hub/test_ingest.py::test_a_batch_meets_the_failpoints_as_it_becomes_durable"
PY = sys.executable

PLANTS = (
    Plant(
        "unflushed journal",
        "a record written but never fsync'd: the board confirms a move the disk does not hold",
        "controller/session/journal.py",
        "            if self.sync:\n                os.fsync(fd)\n        except OSError as exc:",
        "            pass\n        except OSError as exc:",
        (POWERCUT, EVERY_GAME),
        (PY, "bench/soak_powercuts.py", "--only", "damath"),
    ),
    Plant(
        "a move confirmed before it is durable",
        "a move's record written but fsync'd only with the next record (a record lost at a "
        "power cut right after the board showed the move as done)",
        "controller/session/journal.py",
        "            if self.sync:\n                os.fsync(fd)\n        except OSError as exc:",
        '            if self.sync and record.get("k") != "move":\n'
        "                os.fsync(fd)\n        except OSError as exc:",
        (POWERCUT,),
        (PY, "bench/soak_powercuts.py", "--only", "damath"),
    ),
    Plant(
        "acknowledged before the commit",
        "the hub acknowledges a batch inside its transaction, before the commit (a kill then "
        "loses records the boards no longer resend)",
        "controller/hub/ingest/intake.py",
        "            if acks:\n"
        '                failpoints.reach("ingest.stored", self.transport.acks_out)\n',
        "            for (board, game), (seq, conflict) in acks.items():\n"
        "                self.transport.ack(board, game, seq, conflict)\n"
        "            if acks:\n"
        '                failpoints.reach("ingest.stored", self.transport.acks_out)\n',
        (INGEST_ORDER, HUB_KILL),
        (PY, "-m", "pytest", "-p", "no:cacheprovider", "-q", "bench/soak_hub_kills.py"),
    ),
    Plant(
        "a touch forgotten",
        "the tracker forgets which squares a hand touched on the way, so two paths that end on "
        "the same squares (D-5) are no longer told apart by the squares the chip passed",
        "controller/tracker/tracker.py",
        "        self._touched |= new\n",
        "",
        (TRACES_30,),
        (PY, "bench/soak_human_traces.py", "--games", "100"),
    ),
    Plant(
        "a move settled while a chip is still coming down",
        "the tracker waits for a move's final squares only when no chip was just set down "
        "(a move ended by setting its chip down is never committed)",
        "controller/tracker/tracker.py",
        "        if finals:\n            self._phase = Phase.SETTLING",
        "        if finals and not new:\n            self._phase = Phase.SETTLING",
        (TRACES_30,),
        (PY, "bench/soak_human_traces.py", "--games", "100"),
    ),
    Plant(
        "a new game's id published before it is saved",
        "the board's link publishes a new game before its id is on the disk (a cut right after "
        "gave the hub the same game twice, under two ids: commit 237ff11)",
        "controller/link/follower.py",
        "        if self._new_ids:\n            self.save()\n",
        "",
        ("tests/link/test_follower.py", HUB_KILL),
        (PY, "-m", "pytest", "-p", "no:cacheprovider", "-q", "bench/soak_hub_kills.py"),
    ),
)


def _copy(to: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = to / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _run(command: tuple[str, ...], where: Path) -> tuple[bool, float]:
    env = {**os.environ, "PYTHONPATH": str(where)}
    began = time.monotonic()
    proc = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True)
    return proc.returncode == 0, time.monotonic() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--soaks", action="store_true", help="run each soak with its bug too")
    parser.add_argument("--only", nargs="+", choices=[p.name for p in PLANTS])
    args = parser.parse_args()
    print("| bug planted | the suite's short tests | their time | the soak |")
    print("|---|---|---|---|")
    missed = False
    for plant in PLANTS:
        if args.only and plant.name not in args.only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            where = Path(tmp)
            _copy(where)
            target = where / plant.path
            text = target.read_text()
            assert text.count(plant.old) == 1, f"{plant.name}: the plant does not apply once"
            target.write_text(text.replace(plant.old, plant.new))
            verdicts, took = [], 0.0
            for test in plant.short:  # each alone: every one of them must fail
                passed, seconds = _run((PY, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                                        "-x", test), where)  # fmt: skip
                took += seconds
                missed = missed or passed
                name = test.split("::")[-1].split("/")[-1]
                verdicts.append(f"{name}: {'**passed: missed it**' if passed else 'failed'}")
            short = "; ".join(verdicts)
            soak = "not run"
            if args.soaks:
                soak_passed, soak_took = _run(plant.soak, where)
                soak = f"{'passed: missed it' if soak_passed else 'failed'} ({soak_took:.0f} s)"
        print(f"| {plant.name}: {plant.bug} | {short} | {took:.0f} s | {soak} |", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
