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
from dataclasses import dataclass
from pathlib import Path

from controller.session import Session, SessionConfig
from controller.tracker.trace import Frame, Trace


@dataclass
class GamePlan:
    trace: Trace
    resume_at: list[int]
    """For each ply n, the index of the first trace record after move n was committed."""


def plan(trace: Trace) -> GamePlan:
    """Run the trace once, uninterrupted, to learn where each move was committed."""
    s = Session(SessionConfig(checkpoint_seconds=0))
    s._begin(0.0)
    resume_at = [0]
    for i, rec in enumerate(trace.records):
        if isinstance(rec, Frame):
            s.feed_frame(rec.t, rec.occupied)
        else:
            s.press(rec.t, rec.button)
        while len(resume_at) <= s.game.ply:
            resume_at.append(i + 1)
    return GamePlan(trace, resume_at)


def play(plan_: GamePlan, journal: Path, out: Path, sync: bool = True) -> None:
    """One life of the board: resume from the journal, play the rest, write the result."""
    cfg = SessionConfig(checkpoint_seconds=5)
    records = plan_.trace.records
    s = Session.open(cfg, str(journal), 0.0, sync=sync)
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


def fork_play(plan_: GamePlan, journal: Path, out: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            play(plan_, journal, out)
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
    plan_: GamePlan, folder: Path, kills: int, rng: random.Random
) -> tuple[CutReport, list[dict]]:
    """Kill and restart until ``kills`` SIGKILLs were delivered and the last game finished."""
    report = CutReport()
    results: list[dict] = []
    # how long one uninterrupted life takes, to spread the kills over it
    out = folder / "clean.json"
    pid = fork_play(plan_, folder / "clean.jsonl", out)
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
            pid = fork_play(plan_, journal, out)
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
