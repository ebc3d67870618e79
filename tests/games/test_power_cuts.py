"""Power cuts through every game of the registry: the board is SIGKILLed at random moments
while its long game is played, through the board's one interface of a game (``BoardHost`` opens
it from the journal, the players' hands act on the board and the buttons); every life goes on
from the journal the last one left (the board set as the game stands), and every game ends with
exactly the files of the game played without a cut: nothing lost, nothing played twice."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.games import GAMES

from .players import PLAYERS, Board, play_on

KILLS = 30
"""Cuts a game: 150 over the five games."""


def life(name: str, folder: Path, out: Path) -> None:
    """One life of the board: the game in its journal (or a new one), shown, played on."""
    kind, game_of = GAMES[name], PLAYERS[name].long
    game = BoardHost(folder, sync=True).open(kind, game_of.settings, 0.0, position=game_of.position)
    board = Board(game)
    resumed_at = game_of.played(board)
    board.show()
    play_on(board, game_of)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(
        json.dumps(
            {
                "files": game.files(),
                "played": game_of.played(board),
                "problems": game.problems,
                "resumed_at": resumed_at,
            }
        )
    )
    os.replace(tmp, out)
    game.close(board.t)


def untimed(files: dict[str, str]) -> dict[str, str]:
    """A game's files without the clocks' readings: a cut gives the players back the time
    since the last checkpoint (docs/session.md), so only the time a move took may differ."""
    clock = re.compile(r"\s*\[%(?:clk|emt) [^\]]*\]")
    return {kind: clock.sub("", text) for kind, text in files.items()}


def fork_life(name: str, folder: Path, out: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            life(name, folder, out)
            code = 0
        finally:
            os._exit(code)
    return pid


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_power_cuts_lose_nothing_in_every_game(name, tmp_path) -> None:
    rng = random.Random(sum(map(ord, name)))
    clean = tmp_path / "clean.json"
    began = time.perf_counter()
    pid = fork_life(name, tmp_path / "clean", clean)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    span = time.perf_counter() - began
    expected = json.loads(clean.read_text())
    assert expected["played"] >= 5, expected  # a game long enough for the cuts to land in
    kills = games = 0
    resumed: list[int] = []
    while kills < KILLS:
        games += 1
        out = tmp_path / f"game{games}.json"
        folder = tmp_path / f"game{games}"
        while not out.exists():
            pid = fork_life(name, folder, out)
            if kills < KILLS:
                time.sleep(rng.uniform(0.0, span * 0.9))
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                kills += 1
            else:
                assert os.waitstatus_to_exitcode(status) == 0
        got = json.loads(out.read_text())
        assert untimed(got["files"]) == untimed(expected["files"])  # the clean game's record
        assert got["played"] == expected["played"]
        resumed.append(got["resumed_at"])
    assert max(resumed) > 0, resumed  # games went on from their journals, not from the start
    print(f"{name}: {kills} kills over {games} games, resumed at {sorted(set(resumed))}")
