"""Power cuts in a Dadama game with throws: SIGKILL the board at 200+ random moments; every game
ends exactly as the uninterrupted one, throw for throw (the throws come from the journal)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from controller.session.dadama import DadamaConfig, DadamaSession

from .dadama_play import act

SEED = 20261124


def play(journal: Path, out: Path) -> None:
    """One life of the board: resume from the journal (the players set the board as the LEDs
    show it), play on, write the finished game."""
    s = DadamaSession.open(DadamaConfig(seed=SEED), str(journal))
    t = 0.0
    for _ in range(4000):
        if s.phase == "over":
            break
        t = act(s, t)
    result = {"record": s.record_text(), "problems": s.problems, "throws": s.throws}
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, out)
    s.close()


def fork_play(journal: Path, out: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            play(journal, out)
            code = 0
        finally:
            os._exit(code)
    return pid


@pytest.mark.slow
def test_two_hundred_power_cuts_change_no_throw_and_no_step(tmp_path):
    rng = random.Random(7)
    clean = tmp_path / "clean.json"
    began = time.perf_counter()
    pid = fork_play(tmp_path / "clean.jsonl", clean)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    span = time.perf_counter() - began
    expected = json.loads(clean.read_text())
    assert "Termination" in expected["record"] and expected["throws"] > 10
    kills = games = 0
    while kills < 200:
        games += 1
        out = tmp_path / f"game{games}.json"
        journal = tmp_path / f"game{games}.jsonl"
        while not out.exists():
            pid = fork_play(journal, out)
            if kills < 200:
                time.sleep(rng.uniform(0.0, span * 0.8))
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                kills += 1
            else:
                assert os.waitstatus_to_exitcode(status) == 0
        got = json.loads(out.read_text())
        assert got["record"] == expected["record"]
        assert got["throws"] == expected["throws"]
        assert all("cut short" in p or "damaged" in p for p in got["problems"]), got["problems"]
    print(f"{kills} kills over {games} games")
