"""Power cuts through every game of the registry: the board is cut at placed journal operations
(tests/powercuts.py; the random soak is bench/soak_powercuts.py) while its long game is played,
through the board's one interface of a game (``BoardHost`` opens it from the journal, the
players' hands act on the board and the buttons); every life goes on from the journal the last
one left (the board set as the game stands), and every game ends with exactly the files of the
game played without a cut: nothing lost, nothing played twice."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.games import GAMES
from tests.powercuts import cut_at_placed_points

from .players import PLAYERS, Board, play_on


def life(name: str, folder: Path, out: Path, report: Callable[[int], None] | None = None) -> int:
    """One life of the board: the game in its journal (or a new one), shown, played on;
    returns the turns it resumed from."""
    kind, game_of = GAMES[name], PLAYERS[name].long
    game = BoardHost(folder, sync=True).open(kind, game_of.settings, 0.0, position=game_of.position)
    board = Board(game)
    resumed_at = game_of.played(board)
    board.show()
    play_on(board, game_of, report)
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
    return resumed_at


def placed_life(name: str) -> Callable[[Path, Path, Callable[[int], None]], int]:
    """``life`` as a life of tests/powercuts.py: its journal's folder is the board's folder."""

    def one(journal: Path, out: Path, report: Callable[[int], None]) -> int:
        return life(name, journal.parent, out, report)

    return one


@pytest.mark.parametrize(
    "name", [n if n == "damath" else pytest.param(n, marks=pytest.mark.slow) for n in GAMES]
)
def test_power_cuts_at_placed_journal_operations_lose_nothing_in_every_game(
    name: str, tmp_path: Path
) -> None:
    """Each game cut before its first journal operations and at points spread over the rest
    (a killed process, a power cut, a torn write: tests/powercuts.py): every game ends with the
    files of the game played whole, and no turn the board confirmed is missing after a cut."""
    clean, report = cut_at_placed_points(placed_life(name), tmp_path, count=12)
    assert clean["played"] >= 5, clean
    assert report.lost == []
    for result in report.results:
        assert untimed(result["files"]) == untimed(clean["files"])
        assert result["played"] == clean["played"]
    assert max(r["resumed_at"] for r in report.results) > 0  # lives went on from journals


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
