"""Power cuts placed where the bugs live: a board's life is cut at chosen journal operations,
not at random moments, and the disk is left as a power cut leaves it.

A life runs in a forked child (time comes from its own script: no sleeps). The child counts
every write and every fsync on the files of its journal's folder; at the operation chosen for
the cut it kills itself with SIGKILL, just before that operation. The parent then leaves the
journal as one of three kinds of cut would:

- ``kill``: the process died, the machine did not (the page cache keeps every byte written);
- ``power``: the power went, so every byte written since the file's last fsync is gone;
- ``torn``: the power went in the middle of the last write: half of the bytes not yet made
  durable are on the disk, the rest is not.

Random SIGKILLs (``bench/soak_powercuts.py``, hundreds of them) only ever test ``kill``, and
find a slip between a write and its fsync by luck; here each operation of a life is reachable
by number, so a record the board acted on before it was durable is found every time: the life
says what it confirmed (``report``), and no life may resume with less than was confirmed
before the cut.
"""

from __future__ import annotations

import json
import os
import signal
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Report = Callable[[int], None]
"""Called by a life with what it has just confirmed to the players (a ply, a step count):
after a cut, the next life must start from at least the highest number reported."""

Life = Callable[[Path, Path, Report], int]
"""One life of the board: resume from the journal (first argument), play on, write the finished
game to the second as JSON; returns the number it resumed from (a ply, a step count)."""

KINDS = ("kill", "power", "torn")


class _Counted:
    """In the child: counts the journal folder's writes and fsyncs, remembers how much of each
    file (by inode) was durable at its last fsync, and cuts at operation ``cut_at``."""

    def __init__(self, folder: Path, cut_at: int | None, tell: int) -> None:
        self.folder = str(folder.resolve())
        self.cut_at = cut_at
        self.tell = tell
        self.ops = 0
        self.durable: dict[int, int] = {}
        self._write = os.write
        self._fsync = os.fsync

    def _ours(self, fd: int) -> os.stat_result | None:
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return None
        if not where.startswith(self.folder + os.sep):
            return None
        st = os.fstat(fd)
        return st if stat.S_ISREG(st.st_mode) else None

    def _op(self) -> None:
        self.ops += 1
        if self.cut_at is not None and self.ops == self.cut_at:
            self._write(self.tell, json.dumps({"durable": self.durable}).encode() + b"\n")
            os.kill(os.getpid(), signal.SIGKILL)

    def write(self, fd: int, data: Any) -> int:
        if self._ours(fd) is not None:
            self._op()
        return self._write(fd, data)

    def fsync(self, fd: Any) -> None:
        number = fd if isinstance(fd, int) else fd.fileno()
        st = self._ours(number)
        if st is not None:
            self._op()
        self._fsync(fd)
        if st is not None:
            self.durable[st.st_ino] = os.fstat(number).st_size

    def install(self) -> None:
        os.write = self.write  # type: ignore[assignment]
        os.fsync = self.fsync  # type: ignore[assignment]


@dataclass
class LifeEnd:
    """How one life ended: cut (with the durable sizes by inode) or finished."""

    cut: bool
    durable: dict[int, int]
    confirmed: int
    ops: int
    resumed: int | None = None


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


def live(life: Life, journal: Path, out: Path, cut_at: int | None) -> LifeEnd:
    """One life in a forked child, cut before its operation ``cut_at`` (None: to the end)."""
    tell_r, tell_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(tell_r)
            counted = _Counted(journal.parent, cut_at, tell_w)
            counted.install()

            def report(n: int) -> None:
                counted._write(tell_w, b"C%d\n" % n)

            resumed = life(journal, out, report)
            counted._write(tell_w, json.dumps({"ops": counted.ops, "resumed": resumed}).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(tell_w)
    said = _read_all(tell_r).decode()
    os.close(tell_r)
    _, status = os.waitpid(pid, 0)
    confirmed = max((int(x[1:]) for x in said.split() if x.startswith("C")), default=-1)
    lines = [x for x in said.splitlines() if x.startswith("{")]
    facts = json.loads(lines[-1]) if lines else {}
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        durable = {int(k): v for k, v in facts.get("durable", {}).items()}
        return LifeEnd(True, durable, confirmed, cut_at or 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise AssertionError(f"the board's life failed: exit status {status}")
    return LifeEnd(False, {}, confirmed, facts["ops"], facts["resumed"])


def leave_as_cut(folder: Path, durable: dict[int, int], kind: str) -> None:
    """The journal folder as a cut of ``kind`` leaves it (see the module's docstring)."""
    if kind == "kill":
        return
    for path in folder.iterdir():
        if not path.is_file():
            continue
        size = path.stat().st_size
        kept = durable.get(path.stat().st_ino, 0)
        if kind == "torn":
            kept += (size - kept) // 2
        if kept < size:
            os.truncate(path, kept)


@dataclass
class CutsReport:
    cuts: list[tuple[int, str]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    """Every cut after which the next life resumed from less than was confirmed before it."""
    results: list[dict[str, Any]] = field(default_factory=list)
    ops: int = 0


def placed(ops: int, count: int, head: int = 6, tail: int = 4) -> list[int]:
    """The operations to cut at: the first ``head`` (the game's opening records) and the last
    ``tail`` (its end, its result, the signatures), and the rest of ``count`` spread evenly
    between them."""
    ends = {*range(1, min(head, ops) + 1), *range(max(ops - tail + 1, 1), ops + 1)}
    rest = max(count - len(ends), 0)
    spread = {head + round(i * (ops - tail - head) / (rest + 1)) for i in range(1, rest + 1)}
    return sorted(n for n in ends | spread if 1 <= n <= ops)


def cut_at_placed_points(
    life: Life, folder: Path, count: int = 18, kinds: tuple[str, ...] = KINDS
) -> tuple[dict[str, Any], CutsReport]:
    """The game played once whole, then once per placed cut: each life cut at its point, the
    disk left as the cut's kind leaves it (the kinds taken in turn), and lives run again on the
    same journal until the game is over. Returns the whole game's result and the report."""
    clean_dir = folder / "clean"
    clean_dir.mkdir()
    whole = live(life, clean_dir / "journal.jsonl", folder / "clean.json", None)
    clean = json.loads((folder / "clean.json").read_text())
    report = CutsReport(ops=whole.ops)
    for n, at in enumerate(placed(whole.ops, count)):
        kind = kinds[n % len(kinds)]
        report.cuts.append((at, kind))
        game = folder / f"cut{at}-{kind}"
        game.mkdir()
        out = folder / f"cut{at}-{kind}.json"
        end = live(life, game / "journal.jsonl", out, at)
        if end.cut:  # the board comes back once and plays the game to its end
            leave_as_cut(game, end.durable, kind)
            after = live(life, game / "journal.jsonl", out, None)
            if after.resumed is not None and after.resumed < end.confirmed:
                report.lost.append(
                    f"cut at operation {at} ({kind}): {end.confirmed} confirmed before the "
                    f"cut, the board resumed from {after.resumed}"
                )
        report.results.append(json.loads(out.read_text()))
    return clean, report
