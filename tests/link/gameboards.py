"""Boards of every game for the link's and the hub's tests: a board's folder, its game opened by
the board runtime (``BoardHost``) and played by hands on its sensors and buttons
(``tests/games/players.py``: each game's long game, the same every time), and the board's own
export of the game (``BoardGame.files``) that the hub's record must equal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from controller import registry
from controller.board import BoardHost
from controller.games import GAMES, BoardGame
from controller.link.protocol import Envelope
from tests.games.players import PLAYERS, Board, play_on

OTHER_GAMES = tuple(name for name in registry.NAMES if name != registry.DAMATH)
"""Every game of the registry but Damath (whose own tests are the hub's older ones)."""
EXPORTS = {"dadama": "pdn", "dam": "pdn", "english": "pdn", "mathchess": "json", "italian": "pdn"}
"""What the board keeps as each game's record (``BoardGame.files``), the hub's to equal."""


def open_game(folder: Path, name: str) -> Board:
    """A board of game ``name`` whose folder is ``folder``, its game opened from its long game's
    start and shown on the board, ready for ``play``."""
    player = PLAYERS[name].long
    host = BoardHost(folder, sync=False, wall=lambda: 1_700_000_000.0)
    board = Board(host.open(GAMES[name], player.settings, 0.0, position=player.position))
    board.show()
    return board


def play(board: Board, name: str, turns: int | None = None) -> None:
    """The players play on, until the game's ``turns`` turns (all of them by default) or its
    end."""
    player = PLAYERS[name].long
    play_on(board, player if turns is None else replace(player, turns=turns))
    assert not board.game.problems, board.game.problems


def play_game(folder: Path, name: str) -> BoardGame:
    """Game ``name`` played on a board whose folder is ``folder``, from its opening (its long
    game) to its end or its turns."""
    board = open_game(folder, name)
    play(board, name)
    return board.game


def first(envelopes: list[Envelope], fits: Callable[[dict], bool]) -> Envelope:
    """The first record of the game that ``fits``."""
    return next(e for e in envelopes if fits(e.record))
