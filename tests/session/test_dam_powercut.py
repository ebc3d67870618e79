"""Power cuts in a Dam game (12×12): SIGKILL the board at random moments; every game resumes
from its journal (the players set the board as the lights show) and ends with exactly the PDN
of the uninterrupted game, the last life going on from the moves its journal kept."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from controller.games.dam import RULES as DAM_RULES
from controller.session.draughts import DraughtsConfig, DraughtsSession

KILLS = 200


def play(journal: Path, out: Path) -> None:
    """One life of the board: resume, show the board as the game stands, then each side plays
    its first legal move (lift, set down on the way, take off the taken) until the game ends."""
    config = DraughtsConfig({"quiet_move_limit": 10})
    s = DraughtsSession.open(DAM_RULES, config, str(journal), sync=True)
    resumed_at = s.view().ply
    t = 0.0
    board = set(s.game.occupied())

    def show() -> None:
        nonlocal t
        for _ in range(2):
            s.feed_frame(t, board)
            t += 1.0
            s.tick(t)

    show()
    while s.phase == "play":
        move = s.game.legal_moves()[0]
        board.discard(move.path[0])
        show()
        board.add(move.path[-1])
        board.difference_update(move.captures)
        show()
    assert s.phase == "over", s.message
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps({"pdn": s.pdn(), "problems": s.problems, "resumed_at": resumed_at}))
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
def test_power_cuts_change_no_move(tmp_path):
    rng = random.Random(12)
    clean = tmp_path / "clean.json"
    began = time.perf_counter()
    pid = fork_play(tmp_path / "clean.jsonl", clean)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    span = time.perf_counter() - began
    expected = json.loads(clean.read_text())
    assert expected["pdn"].count(".") > 10 and '[Result "*"]' not in expected["pdn"]
    kills = games = 0
    resumed = []
    while kills < KILLS:
        games += 1
        out = tmp_path / f"game{games}.json"
        journal = tmp_path / f"game{games}.jsonl"
        while not out.exists():
            pid = fork_play(journal, out)
            if kills < KILLS:
                time.sleep(rng.uniform(0.0, span * 0.8))
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                kills += 1
            else:
                assert os.waitstatus_to_exitcode(status) == 0
        got = json.loads(out.read_text())
        assert got["pdn"] == expected["pdn"]
        resumed.append(got["resumed_at"])
        assert all("cut short" in p or "damaged" in p for p in got["problems"]), got["problems"]
    assert max(resumed) > 0, resumed  # games went on from their journals, not from the start
    print(f"{kills} kills over {games} games, {sum(r > 0 for r in resumed)} resumed at their end")
