"""Every game of the registry, through the board's one runtime: its short game played to the end
by hands on the simulated board's mock sensors and buttons (the scan loop reads them, the game
decides), its finished game kept once in ``games/`` by the loop's keeper, and not again when the
board starts again on the finished game. A game registered without a player fails here."""

from __future__ import annotations

import pytest

from controller.board import BoardHost, ScanLoop
from controller.board.sim import sim_devices
from controller.games import GAMES
from controller.games.keeper import Keeper

from .players import PLAYERS, SETTLE, Board, play_on

WALL = 1_700_000_000.0


class LoopBoard(Board):
    """The players' hands on a simulated board of the game's size: each change goes to the
    mock sensors (or buttons), and the board's own scan loop reads it."""

    def __init__(self, game, folder) -> None:
        super().__init__(game)
        geometry = game.kind.geometry
        self.devices, self.hands = sim_devices(lambda: self.t, geometry.size, geometry.grid)
        self.hands.set_occupied(game.expected())
        self.devices.sensors.scan()
        self.loop = ScanLoop(game, self.devices, Keeper.of_board(folder, lambda: WALL))

    def settle(self, seconds: float = SETTLE) -> None:
        end = self.t + seconds
        while self.t < end:
            self.t += 0.05
            self.loop.step(self.t)

    def show(self) -> None:
        self.cells = set(self.game.expected())
        self.hands.set_occupied(self.cells)
        self.settle()

    def do(self, step) -> None:
        what, arg = step
        if what == "lift":
            self.cells.discard(arg)
        elif what == "place":
            self.cells.add(arg)
        if what in ("lift", "place"):
            self.hands.set_occupied(self.cells)
        elif arg in ("confirm", "next", "pause", "takeback", "new_game"):
            self.hands.press(arg)
        else:
            self.game.press(self.t, arg)  # a page's own button (a die's face)
        self.settle()

    def close(self) -> None:
        self.game.close(self.t)
        self.devices.close()


def test_every_registered_game_has_a_player() -> None:
    assert set(PLAYERS) == set(GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_a_finished_game_is_kept_once_and_not_again_after_a_restart(name, tmp_path) -> None:
    kind, player = GAMES[name], PLAYERS[name]
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL)
    short = player.short
    game = host.open(kind, short.settings, 0.0, position=short.position)
    board = LoopBoard(game, tmp_path)
    board.show()
    assert game.finished() is None
    play_on(board, short)
    assert game.finished() is not None, game.problems
    kept = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert kept == sorted(f"game-{int(WALL)}.{suffix}" for suffix in player.files)
    board.settle(5.0)  # the loop goes on: the finished game is not kept again
    board.close()
    again = host.open(kind, {}, 100.0)  # the board starts again on its finished game
    assert again.finished() is not None and again.kind is kind
    restarted = LoopBoard(again, tmp_path)
    restarted.t = 100.0
    restarted.show()
    restarted.settle(5.0)
    restarted.close()
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == kept
    files = game.files()
    for suffix in player.files:
        assert (tmp_path / "games" / f"game-{int(WALL)}.{suffix}").read_text() == files[suffix]


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_put_away_before_another_keeps_its_journal_once(name, tmp_path) -> None:
    """The new-game button of every game: the game with moves kept whole in ``games/``."""
    kind, player = GAMES[name], PLAYERS[name]
    host = BoardHost(tmp_path, sync=False, wall=lambda: WALL)
    game = host.open(kind, player.long.settings, 0.0, position=player.long.position)
    board = Board(game)
    board.show()
    turn = player.long.next_turn(board)
    assert turn is not None
    for step in turn:
        board.do(step)
    assert host.put_away(game) is None
    assert not host.has_game()
    (journal,) = (tmp_path / "games").glob("*.jsonl")
    assert journal.name == f"game-{int(WALL)}.jsonl"
    assert host.held() is None
