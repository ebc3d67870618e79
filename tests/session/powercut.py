"""The power-cut harness: a forked child replays a game trace through a journaled session as fast
as it can (time comes from the trace: no sleeps); the parent SIGKILLs it at random moments and
starts it again on the same journal until the game is over.

After a restart the child does what players do when the board comes back: the board is set as
the restored position (the tracker's restore guidance), and play goes on from the move after the
last one the journal holds.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.session import Session, SessionConfig
from controller.tracker.trace import Frame, Trace


@dataclass
class GamePlan:
    trace: Trace
    resume_at: list[int]
    """For each ply n, the index of the first trace record after move n was committed."""

    @property
    def trace_moves(self) -> int:
        return len(self.resume_at) - 1


def plan(trace: Trace) -> GamePlan:
    """Run the trace once, uninterrupted, to learn where each move was committed."""
    s = Session.start(SessionConfig(checkpoint_seconds=0), 0.0)
    resume_at = [0]
    for i, rec in enumerate(trace.records):
        if isinstance(rec, Frame):
            s.feed_frame(rec.t, rec.occupied)
        else:
            s.press(rec.t, rec.button)
        while len(resume_at) <= s.game.ply:
            resume_at.append(i + 1)
    return GamePlan(trace, resume_at)


def play(
    plan_: GamePlan,
    journal: Path,
    out: Path,
    sync: bool = True,
    report: Callable[[int], None] | None = None,
) -> int:
    """One life of the board: resume from the journal, play the rest, write the result; says
    each ply the board confirmed (``report``) and returns the ply it resumed from."""
    cfg = SessionConfig(checkpoint_seconds=5)
    records = plan_.trace.records
    s = Session.open(cfg, str(journal), 0.0, sync=sync)
    resumed = s.game.ply
    start = 0
    t0 = 0.0
    if s.phase in ("restore", "play"):
        # the players set the board as the restored position, as the LEDs guide them
        s.feed_frame(0.0, s.tracker.game.occupied())
        s.advance(1.0)
        start = plan_.resume_at[s.game.ply] if s.game.ply < len(plan_.resume_at) else len(records)
        t0 = (records[start].t if start < len(records) else 0.0) - 2.0
    if s.phase != "over":
        for rec in records[start:]:
            t = rec.t - t0
            if isinstance(rec, Frame):
                s.feed_frame(t, rec.occupied)
            else:
                s.press(t, rec.button)
            if report is not None and s.game.ply > resumed:
                report(s.game.ply)
            if s.phase == "over":
                break
        end = (records[-1].t - t0) + 5.0
        s.advance(end)
        if s.phase != "over":
            s.press(end, "pause", "hold")  # the arbiter stops the game: tally now
            s.press(end, "next")
            s.press(end, "confirm")
    outcome = s.outcome
    result = {
        "reason": outcome.reason,
        "winner": outcome.winner,
        "csv": s.export_csv(),
        "ply": s.game.ply,
    }
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, out)
    return resumed


def life_of(plan_: GamePlan) -> Callable[[Path, Path, Callable[[int], None]], int]:
    """``play`` as a life of tests/powercuts.py (the journal fsync'd, as on a board)."""

    def life(journal: Path, out: Path, report: Callable[[int], None]) -> int:
        return play(plan_, journal, out, sync=True, report=report)

    return life


Life = Callable[[GamePlan, Path, Path], None]


def fork_play(plan_: GamePlan, journal: Path, out: Path, life: Life | None = None) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            (life or play)(plan_, journal, out)
            code = 0
        finally:
            os._exit(code)
    return pid


@dataclass
class CutReport:
    kills: int = 0
    games: int = 0
    restarts_with_problems: int = 0


def cut_until(
    plan_: GamePlan, folder: Path, kills: int, rng: random.Random, life: Life | None = None
) -> tuple[CutReport, list[dict]]:
    """Kill and restart until ``kills`` SIGKILLs were delivered and the last game finished
    (each life of the board is ``life``, by default ``play``)."""
    report = CutReport()
    results: list[dict] = []
    # how long one uninterrupted life takes, to spread the kills over it
    out = folder / "clean.json"
    pid = fork_play(plan_, folder / "clean.jsonl", out, life)
    began = time.perf_counter()
    _, status = os.waitpid(pid, 0)
    span = time.perf_counter() - began
    assert os.waitstatus_to_exitcode(status) == 0
    results.append(json.loads(out.read_text()))
    game = 0
    while True:
        game += 1
        journal = folder / f"game{game}.jsonl"
        out = folder / f"game{game}.json"
        while not out.exists():
            pid = fork_play(plan_, journal, out, life)
            if report.kills < kills:
                time.sleep(rng.uniform(0.0, span * 0.7))
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                report.kills += 1
            elif os.waitstatus_to_exitcode(status) != 0:
                raise AssertionError(f"the board failed to restart: exit {status}")
        results.append(json.loads(out.read_text()))
        report.games += 1
        if report.kills >= kills:
            return report, results


# ---------------------------------------------------------------------- a disk that fills up


@dataclass
class DiskFaults:
    """How the disk fails in one life of the board. ``fsize``: the board's own process is held
    to a file-size limit at random moments and let go later (RLIMIT_FSIZE). ``full_flag``: a
    file the parent creates while it has filled the file system (a real full tmpfs) and
    removes when it frees it; the child only waits."""

    seed: int
    fsize: bool = False
    full_flag: Path | None = None


def _report(fd: int, tag: bytes, ply: int) -> None:
    """Tell the parent (over a pipe: never through the failing disk) what the journal holds."""
    os.write(fd, b"%s%d\n" % (tag, ply))


def play_on_failing_disk(
    plan_: GamePlan, journal: Path, out: Path, report: int, faults: DiskFaults
) -> None:
    """One life of the board on a disk that refuses records now and then. A move the disk
    refuses is put back, the players wait until the board says it saves again, and play goes
    on from that move, as after a restart. Every confirmed ply is reported as ``C<ply>``; the
    ply resumed from the journal at start as ``R<ply>``."""
    import resource

    from .diskfault import set_board_as_shown

    rng = random.Random(faults.seed)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    limited = False

    def limit(on: bool) -> None:
        nonlocal limited
        size = journal.stat().st_size if journal.exists() else 0
        new = size + rng.randint(0, 150) if on else soft
        resource.setrlimit(resource.RLIMIT_FSIZE, (new, hard))
        limited = on

    cfg = SessionConfig(checkpoint_seconds=5)
    records = plan_.trace.records
    s = Session.open(cfg, str(journal), 0.0)
    _report(report, b"R", s.game.ply)
    if any("damaged or missing" in p or "does not fit" in p for p in s.problems):
        _report(report, b"G", s.game.ply)  # a confirmed record was lost (even if recovered)
    confirmed = s.game.ply
    t = 1.0
    tries = 0
    while s.phase != "over":
        while s.journal_problem:  # the players wait; the board retries once a second
            if limited and rng.random() < 0.2:
                limit(False)
            if faults.full_flag is not None:
                time.sleep(0.002)  # the parent frees the file system in its own time
            t += 1.0
            s.advance(t)
        if s.phase in ("restore", "play") and s.tracker.mode != "play":
            tries += 1
            if tries > 50:
                raise AssertionError(f"the board never stood right: {s.message}")
            t = set_board_as_shown(s, t)
            continue  # the board may refuse again while it is being set
        tries = 0
        start = plan_.resume_at[s.game.ply] if s.game.ply < len(plan_.resume_at) else len(records)
        t0 = (records[start].t if start < len(records) else 0.0) - (t + 2.0)
        refused = False
        for rec in records[start:]:
            if faults.fsize and not limited and rng.random() < 0.03:
                limit(True)
            t = rec.t - t0
            if isinstance(rec, Frame):
                s.feed_frame(t, rec.occupied)
            else:
                s.press(t, rec.button)
            if s.game.ply > confirmed:
                confirmed = s.game.ply
                _report(report, b"C", confirmed)
                if faults.full_flag is not None:
                    time.sleep(0.004)  # a move takes a moment: the other program runs too
            if s.journal_problem:
                refused = True
                _report(report, b"F", s.game.ply)
                break
            if s.phase == "over":
                break
        if not refused:
            break
    if limited:
        limit(False)
    end = t + 5.0
    s.advance(end)
    while s.journal_problem:  # the end of the game is written before the result is told
        end += 1.0
        s.advance(end)
    if s.phase != "over":
        s.press(end, "pause", "hold")  # the arbiter stops the game: tally now
        s.press(end, "next")
        s.press(end, "confirm")
    outcome = s.outcome
    result = {"reason": outcome.reason, "winner": outcome.winner, "csv": s.export_csv(),
              "ply": s.game.ply}  # fmt: skip
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, out)


@dataclass
class FaultReport:
    kills: int = 0
    games: int = 0
    refusals_seen: int = 0
    lives: int = 0
    lost: list[str] = field(default_factory=list)
    """Every life that resumed fewer plies than the last life had confirmed, or found a
    confirmed record damaged (even one the session could prove again): must be empty."""


def _read_reports(fd: int, buffer: bytearray) -> list[tuple[bytes, int]]:
    try:
        while chunk := os.read(fd, 4096):
            buffer.extend(chunk)
    except BlockingIOError:
        pass
    out = []
    while b"\n" in buffer:
        line, _, rest = bytes(buffer).partition(b"\n")
        buffer[:] = rest
        out.append((line[:1], int(line[1:])))
    return out


def cut_on_failing_disk(
    plan_: GamePlan,
    journal_dir: Path,
    results_dir: Path,
    kills: int,
    rng: random.Random,
    fsize: bool = False,
    fill: Callable[[], None] | None = None,
    free: Callable[[], None] | None = None,
    min_refusals: int = 0,
) -> tuple[FaultReport, list[dict]]:
    """Kill and restart the board while its disk fills and frees, until ``kills`` SIGKILLs
    were delivered, the disk refused at least ``min_refusals`` writes and the last game
    finished; checks that no life ever resumed fewer plies than the lives before it had
    confirmed. The kills are spread over the time of one life, which a loaded machine changes:
    how many writes the disk refuses in ``kills`` lives depends on it, so the lives go on (up to
    four times ``kills``) until the refusals wanted were seen."""
    report = FaultReport()

    def enough() -> bool:
        return report.kills >= kills and report.refusals_seen >= min_refusals

    results: list[dict] = []
    # how long one uninterrupted life takes on this disk, to spread the kills over it
    began = time.perf_counter()
    pid = fork_play(plan_, journal_dir / "timing.jsonl", results_dir / "timing.json")
    os.waitpid(pid, 0)
    span = time.perf_counter() - began
    if fill is not None:
        span += 0.004 * plan_.trace_moves  # the moment each move takes (play_on_failing_disk)
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    buffer = bytearray()
    flag = results_dir / "disk-full"
    game = 0
    try:
        while True:
            game += 1
            journal = journal_dir / f"game{game}.jsonl"
            out = results_dir / f"game{game}.json"
            confirmed = 0
            while not out.exists():
                report.lives += 1
                faults = DiskFaults(rng.randrange(2**32), fsize, flag if fill else None)
                pid = os.fork()
                if pid == 0:  # the child: never returns into pytest
                    code = 1
                    try:
                        os.close(read_fd)
                        play_on_failing_disk(plan_, journal, out, write_fd, faults)
                        code = 0
                    finally:
                        os._exit(code)
                deadline = time.monotonic() + rng.uniform(0.0, span * 0.7)
                while True:
                    if fill is not None and rng.random() < 0.5:
                        if flag.exists():
                            free()  # type: ignore[misc]
                            flag.unlink()
                        else:
                            flag.touch()
                            fill()
                    time.sleep(rng.uniform(0.001, 0.01))
                    done, status = os.waitpid(pid, os.WNOHANG)
                    if done:
                        break
                    if not enough() and report.kills < 4 * kills and time.monotonic() >= deadline:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(pid, signal.SIGKILL)
                        _, status = os.waitpid(pid, 0)
                        break
                if fill is not None and flag.exists():
                    free()  # type: ignore[misc]
                    flag.unlink()
                for tag, ply in _read_reports(read_fd, buffer):
                    if tag == b"R" and ply < confirmed:
                        report.lost.append(f"game {game}: resumed {ply}, confirmed {confirmed}")
                    if tag == b"F":
                        report.refusals_seen += 1
                    elif tag == b"G":
                        report.lost.append(f"game {game}: a confirmed record was damaged")
                    else:
                        confirmed = max(confirmed, ply)
                if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                    report.kills += 1
                elif os.waitstatus_to_exitcode(status) != 0:
                    raise AssertionError(f"the board failed to restart: exit {status}")
            results.append(json.loads(out.read_text()))
            report.games += 1
            if enough():
                return report, results
            if report.kills >= 4 * kills:
                raise AssertionError(f"the disk refused too few writes to test: {report}")
    finally:
        os.close(read_fd)
        os.close(write_fd)
