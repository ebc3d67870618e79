"""A simulated Dam board with a state folder (controller/sim/tables.py, the Dam game through the
board's game interface): its game resumes from the journal after a restart, a finished game's
PDN is kept once in ``games/``, and a wrong action or button is refused with its reason."""

from __future__ import annotations

import pytest

from controller.sim.engine import SimBoard, SimError

from .test_browser_dam import EDGE


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def click(board: SimBoard, clock: Clock, x: int, y: int) -> None:
    board.act({"type": "click", "square": [x, y]})
    clock.now += 1.0
    board.tick()


def dam_board(clock: Clock, folder=None, position=None) -> SimBoard:
    board = SimBoard("d", clock, state_dir=folder, defaults={"game": "dam"})
    if position is not None:
        board.act({"type": "new_game", "game": "dam", "position": position, "confirm": True})
    return board


def test_a_game_resumes_and_its_pdn_is_kept_once(tmp_path):
    clock = Clock()
    board = dam_board(clock, tmp_path, EDGE)
    clock.now += 1.0
    board.tick()
    assert board.game.status() == "play"
    click(board, clock, 5, 0)
    click(board, clock, 11, 6)
    board.close()
    again = SimBoard("d", clock, state_dir=tmp_path)  # restarted: the journal's game stands,
    assert again.kind.name == "dam"
    assert (5, 0) in again.table.occupied()  # the half-made move was never played: king back
    clock.now += 1.0
    again.tick()
    assert again.game.status() == "play"
    for sq in ((5, 0), (11, 6), (11, 6), (7, 10)):  # set down on the edge, lifted, on again
        click(again, clock, *sq)
    again.act({"type": "remove", "square": [7, 2]})
    again.act({"type": "remove", "square": [8, 9]})
    clock.now += 1.0
    again.tick()
    assert again.game.status() == "over"
    games = tmp_path / "boards" / "d" / "games"
    kept = list(games.glob("*.pdn"))
    assert len(kept) == 1
    assert '[Result "1-0"]' in kept[0].read_text(encoding="utf-8")
    again.tick()
    again.close()
    assert len(list(games.glob("*.pdn"))) == 1
    third = SimBoard("d", clock, state_dir=tmp_path)  # the finished game resumed: not again
    third.tick()
    assert len(list(games.glob("*.pdn"))) == 1
    third.close()


def test_wrong_actions_are_refused_with_their_reason():
    clock = Clock()
    board = dam_board(clock)
    with pytest.raises(SimError, match="Unknown button"):
        board.act({"type": "button", "name": "launch"})
    with pytest.raises(SimError, match="nothing to lift"):
        board.act({"type": "click", "square": [0, 5]})
    with pytest.raises(SimError, match="not an action"):
        board.act({"type": "crown", "square": [1, 0]})
    with pytest.raises(SimError, match="off the board"):
        board.act({"type": "click", "square": [0, 0]})
    board.act({"type": "button", "name": "takeback"})  # a button Dam has no use for
    assert "does nothing in Dam" in board.snapshot()["message"]


def test_set_game_dam_starts_every_new_board_on_12x12_and_resumes_it(tmp_path):
    clock = Clock()
    b = SimBoard("d", clock, state_dir=tmp_path, defaults={"game": "dam"})
    snap = b.snapshot()
    assert snap["game"] == "dam" and snap["size"] == 12 and len(snap["pieces"]) == 60
    assert len(snap["leds"]) == 72
    clock.now += 1.0
    b.tick()
    b.act({"type": "click", "square": [1, 4]})
    clock.now += 1.0
    b.tick()
    b.act({"type": "click", "square": [2, 5]})
    clock.now += 1.0
    b.tick()
    assert b.snapshot()["ply"] == 1
    b.close()
    again = SimBoard("d", clock, state_dir=tmp_path)  # restarted without --set: still Dam
    assert again.snapshot()["game"] == "dam" and again.snapshot()["ply"] == 1
    with pytest.raises(SimError, match="capture_priority"):
        again.act(
            {
                "type": "new_game",
                "variant": "dam",
                "rules": {"capture_priority": "x"},
                "confirm": True,
            }
        )
    assert again.snapshot()["ply"] == 1  # the game on the board is untouched
    again.close()
